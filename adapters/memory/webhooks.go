package memory

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// webhooks implements ports.WebhookRepository.
type webhooks struct{ u unit }

var _ ports.WebhookRepository = webhooks{}

func cloneWebhook(w domain.Webhook) domain.Webhook {
	w.Events = slices.Clone(w.Events)
	w.DisabledAt = normPtr(w.DisabledAt)
	w.CreatedAt, w.UpdatedAt = norm(w.CreatedAt), norm(w.UpdatedAt)
	return w
}

func (r webhooks) Create(ctx context.Context, w *domain.Webhook) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.users[w.UserID]; !ok {
			return fmt.Errorf("create webhook: user %d: %w", w.UserID, domain.ErrNotFound)
		}
		s.lastWebhook++
		stored := cloneWebhook(*w)
		stored.ID = s.lastWebhook
		s.webhooks[stored.ID] = stored
		w.ID = stored.ID
		return nil
	})
}

func (r webhooks) Get(ctx context.Context, id int64) (domain.Webhook, error) {
	return get(ctx, r.u, func(s *state) map[int64]domain.Webhook { return s.webhooks }, cloneWebhook, "webhook", id)
}

// Lock is Get: transactions of the memory store run one at a time.
func (r webhooks) Lock(ctx context.Context, id int64) (domain.Webhook, error) {
	return r.Get(ctx, id)
}

func (r webhooks) ListByUser(ctx context.Context, userID int64) ([]domain.Webhook, error) {
	var out []domain.Webhook
	err := r.u.read(ctx, func(s *state) error {
		for _, id := range slices.Sorted(maps.Keys(s.webhooks)) {
			if w := s.webhooks[id]; w.UserID == userID {
				out = append(out, cloneWebhook(w))
			}
		}
		return nil
	})
	return out, err
}

func (r webhooks) Update(ctx context.Context, w domain.Webhook) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.webhooks[w.ID]
		if !ok {
			return fmt.Errorf("update webhook %d: %w", w.ID, domain.ErrNotFound)
		}
		stored := cloneWebhook(w)
		stored.UserID, stored.Secret, stored.CreatedAt = old.UserID, old.Secret, old.CreatedAt
		s.webhooks[w.ID] = stored
		return nil
	})
}

func (r webhooks) Delete(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.webhooks[id]; !ok {
			return fmt.Errorf("delete webhook %d: %w", id, domain.ErrNotFound)
		}
		s.deleteWebhook(id)
		return nil
	})
}

// deleteWebhook removes webhook id with its deliveries, as the SQL stores'
// cascade does.
func (s *state) deleteWebhook(id int64) {
	delete(s.webhooks, id)
	for did, d := range s.deliveries {
		if d.WebhookID == id {
			delete(s.deliveries, did)
		}
	}
}

// deliveries implements ports.DeliveryRepository.
type deliveries struct{ u unit }

var _ ports.DeliveryRepository = deliveries{}

func cloneDelivery(d domain.Delivery) domain.Delivery {
	d.NextAttemptAt, d.CreatedAt, d.UpdatedAt = norm(d.NextAttemptAt), norm(d.CreatedAt), norm(d.UpdatedAt)
	d.ClaimedUntil, d.DeliveredAt = normPtr(d.ClaimedUntil), normPtr(d.DeliveredAt)
	return d
}

func (r deliveries) Create(ctx context.Context, d *domain.Delivery) error {
	payload, err := encodeEvent(d.Event)
	if err != nil {
		return err
	}
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.webhooks[d.WebhookID]; !ok {
			return fmt.Errorf("create delivery: webhook %d: %w", d.WebhookID, domain.ErrNotFound)
		}
		s.lastDelivery++
		stored := cloneDelivery(*d)
		stored.ID = s.lastDelivery
		stored.Event = domain.Event{}
		s.deliveries[stored.ID] = storedDelivery{Delivery: stored, event: payload}
		d.ID = stored.ID
		return nil
	})
}

