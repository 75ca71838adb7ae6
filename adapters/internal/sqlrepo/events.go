package sqlrepo

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/eventpayload"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// EventQueries are a store's statements on the event outbox. The JSON
// passed and read is the event's payload, in eventpayload's form.
type EventQueries interface {
	AppendEvent(ctx context.Context, e domain.Event, payload []byte) (int64, error)
	// EventsAfter reads, in id order, up to limit events f keeps whose id
	// is above after; a limit of 0 or less has no limit.
	EventsAfter(ctx context.Context, after int64, limit int, f ports.EventFilter) ([]Stored[domain.Event], error)
	// LastEventID reads the newest id handed out, even when its event has
	// been pruned since, 0 when there was none.
	LastEventID(ctx context.Context) (int64, error)
	PruneEvents(ctx context.Context, cutoff time.Time) (int64, error)
}

// Events is ports.EventRepository. In what order the ids commit is the
// store's statements' to ensure (see each store's EventQueries).
type Events struct {
	Q EventQueries
	B Border
}

var _ ports.EventRepository = Events{}

func (r Events) Append(ctx context.Context, e *domain.Event) error {
	payload, err := eventpayload.Marshal(e.Payload)
	if err != nil {
		return fmt.Errorf("append event: %w", err)
	}
	id, err := r.Q.AppendEvent(ctx, *e, payload)
	if err != nil {
		return r.B.Err("append event", err)
	}
	e.ID = id
	return nil
}

func (r Events) After(ctx context.Context, after int64, limit int, f ports.EventFilter) ([]domain.Event, error) {
	const op = "read events"
	rows, err := r.Q.EventsAfter(ctx, after, limit, f)
	if err != nil {
		return nil, r.B.Err(op, err)
	}
	out := make([]domain.Event, len(rows))
	for i, row := range rows {
		out[i] = row.Value
		if out[i].Payload, err = eventpayload.Unmarshal(row.JSON); err != nil {
			return nil, fmt.Errorf("%s: event %d: %w", op, row.Value.ID, err)
		}
	}
	return out, nil
}

func (r Events) Last(ctx context.Context) (int64, error) {
	last, err := r.Q.LastEventID(ctx)
	if err != nil {
		return 0, r.B.Err("read the last event id", err)
	}
	return last, nil
}

func (r Events) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	n, err := r.Q.PruneEvents(ctx, cutoff)
	if err != nil {
		return 0, r.B.Err("prune events", err)
	}
	return n, nil
}
