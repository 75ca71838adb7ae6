// Package memory is a ports.Store that keeps everything in maps, for unit
// tests and demos. It follows the same contract as the SQL stores (the
// portstest suite runs against it), including their precision: times are
// kept in UTC at microseconds, as PostgreSQL keeps them.
package memory

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/wakeup"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Store is the in-memory store. Transactions run one at a time on a private
// copy of the state, which replaces the committed state only when the
// transaction succeeds, so a rollback is exact. A write outside a
// transaction waits for a running transaction to end, since the transaction's
// commit would otherwise overwrite it; reads outside a transaction see the
// committed state and never wait for one.
//
// Code inside InTx must use the Repos it is handed: a write through
// Store.Repos there waits for the very transaction it runs in, until ctx ends.
type Store struct {
	// writer holds one token, taken by a transaction or a single write for
	// its whole duration.
	writer chan struct{}
	mu     sync.RWMutex // guards data
	data   *state
	// waker wakes the outbox's readers after a commit that appended events.
	waker wakeup.Broadcaster
}

var _ ports.Store = (*Store)(nil)

// New returns an empty store.
func New() *Store {
	return &Store{writer: make(chan struct{}, 1), data: newState()}
}

// Repos returns repositories that work outside a transaction.
func (s *Store) Repos() ports.Repos {
	return unit{store: s}.repos()
}

// InTx runs fn on a copy of the state and commits the copy when fn returns
// nil. fn's error comes back unchanged; a panic in fn rolls back too.
func (s *Store) InTx(ctx context.Context, fn func(ports.Repos) error) error {
	if err := s.acquire(ctx); err != nil {
		return err
	}
	defer s.release()
	s.mu.RLock()
	tx := &txState{data: s.data.clone()}
	s.mu.RUnlock()
	defer tx.end()

	if err := fn(unit{store: s, tx: tx}.repos()); err != nil {
		return err
	}
	tx.end()
	s.mu.Lock()
	s.data = tx.data
	s.mu.Unlock()
	if tx.appended {
		s.waker.Wake()
	}
	return nil
}

// Subscribe implements ports.EventWaker.
func (s *Store) Subscribe() (<-chan struct{}, func()) { return s.waker.Subscribe() }

// Ping reports whether ctx is still live: the store itself is always there.
func (s *Store) Ping(ctx context.Context) error {
	return ctx.Err()
}

func (s *Store) acquire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case s.writer <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Store) release() { <-s.writer }

// errTxEnded is what repositories of a finished transaction answer: their
// state is either discarded or committed, and writing to it would bypass the
// store's locking.
var errTxEnded = errors.New("memory: repositories used after their transaction ended")

// txState is a transaction's private copy of the state. Its mutex lets fn
// use the repositories from several goroutines.
type txState struct {
	mu    sync.Mutex
	data  *state
	ended bool
	// appended tells that the transaction appended events.
	appended bool
}

func (tx *txState) end() {
	tx.mu.Lock()
	tx.ended = true
	tx.mu.Unlock()
}

// unit is what one set of repositories works on: the committed state when
// tx is nil, a transaction's copy otherwise.
type unit struct {
	store *Store
	tx    *txState
}

func (u unit) repos() ports.Repos {
	return ports.Repos{
		Users:          users{u},
		Tokens:         tokens{u},
		RateLimits:     rateLimits{u},
		Idempotency:    idempotency{u},
		People:         people{u},
		Products:       products{u},
		Posts:          posts{u},
		PostViews:      postViews{u},
		Tags:           tags{u},
		Comments:       comments{u},
		Sessions:       sessions{u},
		Events:         events{u},
		Webhooks:       webhooks{u},
		Deliveries:     deliveries{u},
		Mails:          mails{u},
		PasswordResets: passwordResets{u},
		Admin:          admin{u},
		Trash:          trash{u},
	}
}

// appended notes that events were appended: at once outside a transaction,
// whose write has committed, and at the commit inside one.
func (u unit) appended() {
	if u.tx == nil {
		u.store.waker.Wake()
		return
	}
	u.tx.mu.Lock()
	u.tx.appended = true
	u.tx.mu.Unlock()
}

// read runs f on the state for reading.
func (u unit) read(ctx context.Context, f func(*state) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if u.tx != nil {
		return u.inTx(f)
	}
	u.store.mu.RLock()
	defer u.store.mu.RUnlock()
	return f(u.store.data)
}

// write runs f on the state for writing. Outside a transaction f changes the
// committed state directly, so it must check everything before it changes
// anything: an error must leave the state as it was.
func (u unit) write(ctx context.Context, f func(*state) error) error {
	if u.tx != nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		return u.inTx(f)
	}
	if err := u.store.acquire(ctx); err != nil {
		return err
	}
	defer u.store.release()
	u.store.mu.Lock()
	defer u.store.mu.Unlock()
	return f(u.store.data)
}

// count runs f, which changes the state and says how many records it
// changed, as one write.
func (u unit) count(ctx context.Context, f func(*state) int64) (int64, error) {
	var n int64
	err := u.write(ctx, func(s *state) error {
		n = f(s)
		return nil
	})
	return n, err
}

