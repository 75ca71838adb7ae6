package app

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/inkwell/inkwell/ports"
)

// CacheInvalidation is each replica's reader of the outbox for its copies
// of answers (ports.CacheEvictor): for every event any replica commits,
// it evicts the tags the event names (domain.Event.CacheTags). It reads
// when the store wakes it, which PostgreSQL's notifications do across
// replicas, and every poll in case a wake-up was lost; a replica that
// wrote calls CatchUp before it answers, so that it reads its own writes.
// It implements ports.CacheFreshness.
type CacheInvalidation struct {
	store ports.Store
	evict []ports.CacheEvictor
	poll  time.Duration

	// mu makes one reader at a time; last is the id of the last event
	// evicted for, and started says it was read from the outbox.
	mu      sync.Mutex
	last    int64
	started bool
	// asked numbers the calls of CatchUp; served is the number of the
	// last call asked before a read that has finished began: that read saw
	// every commit made before those calls, so they need no read of their
	// own. Writes that finish together then share one read.
	asked  atomic.Int64
	served int64
}

var _ ports.CacheFreshness = (*CacheInvalidation)(nil)

// NewCacheInvalidation returns the reader that evicts from each of evict;
// poll is how often it reads unwoken (2 seconds when zero). With no
// evictor it does nothing.
func NewCacheInvalidation(store ports.Store, poll time.Duration, evict ...ports.CacheEvictor) *CacheInvalidation {
	if poll <= 0 {
		poll = 2 * time.Second
	}
	return &CacheInvalidation{store: store, evict: evict, poll: poll}
}

// Enabled says whether there is anything to evict from.
func (ci *CacheInvalidation) Enabled() bool { return ci != nil && len(ci.evict) > 0 }

// Run reads the outbox until ctx ends, when woken and every poll. onError
// hears of failed reads, which are tried again at the next wake-up; the
// copies then stay until their time to live ends.
func (ci *CacheInvalidation) Run(ctx context.Context, onError func(error)) {
	if !ci.Enabled() {
		return
	}
	wake, stop := ci.store.Subscribe()
	defer stop()
	tick := time.NewTicker(ci.poll)
	defer tick.Stop()
	for {
		if err := ci.CatchUp(ctx); err != nil && ctx.Err() == nil && onError != nil {
			onError(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-tick.C:
		}
	}
}

// CatchUp implements ports.CacheFreshness. Its first call starts from the
// newest event and evicts everything, since nothing tells what changed
// before it: a copy kept until then may be of anything. A replica makes
// that call before it serves, since an event committed before it is never
// evicted for, nor purged from a shared cache.
func (ci *CacheInvalidation) CatchUp(ctx context.Context) error {
	if !ci.Enabled() {
		return nil
	}
	ticket := ci.asked.Add(1)
	ci.mu.Lock()
	defer ci.mu.Unlock()
	if ci.served >= ticket {
		return nil
	}
	upTo := ci.asked.Load()
	if err := ci.read(ctx); err != nil {
		return err
	}
	ci.served = upTo
	return nil
}

// read evicts for every event after the last one read. ci.mu is held.
func (ci *CacheInvalidation) read(ctx context.Context) error {
	repos := ci.store.Repos()
	if !ci.started {
		last, err := repos.Events.Last(ctx)
		if err != nil {
			return fmt.Errorf("cache invalidation: %w", err)
		}
		ci.last, ci.started = last, true
		for _, e := range ci.evict {
			e.EvictAll()
		}
	}
	for {
		events, err := repos.Events.After(ctx, ci.last, eventBatch, ports.EventFilter{})
		if err != nil {
			return fmt.Errorf("cache invalidation: %w", err)
		}
		var tags []string
		seen := map[string]bool{}
		for _, ev := range events {
			for _, t := range ev.CacheTags() {
				if !seen[t] {
					seen[t] = true
					tags = append(tags, t)
				}
			}
		}
		if len(tags) > 0 {
			for _, e := range ci.evict {
				e.Evict(tags)
			}
		}
		if len(events) > 0 {
			ci.last = events[len(events)-1].ID
		}
		if len(events) < eventBatch {
			return nil
		}
	}
}
