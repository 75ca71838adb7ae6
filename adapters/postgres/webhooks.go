package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// webhooks implements ports.WebhookRepository.
type webhooks struct{ q *db.Queries }

func (r webhooks) Create(ctx context.Context, w *domain.Webhook) error {
	events, err := json.Marshal(w.Events)
	if err != nil {
		return fmt.Errorf("create webhook: %w", err)
	}
	id, err := r.q.CreateWebhook(ctx, db.CreateWebhookParams{
		UserID: w.UserID, Url: w.URL, Events: events, Secret: w.Secret, Failures: int32(w.Failures),
		DisabledAt: nullTime(w.DisabledAt), DisabledReason: w.DisabledReason,
		CreatedAt: dbTime(w.CreatedAt), UpdatedAt: dbTime(w.UpdatedAt),
	})
	if err != nil {
		return storeError("create webhook", err)
	}
	w.ID = id
	return nil
}

func (r webhooks) Get(ctx context.Context, id int64) (domain.Webhook, error) {
	row, err := r.q.GetWebhook(ctx, id)
	if err != nil {
		return domain.Webhook{}, storeError(fmt.Sprintf("get webhook %d", id), err)
	}
	return webhookOf(row)
}

// Lock reads the webhook FOR UPDATE.
func (r webhooks) Lock(ctx context.Context, id int64) (domain.Webhook, error) {
	row, err := r.q.LockWebhook(ctx, id)
	if err != nil {
		return domain.Webhook{}, storeError(fmt.Sprintf("lock webhook %d", id), err)
	}
	return webhookOf(row)
}

