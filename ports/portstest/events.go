package portstest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var eventTests = []storeTest{
	{"RoundTrip", testEventRoundTrip},
	{"Filter", testEventFilter},
	{"Rollback", testEventRollback},
	{"Prune", testEventPrune},
	{"Wake", testEventWake},
	{"ConcurrentAppendsInCommitOrder", testEventCommitOrder},
	{"Revocations", testEventRevocations},
}

// sampleEvents returns one event of each kind of payload, about records that
// need not exist: the outbox keeps snapshots, not references.
func sampleEvents(t *testing.T) []domain.Event {
	ann := domain.User{ID: 7, Name: "Ann", AvatarPath: "avatars/ann.png", Email: "ann@example.com", PasswordHash: "secret"}
	draft := newPost(t, ann.ID, "Draft", domain.StatusDraft, base)
	draft.SetID(11)
	published := newPost(t, ann.ID, "Out", domain.StatusPublished, at(time.Second))
	published.SetID(12)
	published.SetImage("posts/x.png", at(time.Minute))
	tags := []domain.Tag{{ID: 3, Name: "Go", Slug: "go", CreatedAt: base, UpdatedAt: base}}
	comment := newComment(12, 8, "Nice", at(time.Hour))
	comment.ID = 21
	bob := domain.User{ID: 8, Name: "Bob"}
	return []domain.Event{
		domain.NewPostEvent(domain.PostCreated, draft, ann, []domain.Tag{}, base),
		domain.NewPostEvent(domain.PostPublished, published, ann, tags, at(time.Second)),
		domain.NewCommentEvent(domain.CommentCreated, comment, bob, published, at(time.Hour)),
		domain.NewPersonEvent(domain.PersonUpdated, domain.Person{ID: 4, Name: "Pat", Email: "pat@example.com", Age: ptr(40), Address: &domain.Address{City: "Lyon"}, CreatedAt: base, UpdatedAt: at(time.Hour)}, at(time.Hour)),
		domain.NewProductEvent(domain.ProductDeleted, domain.Product{ID: 5, Name: "Pen", PriceCents: 150, SKU: ptr("PEN-1"), CreatedAt: base, UpdatedAt: base}, at(2*time.Hour)),
		domain.NewProductEvent(domain.ProductCreated, domain.Product{ID: 6, Name: "Ink", CreatedAt: base, UpdatedAt: base}, at(3*time.Hour)),
	}
}

func appendEvent(t *testing.T, r ports.Repos, e domain.Event) domain.Event {
	t.Helper()
	must(t, fmt.Sprintf("Events.Append(%s)", e.Type), r.Events.Append(t.Context(), &e))
	return e
}

func testEventRoundTrip(t *testing.T, st ports.Store) {
	var want []domain.Event
	for i, e := range sampleEvents(t) {
		// Half the events are appended inside a transaction, half outside.
		if i%2 == 0 {
			want = append(want, appendEvent(t, st.Repos(), e))
			continue
		}
		must(t, "InTx", st.InTx(t.Context(), func(r ports.Repos) error {
			want = append(want, appendEvent(t, r, e))
			return nil
		}))
	}
	for i := 1; i < len(want); i++ {
		if want[i].ID <= want[i-1].ID {
			t.Fatalf("ids %d then %d: want them increasing", want[i-1].ID, want[i].ID)
		}
	}
	got, err := st.Repos().Events.After(t.Context(), 0, 0, ports.EventFilter{})
	must(t, "Events.After", err)
	check(t, "Events.After(0)", got, want)

	got, err = st.Repos().Events.After(t.Context(), want[1].ID, 2, ports.EventFilter{})
	must(t, "Events.After", err)
	check(t, "Events.After(second, limit 2)", got, want[2:4])
	got, err = st.Repos().Events.After(t.Context(), want[len(want)-1].ID, 10, ports.EventFilter{})
	must(t, "Events.After", err)
	check(t, "Events.After(last)", len(got), 0)
}