func (r deliveries) Get(ctx context.Context, id int64) (domain.Delivery, error) {
	var out domain.Delivery
	err := r.u.read(ctx, func(s *state) error {
		d, ok := s.deliveries[id]
		if !ok {
			return fmt.Errorf("delivery %d: %w", id, domain.ErrNotFound)
		}
		var err error
		out, err = d.decode()
		return err
	})
	return out, err
}

func (r deliveries) Claim(ctx context.Context, now, until time.Time, limit int) ([]domain.Delivery, error) {
	var out []domain.Delivery
	err := r.u.write(ctx, func(s *state) error {
		var due []storedDelivery
		for _, d := range s.deliveries {
			if d.Status == domain.DeliveryPending && !d.NextAttemptAt.After(now) && (d.ClaimedUntil == nil || !d.ClaimedUntil.After(now)) {
				due = append(due, d)
			}
		}
		slices.SortFunc(due, func(a, b storedDelivery) int {
			return cmp.Or(a.NextAttemptAt.Compare(b.NextAttemptAt), cmp.Compare(a.ID, b.ID))
		})
		if limit > 0 && len(due) > limit {
			due = due[:limit]
		}
		for _, d := range due {
			d.ClaimedUntil = normPtr(&until)
			s.deliveries[d.ID] = d
			decoded, err := d.decode()
			if err != nil {
				return err
			}
			out = append(out, decoded)
		}
		return nil
	})
	return out, err
}

func (r deliveries) Update(ctx context.Context, d domain.Delivery) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.deliveries[d.ID]
		if !ok {
			return fmt.Errorf("update delivery %d: %w", d.ID, domain.ErrNotFound)
		}
		stored := cloneDelivery(d)
		stored.WebhookID, stored.CreatedAt, stored.Event = old.WebhookID, old.CreatedAt, domain.Event{}
		s.deliveries[d.ID] = storedDelivery{Delivery: stored, event: old.event}
		return nil
	})
}

func (r deliveries) Pending(ctx context.Context) (int64, error) {
	var n int64
	err := r.u.read(ctx, func(s *state) error {
		for _, d := range s.deliveries {
			if d.Status == domain.DeliveryPending {
				n++
			}
		}
		return nil
	})
	return n, err
}

func (r deliveries) ListByWebhook(ctx context.Context, webhookID int64, page ports.Page) ([]domain.Delivery, int, error) {
	var out []domain.Delivery
	total := 0
	err := r.u.read(ctx, func(s *state) error {
		var ids []int64
		for id, d := range s.deliveries {
			if d.WebhookID == webhookID {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		slices.Reverse(ids)
		total = len(ids)
		for _, id := range paginate(ids, page) {
			d, err := s.deliveries[id].decode()
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	})
	return out, total, err
}

// LockCursor always succeeds: transactions of the memory store run one at
// a time, so nobody else can hold the cursor.
func (r deliveries) LockCursor(ctx context.Context) (int64, bool, error) {
	var last int64
	err := r.u.read(ctx, func(s *state) error {
		last = s.webhookCursor
		return nil
	})
	return last, err == nil, err
}

func (r deliveries) SetCursor(ctx context.Context, last int64) error {
	return r.u.write(ctx, func(s *state) error {
		s.webhookCursor = last
		return nil
	})
}

func encodeEvent(e domain.Event) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode event %d: %w", e.ID, err)
	}
	return b, nil
}

func decodeEvent(b []byte) (domain.Event, error) {
	var e domain.Event
	if err := json.Unmarshal(b, &e); err != nil {
		return domain.Event{}, fmt.Errorf("decode event: %w", err)
	}
	return e, nil
}

// storedDelivery is a delivery with its event encoded, as the SQL stores
// keep it.
type storedDelivery struct {
	domain.Delivery // Event zero
	event           []byte
}

func (d storedDelivery) decode() (domain.Delivery, error) {
	out := cloneDelivery(d.Delivery)
	e, err := decodeEvent(d.event)
	if err != nil {
		return domain.Delivery{}, fmt.Errorf("delivery %d: %w", d.ID, err)
	}
	out.Event = e
	return out, nil
}