func (r webhooks) ListByUser(ctx context.Context, userID int64) ([]domain.Webhook, error) {
	rows, err := r.q.ListWebhooksByUser(ctx, userID)
	if err != nil {
		return nil, storeError("list webhooks", err)
	}
	out := make([]domain.Webhook, len(rows))
	for i, row := range rows {
		if out[i], err = webhookOf(row); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r webhooks) Update(ctx context.Context, w domain.Webhook) error {
	op := fmt.Sprintf("update webhook %d", w.ID)
	events, err := json.Marshal(w.Events)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	n, err := r.q.UpdateWebhook(ctx, db.UpdateWebhookParams{
		ID: w.ID, Url: w.URL, Events: events, Failures: int32(w.Failures),
		DisabledAt: nullTime(w.DisabledAt), DisabledReason: w.DisabledReason, UpdatedAt: dbTime(w.UpdatedAt),
	})
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func (r webhooks) Delete(ctx context.Context, id int64) error {
	op := fmt.Sprintf("delete webhook %d", id)
	n, err := r.q.DeleteWebhook(ctx, id)
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func webhookOf(row db.Webhook) (domain.Webhook, error) {
	w := domain.Webhook{
		ID: row.ID, UserID: row.UserID, URL: row.Url, Secret: row.Secret, Failures: int(row.Failures),
		DisabledAt: timePtrOf(row.DisabledAt), DisabledReason: row.DisabledReason,
		CreatedAt: timeOf(row.CreatedAt), UpdatedAt: timeOf(row.UpdatedAt),
	}
	if err := json.Unmarshal(row.Events, &w.Events); err != nil {
		return domain.Webhook{}, fmt.Errorf("webhook %d: events: %w", row.ID, err)
	}
	return w, nil
}

// deliveries implements ports.DeliveryRepository.
type deliveries struct{ q *db.Queries }

func (r deliveries) Create(ctx context.Context, d *domain.Delivery) error {
	event, err := json.Marshal(d.Event)
	if err != nil {
		return fmt.Errorf("create delivery: %w", err)
	}
	id, err := r.q.CreateDelivery(ctx, db.CreateDeliveryParams{
		WebhookID: d.WebhookID, Event: event, Status: string(d.Status), Attempts: int32(d.Attempts),
		NextAttemptAt: dbTime(d.NextAttemptAt), ClaimedUntil: nullTime(d.ClaimedUntil),
		LastStatusCode: int32(d.LastStatusCode), LastError: d.LastError, DeliveredAt: nullTime(d.DeliveredAt),
		CreatedAt: dbTime(d.CreatedAt), UpdatedAt: dbTime(d.UpdatedAt),
	})
	if err != nil {
		return storeError("create delivery", err)
	}
	d.ID = id
	return nil
}

func (r deliveries) Get(ctx context.Context, id int64) (domain.Delivery, error) {
	row, err := r.q.GetDelivery(ctx, id)
	if err != nil {
		return domain.Delivery{}, storeError(fmt.Sprintf("get delivery %d", id), err)
	}
	return deliveryOf(row)
}

func (r deliveries) Claim(ctx context.Context, now, until time.Time, limit int) ([]domain.Delivery, error) {
	rows, err := r.q.ClaimDeliveries(ctx, db.ClaimDeliveriesParams{Until: dbTime(until), Now: dbTime(now), RowLimit: int64(limit)})
	if err != nil {
		return nil, storeError("claim deliveries", err)
	}
	return deliveriesOf(rows)
}

func (r deliveries) Update(ctx context.Context, d domain.Delivery) error {
	op := fmt.Sprintf("update delivery %d", d.ID)
	n, err := r.q.UpdateDelivery(ctx, db.UpdateDeliveryParams{
		ID: d.ID, Status: string(d.Status), Attempts: int32(d.Attempts), NextAttemptAt: dbTime(d.NextAttemptAt),
		ClaimedUntil: nullTime(d.ClaimedUntil), LastStatusCode: int32(d.LastStatusCode), LastError: d.LastError,
		DeliveredAt: nullTime(d.DeliveredAt), UpdatedAt: dbTime(d.UpdatedAt),
	})
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func (r deliveries) Pending(ctx context.Context) (int64, error) {
	n, err := r.q.CountPendingDeliveries(ctx)
	return n, storeError("count pending deliveries", err)
}

func (r deliveries) ListByWebhook(ctx context.Context, webhookID int64, page ports.Page) ([]domain.Delivery, int, error) {
	const op = "list deliveries"
	limit, offset := pageBounds(page)
	rows, err := r.q.ListDeliveries(ctx, db.ListDeliveriesParams{WebhookID: webhookID, RowLimit: limit, RowOffset: offset})
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	total, err := r.q.CountDeliveries(ctx, webhookID)
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	out, err := deliveriesOf(rows)
	return out, int(total), err
}

// LockCursor reads the cursor FOR UPDATE SKIP LOCKED: while another
// replica's transaction holds it, the row is skipped and ok is false.
func (r deliveries) LockCursor(ctx context.Context) (int64, bool, error) {
	rows, err := r.q.LockWebhookCursor(ctx)
	if err != nil {
		return 0, false, storeError("lock webhook cursor", err)
	}
	if len(rows) == 0 {
		return 0, false, nil
	}
	return rows[0], true, nil
}

func (r deliveries) SetCursor(ctx context.Context, last int64) error {
	return storeError("set webhook cursor", r.q.SetWebhookCursor(ctx, last))
}

func deliveriesOf(rows []db.WebhookDelivery) ([]domain.Delivery, error) {
	out := make([]domain.Delivery, len(rows))
	for i, row := range rows {
		var err error
		if out[i], err = deliveryOf(row); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func deliveryOf(row db.WebhookDelivery) (domain.Delivery, error) {
	d := domain.Delivery{
		ID: row.ID, WebhookID: row.WebhookID, Status: domain.DeliveryStatus(row.Status), Attempts: int(row.Attempts),
		NextAttemptAt: timeOf(row.NextAttemptAt), ClaimedUntil: timePtrOf(row.ClaimedUntil),
		LastStatusCode: int(row.LastStatusCode), LastError: row.LastError, DeliveredAt: timePtrOf(row.DeliveredAt),
		CreatedAt: timeOf(row.CreatedAt), UpdatedAt: timeOf(row.UpdatedAt),
	}
	if err := json.Unmarshal(row.Event, &d.Event); err != nil {
		return domain.Delivery{}, fmt.Errorf("delivery %d: event: %w", row.ID, err)
	}
	return d, nil
}
