package app

import (
	"context"
	"fmt"
	"slices"
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

// EventsConfig holds the settings of the event outbox and its readers.
type EventsConfig struct {
	// Retention is how long events are kept (EVENTS_RETENTION).
	Retention time.Duration
	// Poll is how often the replica reads the outbox without being woken,
	// in case a wake-up was lost; 2 seconds when zero.
	Poll time.Duration
	// Backlog is how many batches of events wait for a follower that does
	// not take them before it is dropped; 64 when zero.
	Backlog int
}

// eventBatch is how many events one read of the outbox takes.
const eventBatch = 500

// Events implements ports.Events. One reader per replica (a feed) reads
// the outbox when the store wakes it and hands each batch to every
// follower, so that a thousand streams cost one read per commit, not a
// thousand; a follower that resumes from further back catches up by
// reading the outbox itself first.
type Events struct {
	store ports.Store
	clock ports.Clock
	cfg   EventsConfig
	feed  *feed
}

// NewEvents returns the use cases of the event stream.
func NewEvents(store ports.Store, clock ports.Clock, cfg EventsConfig) *Events {
	if cfg.Poll <= 0 {
		cfg.Poll = 2 * time.Second
	}
	if cfg.Backlog <= 0 {
		cfg.Backlog = 64
	}
	return &Events{store: store, clock: clock, cfg: cfg, feed: &feed{store: store, poll: cfg.Poll, subs: map[*follower]struct{}{}}}
}

var _ ports.Events = (*Events)(nil)

// Follow implements ports.Events.
func (e *Events) Follow(ctx context.Context, viewer ports.EventViewer, f ports.EventFilter, after int64, fromNow bool) (<-chan []ports.VisibleEvent, error) {
	sub, head, err := e.feed.join(ctx, e.cfg.Backlog)
	if err != nil {
		return nil, fmt.Errorf("follow events: %w", err)
	}
	if fromNow {
		after = head
	}
	out := make(chan []ports.VisibleEvent)
	go func() {
		defer close(out)
		defer e.feed.leave(sub)
		send := func(events []domain.Event) bool {
			visible := visibleOf(events, viewer, f, after)
			if len(events) > 0 {
				after = max(after, events[len(events)-1].ID)
			}
			if len(visible) == 0 {
				return true
			}
			select {
			case out <- visible:
				return true
			case <-ctx.Done():
				return false
			}
		}
		// Catch up from the outbox to where the feed took over.
		for after < head {
			events, err := e.store.Repos().Events.After(ctx, after, eventBatch, f)
			if err != nil || len(events) == 0 || !send(events) {
				if err != nil || ctx.Err() != nil {
					return
				}
				break
			}
		}
		for {
			select {
			case events, ok := <-sub.events:
				if !ok || !send(events) {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
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
// a follower whose backlog is full is dropped (its channel closed), so a
// slow reader never holds the others, and writers never wait for anyone.
type feed struct {
	store ports.Store
	poll  time.Duration

	mu      sync.Mutex
	subs    map[*follower]struct{}
	last    int64 // the id of the last event handed out
	running bool
}

// follower receives the feed's batches.
type follower struct {
	events chan []domain.Event
}

// join adds a follower and returns it with the id of the last event the
// feed handed out: the follower receives every batch after it.
func (fd *feed) join(ctx context.Context, backlog int) (*follower, int64, error) {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	if !fd.running {
		last, err := fd.store.Repos().Events.Last(ctx)
		if err != nil {
			return nil, 0, err
		}
		fd.last, fd.running = last, true
		go fd.run()
	}
	sub := &follower{events: make(chan []domain.Event, backlog)}
	fd.subs[sub] = struct{}{}
	return sub, fd.last, nil
}

func (fd *feed) leave(sub *follower) {
	fd.mu.Lock()
	defer fd.mu.Unlock()
	if _, ok := fd.subs[sub]; ok {
		delete(fd.subs, sub)
		close(sub.events)
	}
}

// run reads the outbox whenever the store wakes it, and every poll, until
// nobody follows. A failed read is tried again at the next wake-up.
func (fd *feed) run() {
	wake, stop := fd.store.Subscribe()
	defer stop()
	tick := time.NewTicker(fd.poll)
	defer tick.Stop()
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
		}
	}
}

// feedCoalesce is how long the feed waits after a wake-up before it reads:
// at a hundred commits a second it reads two or three at once, and each
// stream writes them in one go, for a few milliseconds of delay.
const feedCoalesce = 20 * time.Millisecond

// readOnce hands out one batch and says whether it was full.
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
	defer fd.mu.Unlock()
	for sub := range fd.subs {
		select {
		case sub.events <- events:
		default:
			delete(fd.subs, sub)
			close(sub.events)
		}
	}
	fd.last = events[len(events)-1].ID
	return len(events) == eventBatch
}