func testEventFilter(t *testing.T, st ports.Store) {
	var all []domain.Event
	for _, e := range sampleEvents(t) {
		all = append(all, appendEvent(t, st.Repos(), e))
	}
	pick := func(idx ...int) []domain.Event {
		var out []domain.Event
		for _, i := range idx {
			out = append(out, all[i])
		}
		return out
	}
	for _, tc := range []struct {
		f    ports.EventFilter
		want []domain.Event
	}{
		{ports.EventFilter{Topics: []string{domain.TopicPosts}}, pick(0, 1)},
		{ports.EventFilter{Topics: []string{domain.TopicComments, domain.TopicProducts}}, pick(2, 4, 5)},
		{ports.EventFilter{Topics: []string{domain.TopicUsers}}, pick(3)},
		{ports.EventFilter{PostID: 12}, pick(1, 2)},
		{ports.EventFilter{PostID: 12, Topics: []string{domain.TopicComments}}, pick(2)},
		{ports.EventFilter{PostID: 99}, nil},
	} {
		got, err := st.Repos().Events.After(t.Context(), 0, 0, tc.f)
		must(t, "Events.After", err)
		if len(got) == 0 && len(tc.want) == 0 {
			continue
		}
		check(t, fmt.Sprintf("Events.After(%+v)", tc.f), got, tc.want)
	}
}

// testEventRollback checks that an event stands or falls with its
// transaction, and the change it records with it.
func testEventRollback(t *testing.T, st ports.Store) {
	errAbort := errors.New("abort")
	err := st.InTx(t.Context(), func(r ports.Repos) error {
		p := newPerson("Pat", "pat@example.com")
		if err := r.People.Create(t.Context(), &p); err != nil {
			return err
		}
		appendEvent(t, r, domain.NewPersonEvent(domain.PersonCreated, p, base))
		return errAbort
	})
	checkErr(t, "InTx", err, errAbort)
	got, err := st.Repos().Events.After(t.Context(), 0, 0, ports.EventFilter{})
	must(t, "Events.After", err)
	check(t, "events after a rollback", len(got), 0)
	_, total, err := st.Repos().People.List(t.Context(), ports.PersonQuery{})
	must(t, "People.List", err)
	check(t, "people after a rollback", total, 0)

	committed := appendEvent(t, st.Repos(), sampleEvents(t)[0])
	got, err = st.Repos().Events.After(t.Context(), 0, 0, ports.EventFilter{})
	must(t, "Events.After", err)
	check(t, "events after a rollback and an append", got, []domain.Event{committed})
}

func testEventPrune(t *testing.T, st ports.Store) {
	events := sampleEvents(t)
	var all []domain.Event
	for _, e := range events {
		all = append(all, appendEvent(t, st.Repos(), e))
	}
	// Everything before the last event's time goes, twice: pruning is
	// idempotent.
	cutoff := all[len(all)-1].CreatedAt
	n, err := st.Repos().Events.Prune(t.Context(), cutoff)
	must(t, "Events.Prune", err)
	check(t, "pruned", n, int64(len(all)-1))
	n, err = st.Repos().Events.Prune(t.Context(), cutoff)
	must(t, "Events.Prune again", err)
	check(t, "pruned again", n, int64(0))
	got, err := st.Repos().Events.After(t.Context(), 0, 0, ports.EventFilter{})
	must(t, "Events.After", err)
	check(t, "events after pruning", got, all[len(all)-1:])

	// Pruning the newest event must not hand its id out again: a reader
	// that saw it would skip the next one.
	_, err = st.Repos().Events.Prune(t.Context(), cutoff.Add(time.Hour))
	must(t, "Events.Prune all", err)
	// Nor may Last forget it: a reader resuming after it asks for no id
	// that was never handed out.
	last, err := st.Repos().Events.Last(t.Context())
	must(t, "Events.Last", err)
	check(t, "Events.Last after pruning everything", last, all[len(all)-1].ID)
	next := appendEvent(t, st.Repos(), events[0])
	if next.ID <= all[len(all)-1].ID {
		t.Errorf("id after pruning everything: %d, want above %d", next.ID, all[len(all)-1].ID)
	}
}

