package sqlrepo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// WebhookQueries are a store's statements on webhooks. The JSON passed
// and read is the webhook's events.
type WebhookQueries interface {
	CreateWebhook(ctx context.Context, w domain.Webhook, events []byte) (int64, error)
	GetWebhook(ctx context.Context, id int64) (Stored[domain.Webhook], error)
	// LockWebhook reads the webhook so that nobody else can change it
	// before the transaction ends.
	LockWebhook(ctx context.Context, id int64) (Stored[domain.Webhook], error)
	ListWebhooksByUser(ctx context.Context, userID int64) ([]Stored[domain.Webhook], error)
	UpdateWebhook(ctx context.Context, w domain.Webhook, events []byte) (int64, error)
	DeleteWebhook(ctx context.Context, id int64) (int64, error)
}

// Webhooks is ports.WebhookRepository.
type Webhooks struct {
	Q WebhookQueries
	B Border
}

var _ ports.WebhookRepository = Webhooks{}

func (r Webhooks) Create(ctx context.Context, w *domain.Webhook) error {
	events, err := json.Marshal(w.Events)
	if err != nil {
		return fmt.Errorf("create webhook: %w", err)
	}
	id, err := r.Q.CreateWebhook(ctx, *w, events)
	if err != nil {
		return r.B.Err("create webhook", err)
	}
	w.ID = id
	return nil
}

func (r Webhooks) Get(ctx context.Context, id int64) (domain.Webhook, error) {
	row, err := r.Q.GetWebhook(ctx, id)
	if err != nil {
		return domain.Webhook{}, r.B.Err(fmt.Sprintf("get webhook %d", id), err)
	}
	return WebhookOf(row)
}

func (r Webhooks) Lock(ctx context.Context, id int64) (domain.Webhook, error) {
	row, err := r.Q.LockWebhook(ctx, id)
	if err != nil {
		return domain.Webhook{}, r.B.Err(fmt.Sprintf("lock webhook %d", id), err)
	}
	return WebhookOf(row)
}

func (r Webhooks) ListByUser(ctx context.Context, userID int64) ([]domain.Webhook, error) {
	rows, err := r.Q.ListWebhooksByUser(ctx, userID)
	if err != nil {
		return nil, r.B.Err("list webhooks", err)
	}
	out := make([]domain.Webhook, len(rows))
	for i, row := range rows {
		if out[i], err = WebhookOf(row); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r Webhooks) Update(ctx context.Context, w domain.Webhook) error {
	op := fmt.Sprintf("update webhook %d", w.ID)
	events, err := json.Marshal(w.Events)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	n, err := r.Q.UpdateWebhook(ctx, w, events)
	return r.B.Affected(op, n, err)
}

func (r Webhooks) Delete(ctx context.Context, id int64) error {
	n, err := r.Q.DeleteWebhook(ctx, id)
	return r.B.Affected(fmt.Sprintf("delete webhook %d", id), n, err)
}

// WebhookOf is the webhook of row, its events decoded.
func WebhookOf(row Stored[domain.Webhook]) (domain.Webhook, error) {
	w := row.Value
	if err := json.Unmarshal(row.JSON, &w.Events); err != nil {
		return domain.Webhook{}, fmt.Errorf("webhook %d: events: %w", w.ID, err)
	}
	return w, nil
}

// DeliveryQueries are a store's statements on webhook deliveries and the
// cursor of the events turned into them. The JSON passed and read is the
// delivery's event.
type DeliveryQueries interface {
	CreateDelivery(ctx context.Context, d domain.Delivery, event []byte) (int64, error)
	GetDelivery(ctx context.Context, id int64) (Stored[domain.Delivery], error)
	ClaimDeliveries(ctx context.Context, now, until time.Time, limit int) ([]Stored[domain.Delivery], error)
	UpdateDelivery(ctx context.Context, d domain.Delivery) (int64, error)
	CountPendingDeliveries(ctx context.Context) (int64, error)
	ListDeliveries(ctx context.Context, webhookID int64, page ports.Page) ([]Stored[domain.Delivery], error)
	CountDeliveries(ctx context.Context, webhookID int64) (int64, error)
	// LockWebhookCursor reads the cursor, no row when it is not there (or,
	// where replicas share the store, while another one holds it).
	LockWebhookCursor(ctx context.Context) ([]int64, error)
	SetWebhookCursor(ctx context.Context, last int64) error
}

// Deliveries is ports.DeliveryRepository.
type Deliveries struct {
	Q DeliveryQueries
	B Border
}

var _ ports.DeliveryRepository = Deliveries{}

func (r Deliveries) Create(ctx context.Context, d *domain.Delivery) error {
	event, err := json.Marshal(d.Event)
	if err != nil {
		return fmt.Errorf("create delivery: %w", err)
	}
	id, err := r.Q.CreateDelivery(ctx, *d, event)
	if err != nil {
		return r.B.Err("create delivery", err)
	}
	d.ID = id
	return nil
}

func (r Deliveries) Get(ctx context.Context, id int64) (domain.Delivery, error) {
	row, err := r.Q.GetDelivery(ctx, id)
	if err != nil {
		return domain.Delivery{}, r.B.Err(fmt.Sprintf("get delivery %d", id), err)
	}
	return deliveryOf(row)
}

func (r Deliveries) Claim(ctx context.Context, now, until time.Time, limit int) ([]domain.Delivery, error) {
	rows, err := r.Q.ClaimDeliveries(ctx, now, until, limit)
	if err != nil {
		return nil, r.B.Err("claim deliveries", err)
	}
	return deliveriesOf(rows)
}

func (r Deliveries) Update(ctx context.Context, d domain.Delivery) error {
	n, err := r.Q.UpdateDelivery(ctx, d)
	return r.B.Affected(fmt.Sprintf("update delivery %d", d.ID), n, err)
}

func (r Deliveries) Pending(ctx context.Context) (int64, error) {
	n, err := r.Q.CountPendingDeliveries(ctx)
	return n, r.B.Err("count pending deliveries", err)
}

func (r Deliveries) ListByWebhook(ctx context.Context, webhookID int64, page ports.Page) ([]domain.Delivery, int, error) {
	const op = "list deliveries"
	rows, err := r.Q.ListDeliveries(ctx, webhookID, page)
	if err != nil {
		return nil, 0, r.B.Err(op, err)
	}
	total, err := r.Q.CountDeliveries(ctx, webhookID)
	if err != nil {
		return nil, 0, r.B.Err(op, err)
	}
	out, err := deliveriesOf(rows)
	return out, int(total), err
}

func (r Deliveries) LockCursor(ctx context.Context) (int64, bool, error) {
	rows, err := r.Q.LockWebhookCursor(ctx)
	if err != nil {
		return 0, false, r.B.Err("lock webhook cursor", err)
	}
	if len(rows) == 0 {
		return 0, false, nil
	}
	return rows[0], true, nil
}

func (r Deliveries) SetCursor(ctx context.Context, last int64) error {
	return r.B.Err("set webhook cursor", r.Q.SetWebhookCursor(ctx, last))
}

func deliveriesOf(rows []Stored[domain.Delivery]) ([]domain.Delivery, error) {
	out := make([]domain.Delivery, len(rows))
	for i, row := range rows {
		var err error
		if out[i], err = deliveryOf(row); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func deliveryOf(row Stored[domain.Delivery]) (domain.Delivery, error) {
	d := row.Value
	if err := json.Unmarshal(row.JSON, &d.Event); err != nil {
		return domain.Delivery{}, fmt.Errorf("delivery %d: event: %w", d.ID, err)
	}
	return d, nil
}
