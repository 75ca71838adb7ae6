package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// record appends e to the outbox of the transaction r belongs to. Use cases
// call it last in a transaction, as EventRepository.Append asks.
func record(ctx context.Context, r ports.Repos, e domain.Event) error {
	return r.Events.Append(ctx, &e)
}

// revoke records that rev's credentials ended, in the transaction of r that
// ends them, so that the event streams read with them stop on every
// replica (Events.Follow). Like record, it comes last in the transaction.
func revoke(ctx context.Context, r ports.Repos, rev domain.Revocation, now time.Time) error {
	return record(ctx, r, domain.NewRevocationEvent(rev, now))
}

// EventsConfig holds the settings of the event outbox and its readers.
type EventsConfig struct {
	// Retention is how long events are kept (EVENTS_RETENTION).
	Retention time.Duration
	// Poll is how often the replica reads the outbox without being woken,
	// in case a wake-up was lost; 2 seconds when zero.
	Poll time.Duration
	// Backlog is how many batches of events wait for a follower that does
	// not take them before it is dropped: in Follow's channel, and for a
	// follower that still catches up from the outbox; 64 when zero.
	Backlog int
	// SessionLifetime is how long a browser session may idle
	// (SessionsConfig.Lifetime): a stream read with a session ends when the
	// session has idled that long. Zero: sessions never idle out.
	SessionLifetime time.Duration
	// CredentialCheck is how often the feed compares the clock with the
	// expiry of every follower whose credential expires; a second when
	// zero.
	CredentialCheck time.Duration
	// MaxStreamsPerCredential and MaxStreamsPerAddress cap the streams
	// one token or browser session, and one client address, hold open on
	// this replica (EVENTS_MAX_STREAMS_PER_TOKEN,
	// EVENTS_MAX_STREAMS_PER_ADDRESS); zero: no cap.
	MaxStreamsPerCredential int
	MaxStreamsPerAddress    int
}

// eventBatch is how many events one read of the outbox takes.
const eventBatch = 500

// Events implements ports.Events. One reader per replica (a feed) reads
// the outbox when the store wakes it and hands each batch to every
// follower, so that a thousand streams cost one read per commit, not a
// thousand; a follower that resumes from further back catches up by
// reading the outbox itself first.
type Events struct {
	store   ports.Store
	clock   ports.Clock
	cfg     EventsConfig
	feed    *feed
	streams *streamCounts
}

// NewEvents returns the use cases of the event stream.
func NewEvents(store ports.Store, clock ports.Clock, cfg EventsConfig) *Events {
	if cfg.Poll <= 0 {
		cfg.Poll = 2 * time.Second
	}
	if cfg.Backlog <= 0 {
		cfg.Backlog = 64
	}
	if cfg.CredentialCheck <= 0 {
		cfg.CredentialCheck = time.Second
	}
	e := &Events{
		store: store, clock: clock, cfg: cfg,
		feed:    &feed{store: store, poll: cfg.Poll, subs: map[*follower]struct{}{}},
		streams: &streamCounts{perCredential: map[string]int{}, perAddress: map[string]int{}},
	}
	e.feed.events = e
	return e
}

var _ ports.Events = (*Events)(nil)

// Follow implements ports.Events with a channel over Subscribe: the
// channel holds Backlog batches, and a follower that leaves it full is
// dropped.
func (e *Events) Follow(ctx context.Context, viewer ports.EventViewer, f ports.EventFilter, after int64, fromNow bool) (<-chan []ports.VisibleEvent, error) {
	sink := &chanSink{ch: make(chan []ports.VisibleEvent, e.cfg.Backlog), done: make(chan struct{})}
	cancel, err := e.Subscribe(ctx, viewer, f, after, fromNow, sink)
	if err != nil {
		return nil, err
	}
	sink.mu.Lock()
	if !sink.ended {
		sink.stop = context.AfterFunc(ctx, cancel)
	}
	sink.mu.Unlock()
	return sink.ch, nil
}

// chanSink hands a subscription's events to a channel, which it closes
// at the end: Deliver never waits, Catch waits for room.
type chanSink struct {
	ch   chan []ports.VisibleEvent
	done chan struct{} // closed by End

	mu       sync.Mutex
	ended    bool
	catching bool        // a Catch sends on ch: it closes ch after End
	stop     func() bool // stops watching Follow's context
}

