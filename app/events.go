package app

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// record appends e to the outbox of the transaction r belongs to. Use cases
// call it last in a transaction, as EventRepository.Append asks.
func record(ctx context.Context, r ports.Repos, e domain.Event) error {
	return r.Events.Append(ctx, &e)
}

// EventsConfig holds the settings of the event outbox.
type EventsConfig struct {
	// Retention is how long events are kept (EVENTS_RETENTION).
	Retention time.Duration
}

// Events implements ports.Events.
type Events struct {
	store ports.Store
	clock ports.Clock
	cfg   EventsConfig
}

// NewEvents returns the use cases of the event stream.
func NewEvents(store ports.Store, clock ports.Clock, cfg EventsConfig) *Events {
	return &Events{store: store, clock: clock, cfg: cfg}
}

var _ ports.Events = (*Events)(nil)

// Read implements ports.Events. It reads limit events of the outbox and
// keeps those viewer may see; the next read starts after the last one read,
// seen or not, so that a reader who may see few events still moves on.
func (e *Events) Read(ctx context.Context, viewer ports.EventViewer, after int64, f ports.EventFilter, limit int) ([]ports.VisibleEvent, int64, error) {
	events, err := e.store.Repos().Events.After(ctx, after, limit, f)
	if err != nil {
		return nil, after, fmt.Errorf("read events after %d: %w", after, err)
	}
	var out []ports.VisibleEvent
	for _, ev := range events {
		if view := ev.ViewOf(viewer.User); view != domain.EventHidden {
			out = append(out, ports.VisibleEvent{Event: ev, View: view})
		}
	}
	if len(events) > 0 {
		after = events[len(events)-1].ID
	}
	return out, after, nil
}

// Subscribe implements ports.Events.
func (e *Events) Subscribe() (<-chan struct{}, func()) { return e.store.Subscribe() }

// Prune implements ports.Events.
func (e *Events) Prune(ctx context.Context) (int64, error) {
	n, err := e.store.Repos().Events.Prune(ctx, e.clock.Now().Add(-e.cfg.Retention))
	if err != nil {
		return 0, fmt.Errorf("prune events: %w", err)
	}
	return n, nil
}