// testEventWake checks that a subscriber learns of a committed append.
func testEventWake(t *testing.T, st ports.Store) {
	wake, stop := st.Subscribe()
	defer stop()
	// A store may wake subscribers once as it starts listening; those
	// wake-ups say nothing yet.
	drain := time.After(200 * time.Millisecond)
	for done := false; !done; {
		select {
		case <-wake:
		case <-drain:
			done = true
		}
	}
	must(t, "InTx", st.InTx(t.Context(), func(r ports.Repos) error {
		appendEvent(t, r, sampleEvents(t)[0])
		return nil
	}))
	select {
	case <-wake:
	case <-time.After(10 * time.Second):
		t.Fatal("no wake-up within 10s of a committed event")
	}
}

// testEventCommitOrder has writers append in transactions that linger
// between the append and the commit while a reader polls After from the last
// id it saw, as a stream does. The reader must see every committed event:
// an id that committed after a larger one would be skipped.
func testEventCommitOrder(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	const writers, each = 8, 15
	var committed sync.Map // id → true
	var writing atomic.Int32
	writing.Store(writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			defer writing.Add(-1)
			for i := range each {
				var id int64
				err := st.InTx(ctx, func(r ports.Repos) error {
					e := domain.NewPersonEvent(domain.PersonCreated, domain.Person{ID: int64(w*each + i), Name: "P"}, base)
					if err := r.Events.Append(ctx, &e); err != nil {
						return err
					}
					id = e.ID
					time.Sleep(time.Duration((w+i)%3) * time.Millisecond)
					return nil
				})
				if err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
				committed.Store(id, true)
			}
		})
	}
	seen := map[int64]bool{}
	var last int64
	for {
		done := writing.Load() == 0
		got, err := st.Repos().Events.After(ctx, last, 7, ports.EventFilter{})
		must(t, "Events.After", err)
		for _, e := range got {
			if e.ID <= last {
				t.Fatalf("After(%d) returned %d", last, e.ID)
			}
			seen[e.ID], last = true, e.ID
		}
		if done && len(got) == 0 {
			break
		}
	}
	wg.Wait()
	n := 0
	committed.Range(func(k, _ any) bool {
		n++
		if !seen[k.(int64)] {
			t.Errorf("event %d committed but the polling reader never saw it", k)
		}
		return true
	})
	check(t, "events committed", n, writers*each)
	check(t, "events seen", len(seen), writers*each)
}

// testEventRevocations checks that the outbox keeps credential revocations
// among the events, in the same order, with every field, and that a reader
// asking for the public topics never gets them.
func testEventRevocations(t *testing.T, st ports.Store) {
	events := sampleEvents(t)
	revocations := []domain.Event{
		domain.NewRevocationEvent(domain.Revocation{UserID: 7, TokenID: 31}, at(4*time.Hour)),
		domain.NewRevocationEvent(domain.Revocation{UserID: 7, TokenName: "feed"}, at(4*time.Hour)),
		domain.NewRevocationEvent(domain.Revocation{UserID: 8, AllTokens: true, AllSessions: true}, at(5*time.Hour)),
		domain.NewRevocationEvent(domain.Revocation{UserID: 8, SessionHash: domain.HashSecret("cookie")}, at(5*time.Hour)),
	}
	var all []domain.Event
	all = append(all, appendEvent(t, st.Repos(), events[0]))
	for _, e := range revocations[:2] {
		all = append(all, appendEvent(t, st.Repos(), e))
	}
	must(t, "InTx", st.InTx(t.Context(), func(r ports.Repos) error {
		all = append(all, appendEvent(t, r, events[2]))
		for _, e := range revocations[2:] {
			all = append(all, appendEvent(t, r, e))
		}
		return nil
	}))
	got, err := st.Repos().Events.After(t.Context(), 0, 0, ports.EventFilter{})
	must(t, "Events.After", err)
	check(t, "Events.After(0) with revocations", got, all)
	for _, e := range got {
		if e.Internal() != (e.Type == domain.CredentialsRevoked) {
			t.Errorf("event %d (%s): Internal() = %t", e.ID, e.Type, e.Internal())
		}
	}
	got, err = st.Repos().Events.After(t.Context(), 0, 0, ports.EventFilter{Topics: domain.Topics})
	must(t, "Events.After", err)
	check(t, "Events.After(every public topic)", got, []domain.Event{all[0], all[3]})
	last, err := st.Repos().Events.Last(t.Context())
	must(t, "Events.Last", err)
	check(t, "Events.Last after a revocation", last, all[len(all)-1].ID)
}