// get reads record id of the table that rows picks, as of makes it (a
// clone that shares nothing with the state); a missing one is
// domain.ErrNotFound, named by what.
func get[S, T any](ctx context.Context, u unit, rows func(*state) map[int64]S, of func(S) T, what string, id int64) (T, error) {
	var out T
	err := u.read(ctx, func(s *state) error {
		v, ok := rows(s)[id]
		if !ok {
			return fmt.Errorf("%s %d: %w", what, id, domain.ErrNotFound)
		}
		out = of(v)
		return nil
	})
	return out, err
}

func (u unit) inTx(f func(*state) error) error {
	u.tx.mu.Lock()
	defer u.tx.mu.Unlock()
	if u.tx.ended {
		return errTxEnded
	}
	return f(u.tx.data)
}

// norm gives a time the form the SQL stores give it back in: UTC, whole
// microseconds, no monotonic reading.
func norm(t time.Time) time.Time {
	return t.UTC().Truncate(time.Microsecond)
}

func normPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	n := norm(*t)
	return &n
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// counter is one rate-limit key's window.
type counter struct {
	hits    int
	resetAt time.Time
}

// state is everything the store holds. Stored values are never changed in
// place, only replaced, and their slices and pointers belong to the store
// alone, so a shallow copy of the maps is a full snapshot.
type state struct {
	users       map[int64]domain.User
	userEmails  map[string]int64
	tokens      map[int64]domain.Token
	tokenHashes map[string]int64
	// streamed holds the ids of the tokens that opened an event stream.
	streamed     map[int64]bool
	counters     map[string]counter
	people       map[int64]domain.Person
	personEmails map[string]int64
	products     map[int64]domain.Product
	productSKUs  map[string]int64
	posts        map[int64]domain.PostState
	postSlugs    map[string]int64
	postTags     map[int64][]int64 // post id → its tag ids, ascending
	tags         map[int64]domain.Tag
	tagNames     map[string]int64 // tagKey(name) → id
	comments     map[int64]domain.Comment
	sessions     map[string]domain.Session // by IDHash
	idempotency  map[string]ports.IdempotencyRecord
	events       []storedEvent // in ID order
	webhooks     map[int64]domain.Webhook
	deliveries   map[int64]storedDelivery
	// webhookCursor is the id of the last event turned into deliveries.
	webhookCursor int64
	// mails is the outbox of mails, by id.
	mails    map[int64]domain.Mail
	lastMail int64
	// passwordResets is each user's live password reset, by user id.
	passwordResets map[int64]domain.PasswordReset
	// audit is the admin audit log, in id order.
	audit []domain.AuditEntry
	// trashedPosts and trashedComments are the trash, by id.
	trashedPosts    map[int64]trashedPost
	trashedComments map[int64]trashedComment

	lastUser, lastToken, lastPerson, lastProduct, lastPost, lastTag, lastComment, lastEvent int64
	lastWebhook, lastDelivery                                                               int64
}

func newState() *state {
	return &state{
		users:           map[int64]domain.User{},
		userEmails:      map[string]int64{},
		tokens:          map[int64]domain.Token{},
		tokenHashes:     map[string]int64{},
		streamed:        map[int64]bool{},
		counters:        map[string]counter{},
		people:          map[int64]domain.Person{},
		personEmails:    map[string]int64{},
		products:        map[int64]domain.Product{},
		productSKUs:     map[string]int64{},
		posts:           map[int64]domain.PostState{},
		postSlugs:       map[string]int64{},
		postTags:        map[int64][]int64{},
		tags:            map[int64]domain.Tag{},
		tagNames:        map[string]int64{},
		comments:        map[int64]domain.Comment{},
		sessions:        map[string]domain.Session{},
		idempotency:     map[string]ports.IdempotencyRecord{},
		webhooks:        map[int64]domain.Webhook{},
		deliveries:      map[int64]storedDelivery{},
		mails:           map[int64]domain.Mail{},
		passwordResets:  map[int64]domain.PasswordReset{},
		trashedPosts:    map[int64]trashedPost{},
		trashedComments: map[int64]trashedComment{},
	}
}

func (s *state) clone() *state {
	c := *s
	c.users = maps.Clone(s.users)
	c.userEmails = maps.Clone(s.userEmails)
	c.tokens = maps.Clone(s.tokens)
	c.tokenHashes = maps.Clone(s.tokenHashes)
	c.streamed = maps.Clone(s.streamed)
	c.counters = maps.Clone(s.counters)
	c.people = maps.Clone(s.people)
	c.personEmails = maps.Clone(s.personEmails)
	c.products = maps.Clone(s.products)
	c.productSKUs = maps.Clone(s.productSKUs)
	c.posts = maps.Clone(s.posts)
	c.postSlugs = maps.Clone(s.postSlugs)
	c.postTags = maps.Clone(s.postTags)
	c.tags = maps.Clone(s.tags)
	c.tagNames = maps.Clone(s.tagNames)
	c.comments = maps.Clone(s.comments)
	c.sessions = maps.Clone(s.sessions)
	c.idempotency = maps.Clone(s.idempotency)
	c.webhooks = maps.Clone(s.webhooks)
	c.deliveries = maps.Clone(s.deliveries)
	c.mails = maps.Clone(s.mails)
	c.passwordResets = maps.Clone(s.passwordResets)
	c.audit = slices.Clip(s.audit)
	c.trashedPosts = maps.Clone(s.trashedPosts)
	c.trashedComments = maps.Clone(s.trashedComments)
	return &c
}