func (s *chanSink) Catch(events []ports.VisibleEvent) bool {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return false
	}
	s.catching = true
	s.mu.Unlock()
	ok := false
	select {
	case s.ch <- events:
		ok = true
	case <-s.done:
	}
	s.mu.Lock()
	s.catching = false
	if s.ended {
		close(s.ch)
	}
	s.mu.Unlock()
	return ok
}

func (s *chanSink) Deliver(events []ports.VisibleEvent) bool {
	select {
	case s.ch <- events:
		return true
	default:
		return false
	}
}

func (s *chanSink) End() {
	s.mu.Lock()
	s.ended = true
	close(s.done)
	if !s.catching {
		close(s.ch)
	}
	stop := s.stop
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Subscribe implements ports.Events.
//
// A stream must not outlive its credential, on any replica. Every use case
// that ends credentials records a domain.Revocation in the outbox in the
// transaction that ends them, so each replica's feed reads it in commit
// order among the events. The feed's position when the follower joins
// (head) splits the revocations in two: those after it reach the follower
// through the feed, which stops before the first one that ends its
// credential; those at or before it committed before the join, so the
// credential, read again after the join, is gone. A login records one only
// when a token it deletes had opened a stream: the token is read again by
// marking it (Tokens.MarkStreamed), so a login that deletes it after the
// mark records the revocation, and one that deleted it before leaves
// nothing to mark. Expiry needs no record: the feed compares the clock
// with it before each batch and every CredentialCheck.
//
// A follower is a record in the feed, not a goroutine: the feed filters
// each batch for it and hands it to its sink. Only a follower that
// resumes from before the feed's position runs a goroutine, while it
// reads the outbox up to there; the feed keeps what comes meanwhile.
func (e *Events) Subscribe(ctx context.Context, viewer ports.EventViewer, f ports.EventFilter, after int64, fromNow bool, sink ports.EventSink) (func(), error) {
	cred := credentialOf(viewer)
	release, err := e.streams.open(cred, viewer.Address, e.cfg)
	if err != nil {
		return nil, err
	}
	sub := &follower{viewer: viewer, filter: f, cred: cred, sink: sink, release: release, catching: true}
	head, err := e.feed.join(ctx, sub)
	if err != nil {
		release()
		return nil, fmt.Errorf("follow events: %w", err)
	}
	fail := func(err error) (func(), error) {
		sub.mu.Lock()
		sub.ended, sub.pending = true, nil
		sub.mu.Unlock()
		e.feed.leave(sub)
		release()
		return nil, err
	}
	alive, err := e.watch(ctx, viewer, cred)
	if err != nil {
		return fail(err)
	}
	if fromNow {
		after = head
	} else if after > head {
		// The feed may lag behind the outbox; only the outbox tells
		// whether the id was ever handed out.
		last, err := e.store.Repos().Events.Last(ctx)
		if err != nil {
			return fail(fmt.Errorf("follow events: %w", err))
		}
		if after > last {
			return fail(domain.InvalidField("Last-Event-ID", domain.RuleN(domain.RuleMaxValue, last)))
		}
	}
	sub.mu.Lock()
	sub.alive, sub.after = *alive, after
	sub.mu.Unlock()
	if after < head {
		go e.catchUp(sub)
	} else {
		e.goLive(sub)
	}
	return func() { e.end(sub) }, nil
}

// catchUp reads the outbox from where sub resumes to where the feed took
// over, and no further: the feed brings what follows, revocations
// included, which a filtered read would leave out. It reads a batch once
// the sink took the last one.
func (e *Events) catchUp(sub *follower) {
	for {
		sub.mu.Lock()
		after, ended := sub.after, sub.ended
		sub.mu.Unlock()
		if ended {
			return
		}
		if after >= sub.head {
			break
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		events, err := e.store.Repos().Events.After(ctx, after, eventBatch, sub.filter)
		cancel()
		if err != nil {
			e.end(sub)
			return
		}
		n := sort.Search(len(events), func(i int) bool { return events[i].ID > sub.head })
		if n == 0 {
			break
		}
		sub.mu.Lock()
		visible, more := e.take(sub, events[:n])
		sub.mu.Unlock()
		if len(visible) > 0 && !sub.sink.Catch(visible) || !more {
			e.end(sub)
			return
		}
		if n < len(events) {
			break
		}
	}
	e.goLive(sub)
}

// goLive sends sub what the feed kept for it while it caught up, and
// from then on the feed sends to it directly.
func (e *Events) goLive(sub *follower) {
	sub.mu.Lock()
	ok := !sub.ended
	for _, events := range sub.pending {
		if ok = e.send(sub, events); !ok {
			break
		}
	}
	sub.pending, sub.catching = nil, false
	sub.mu.Unlock()
	if !ok {
		e.end(sub)
	}
}

// deliver hands a batch of the feed to sub: to its sink once it is live,
// or, while it catches up, to what it will send once it is.
func (e *Events) deliver(sub *follower, events []domain.Event) {
	sub.mu.Lock()
	ok := !sub.ended
	switch {
	case !ok:
		sub.mu.Unlock()
		return
	case sub.catching:
		if ok = len(sub.pending) < e.cfg.Backlog; ok {
			sub.pending = append(sub.pending, events)
		}
	default:
		ok = e.send(sub, events)
	}
	sub.mu.Unlock()
	if !ok {
		e.end(sub)
	}
}

// send filters events for sub and hands them to its sink; false when the
// subscription ends: its credential ended, before or among the events, or
// the sink cannot take them. The caller holds sub.mu.
func (e *Events) send(sub *follower, events []domain.Event) bool {
	visible, more := e.take(sub, events)
	if len(visible) > 0 && !sub.sink.Deliver(visible) {
		return false
	}
	return more
}

// take filters events for sub and moves it past them; false when the
// subscription ends after what it returns, as its credential ended before
// or among them. The caller holds sub.mu.
func (e *Events) take(sub *follower, events []domain.Event) ([]ports.VisibleEvent, bool) {
	if !sub.alive.check(e) {
		return nil, false
	}
	more := true
	for i, ev := range events {
		if ev.ID > sub.head && ev.Ends(sub.cred) {
			events, more = events[:i], false
			break
		}
	}
	visible := visibleOf(events, sub.viewer, sub.filter, sub.after)
	if len(events) > 0 {
		sub.after = max(sub.after, events[len(events)-1].ID)
	}
	return visible, more
}

// end ends sub, once: it leaves the feed, its stream is uncounted and its
// sink told.
func (e *Events) end(sub *follower) {
	sub.mu.Lock()
	if sub.ended {
		sub.mu.Unlock()
		return
	}
	sub.ended, sub.pending = true, nil
	sub.mu.Unlock()
	e.feed.leave(sub)
	sub.release()
	sub.sink.End()
}

// checkCredentials ends the live followers whose credential expired; the
// feed calls it every CredentialCheck.
func (e *Events) checkCredentials(subs []*follower) {
	for _, sub := range subs {
		sub.mu.Lock()
		ok := sub.ended || sub.catching || sub.alive.check(e)
		sub.mu.Unlock()
		if !ok {
			e.end(sub)
		}
	}
}

// credentialOf is the credential viewer reads with.
func credentialOf(viewer ports.EventViewer) domain.Credential {
	c := domain.Credential{UserID: viewer.User, SessionHash: viewer.SessionHash}
	if t := viewer.Token; t != nil {
		c = domain.Credential{UserID: viewer.User, TokenID: t.ID, TokenName: t.Name}
	}
	return c
}

// liveness is what a stream knows of when its credential ends: the token's
// expiry, or when its session will have idled too long (which a request in
// the session postpones, so the session is read again then).
type liveness struct {
	session  string
	user     int64
	deadline time.Time // zero: never
}

func (l *liveness) expires() bool { return !l.deadline.IsZero() }

// watch reads the viewer's credential again, after the follower joined the
// feed, and says when it expires; domain.ErrUnauthenticated when it ended
// meanwhile. An anonymous viewer's never ends.
func (e *Events) watch(ctx context.Context, viewer ports.EventViewer, cred domain.Credential) (*liveness, error) {
	repos, now := e.store.Repos(), e.clock.Now()
	switch {
	case cred.TokenID != 0:
		// Marking the token streamed makes a login that deletes it later
		// record the revocation (Accounts.Login).
		t, err := repos.Tokens.MarkStreamed(ctx, cred.TokenID)
		if errors.Is(err, domain.ErrNotFound) || err == nil && (t.Hash != viewer.Token.Hash || t.Expired(now)) {
			return nil, domain.ErrUnauthenticated
		}
		if err != nil {
			return nil, fmt.Errorf("follow events: %w", err)
		}
		l := &liveness{}
		if t.ExpiresAt != nil {
			l.deadline = *t.ExpiresAt
		}
		return l, nil
	case cred.SessionHash != "":
		l := &liveness{session: cred.SessionHash, user: cred.UserID}
		ok, err := l.renew(ctx, e, now)
		if err != nil {
			return nil, fmt.Errorf("follow events: %w", err)
		}
		if !ok {
			return nil, domain.ErrUnauthenticated
		}
		return l, nil
	}
	return &liveness{}, nil
}

// renew reads the session again and moves the deadline to when it will
// have idled too long; false when it is gone, another user's or idle.
func (l *liveness) renew(ctx context.Context, e *Events, now time.Time) (bool, error) {
	s, err := e.store.Repos().Sessions.ByHash(ctx, l.session)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if s.UserID != l.user || e.cfg.SessionLifetime > 0 && s.Expired(now, e.cfg.SessionLifetime) {
		return false, nil
	}
	if e.cfg.SessionLifetime > 0 {
		l.deadline = s.LastActivity.Add(e.cfg.SessionLifetime)
	}
	return true, nil
}

// check reports whether the credential is still alive at the clock's time.
// A session past its deadline is read again, as a request may have kept
// it active; a store that cannot tell ends the stream, which resumes.
func (l *liveness) check(e *Events) bool {
	now := e.clock.Now()
	if !l.expires() || now.Before(l.deadline) {
		return true
	}
	if l.session == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ok, err := l.renew(ctx, e, now)
	return err == nil && ok
}

// streamCounts counts the streams open on this replica per credential and
// per client address, for the caps of EventsConfig. The counts live in the
// replica, not the store: a stream is a connection to one replica, and a
// count in the store would outlive a replica that dies with its streams.
type streamCounts struct {
	mu            sync.Mutex
	perCredential map[string]int
	perAddress    map[string]int
}

// open counts one more stream of cred from address, or refuses it with
// domain.ErrTooManyStreams when either already holds its cap. The returned
// function, called once the stream ends, uncounts it; it may be called
// more than once.
func (sc *streamCounts) open(cred domain.Credential, address string, cfg EventsConfig) (func(), error) {
	key := ""
	switch {
	case cred.TokenID != 0:
		key = "token:" + strconv.FormatInt(cred.TokenID, 10)
	case cred.SessionHash != "":
		key = "session:" + cred.SessionHash
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if key != "" && cfg.MaxStreamsPerCredential > 0 && sc.perCredential[key] >= cfg.MaxStreamsPerCredential ||
		address != "" && cfg.MaxStreamsPerAddress > 0 && sc.perAddress[address] >= cfg.MaxStreamsPerAddress {
		e := *domain.ErrTooManyStreams
		e.RetryAfter = streamRetryAfter
		return nil, &e
	}
	if key != "" {
		sc.perCredential[key]++
	}
	if address != "" {
		sc.perAddress[address]++
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			sc.mu.Lock()
			defer sc.mu.Unlock()
			decrement(sc.perCredential, key)
			decrement(sc.perAddress, address)
		})
	}, nil
}

// streamRetryAfter is the Retry-After of a stream refused by a cap: a
// stream ends when its client goes, which nobody can foresee.
const streamRetryAfter = 5 * time.Second

func decrement(counts map[string]int, key string) {
	if key == "" {
		return
	}
	if counts[key] <= 1 {
		delete(counts, key)
		return
	}
	counts[key]--
}

// visibleOf keeps the events after after that f keeps and viewer may see.
func visibleOf(events []domain.Event, viewer ports.EventViewer, f ports.EventFilter, after int64) []ports.VisibleEvent {
	var out []ports.VisibleEvent
	for _, ev := range events {
		if ev.ID <= after || (len(f.Topics) > 0 && !slices.Contains(f.Topics, ev.Type.Topic())) || (f.PostID != 0 && ev.PostID != f.PostID) {
			continue
		}
		if view := ev.ViewOf(viewer.User); view != domain.EventHidden {
			out = append(out, ports.VisibleEvent{Event: ev, View: view})
		}
	}
	return out
}

// Prune implements ports.Events.
func (e *Events) Prune(ctx context.Context) (int64, error) {
	n, err := e.store.Repos().Events.Prune(ctx, e.clock.Now().Add(-e.cfg.Retention))
	if err != nil {
		return 0, fmt.Errorf("prune events: %w", err)
	}
	return n, nil
}

// feed is the replica's one reader of the outbox. It runs while somebody
// follows and hands every batch it reads to each follower without waiting:
// a follower whose sink, or whose backlog while it catches up, is full is
// dropped, so a slow reader never holds the others, and writers never
// wait for anyone.
type feed struct {
	store  ports.Store
	poll   time.Duration
	events *Events

	mu      sync.Mutex
	subs    map[*follower]struct{}
	last    int64 // the id of the last event handed out
	running bool

	// batch is the followers a batch goes to, kept between batches (the
	// feed's goroutine alone uses it).
	batch []*follower
}

// follower is one subscription: a record the feed filters each batch for.
type follower struct {
	// Set when it joins, read only afterwards.
	viewer  ports.EventViewer
	filter  ports.EventFilter
	cred    domain.Credential
	head    int64 // the feed's position when it joined
	sink    ports.EventSink
	release func()

	mu       sync.Mutex
	alive    liveness
	after    int64 // the last event it was handed or passed over
	catching bool  // reading the outbox up to head; the feed keeps pending
	pending  [][]domain.Event
	ended    bool
}

// join adds sub, catching up, and returns the id of the last event the
// feed handed out: sub receives every batch after it.
func (fd *feed) join(ctx context.Context, sub *follower) (int64, error) {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	if !fd.running {
		last, err := fd.store.Repos().Events.Last(ctx)
		if err != nil {
			return 0, err
		}
		fd.last, fd.running = last, true
		go fd.run()
	}
	sub.head = fd.last
	fd.subs[sub] = struct{}{}
	return fd.last, nil
}

func (fd *feed) leave(sub *follower) {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	delete(fd.subs, sub)
}

// run reads the outbox whenever the store wakes it, and every poll, until
// nobody follows. A failed read is tried again at the next wake-up. Every
// CredentialCheck it ends the followers whose credential expired.
func (fd *feed) run() {
	wake, stop := fd.store.Subscribe()
	defer stop()
	tick := time.NewTicker(fd.poll)
	defer tick.Stop()
	check := time.NewTicker(fd.events.cfg.CredentialCheck)
	defer check.Stop()
	for {
		for fd.readOnce() {
		}
		fd.mu.Lock()
		if len(fd.subs) == 0 {
			fd.running = false
			fd.mu.Unlock()
			return
		}
		fd.mu.Unlock()
		select {
		case <-wake:
			// Commits come in bursts; waiting a moment lets one read and
			// one write per stream carry several of them.
			time.Sleep(feedCoalesce)
		case <-tick.C:
		case <-check.C:
			fd.events.checkCredentials(fd.followers())
		}
	}
}

// followers returns who follows now, in fd.batch.
func (fd *feed) followers() []*follower {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	return fd.collect()
}

// collect fills fd.batch with the followers; the caller holds fd.mu.
func (fd *feed) collect() []*follower {
	clear(fd.batch)
	fd.batch = fd.batch[:0]
	for sub := range fd.subs {
		fd.batch = append(fd.batch, sub)
	}
	return fd.batch
}

// feedCoalesce is how long the feed waits after a wake-up before it reads:
// at a hundred commits a second it reads two or three at once, and each
// stream writes them in one go, for a few milliseconds of delay.
const feedCoalesce = 20 * time.Millisecond

// readOnce hands out one batch and says whether it was full. The
// followers it goes to are those that joined before it was read, so that
// each receives every batch after its head, once.
func (fd *feed) readOnce() bool {
	fd.mu.Lock()
	last := fd.last
	fd.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	events, err := fd.store.Repos().Events.After(ctx, last, eventBatch, ports.EventFilter{})
	if err != nil || len(events) == 0 {
		return false
	}
	fd.mu.Lock()
	fd.last = events[len(events)-1].ID
	subs := fd.collect()
	fd.mu.Unlock()
	for _, sub := range subs {
		fd.events.deliver(sub, events)
	}
	return len(events) == eventBatch
}
