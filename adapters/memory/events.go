package memory

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/eventpayload"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// storedEvent is an event as the SQL stores keep it: the payload encoded,
// so that what comes back is a copy in the shape JSON gives it.
type storedEvent struct {
	event   domain.Event // Payload zero
	payload []byte
}

// events implements ports.EventRepository. The events of the state are a
// slice in ID order. A transaction appends to its copy of the slice, which
// may share the committed slice's array: only one writer runs at a time,
// and readers of the committed state never look past its length. Prune
// builds a new slice instead of shifting the shared one.
type events struct{ u unit }

var _ ports.EventRepository = events{}

func (r events) Append(ctx context.Context, e *domain.Event) error {
	payload, err := eventpayload.Marshal(e.Payload)
	if err != nil {
		return fmt.Errorf("append event: %w", err)
	}
	err = r.u.write(ctx, func(s *state) error {
		s.lastEvent++
		stored := *e
		stored.ID = s.lastEvent
		stored.CreatedAt = norm(stored.CreatedAt)
		stored.Payload = domain.EventPayload{}
		s.events = append(s.events, storedEvent{event: stored, payload: payload})
		e.ID = stored.ID
		return nil
	})
	if err != nil {
		return err
	}
	r.u.appended()
	return nil
}

func (r events) After(ctx context.Context, after int64, limit int, f ports.EventFilter) ([]domain.Event, error) {
	var out []domain.Event
	err := r.u.read(ctx, func(s *state) error {
		i := sort.Search(len(s.events), func(i int) bool { return s.events[i].event.ID > after })
		for _, se := range s.events[i:] {
			if limit > 0 && len(out) == limit {
				break
			}
			e := se.event
			if len(f.Topics) > 0 && !slices.Contains(f.Topics, e.Type.Topic()) {
				continue
			}
			if f.PostID != 0 && e.PostID != f.PostID {
				continue
			}
			var err error
			if e.Payload, err = eventpayload.Unmarshal(se.payload); err != nil {
				return fmt.Errorf("read event %d: %w", e.ID, err)
			}
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

func (r events) Last(ctx context.Context) (int64, error) {
	var last int64
	err := r.u.read(ctx, func(s *state) error {
		last = s.lastEvent
		return nil
	})
	return last, err
}

func (r events) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	var n int64
	err := r.u.write(ctx, func(s *state) error {
		keep := make([]storedEvent, 0, len(s.events))
		for _, se := range s.events {
			if se.event.CreatedAt.Before(cutoff) {
				n++
				continue
			}
			keep = append(keep, se)
		}
		s.events = keep
		return nil
	})
	return n, err
}
