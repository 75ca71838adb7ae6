package postgres

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// webhookQueries are sqlrepo.WebhookQueries and sqlrepo.DeliveryQueries.
type webhookQueries struct{ q *db.Queries }

func (r webhookQueries) CreateWebhook(ctx context.Context, w domain.Webhook, events []byte) (int64, error) {
	return r.q.CreateWebhook(ctx, db.CreateWebhookParams{
		UserID: w.UserID, Url: w.URL, Events: events, Secret: w.Secret, Failures: int32(w.Failures),
		DisabledAt: nullTime(w.DisabledAt), DisabledReason: w.DisabledReason,
		CreatedAt: dbTime(w.CreatedAt), UpdatedAt: dbTime(w.UpdatedAt),
	})
}

func (r webhookQueries) GetWebhook(ctx context.Context, id int64) (sqlrepo.Stored[domain.Webhook], error) {
	row, err := r.q.GetWebhook(ctx, id)
	return storedWebhook(row), err
}

// LockWebhook reads the webhook FOR UPDATE.
func (r webhookQueries) LockWebhook(ctx context.Context, id int64) (sqlrepo.Stored[domain.Webhook], error) {
	row, err := r.q.LockWebhook(ctx, id)
	return storedWebhook(row), err
}

func (r webhookQueries) ListWebhooksByUser(ctx context.Context, userID int64) ([]sqlrepo.Stored[domain.Webhook], error) {
	rows, err := r.q.ListWebhooksByUser(ctx, userID)
	return sqlrepo.Rows(rows, storedWebhook), err
}

func (r webhookQueries) UpdateWebhook(ctx context.Context, w domain.Webhook, events []byte) (int64, error) {
	return r.q.UpdateWebhook(ctx, db.UpdateWebhookParams{
		ID: w.ID, Url: w.URL, Events: events, Failures: int32(w.Failures),
		DisabledAt: nullTime(w.DisabledAt), DisabledReason: w.DisabledReason, UpdatedAt: dbTime(w.UpdatedAt),
	})
}

func (r webhookQueries) DeleteWebhook(ctx context.Context, id int64) (int64, error) {
	return r.q.DeleteWebhook(ctx, id)
}

func storedWebhook(row db.Webhook) sqlrepo.Stored[domain.Webhook] {
	return sqlrepo.Stored[domain.Webhook]{JSON: row.Events, Value: domain.Webhook{
		ID: row.ID, UserID: row.UserID, URL: row.Url, Secret: row.Secret, Failures: int(row.Failures),
		DisabledAt: timePtrOf(row.DisabledAt), DisabledReason: row.DisabledReason,
		CreatedAt: timeOf(row.CreatedAt), UpdatedAt: timeOf(row.UpdatedAt),
	}}
}

func (r webhookQueries) CreateDelivery(ctx context.Context, d domain.Delivery, event []byte) (int64, error) {
	return r.q.CreateDelivery(ctx, db.CreateDeliveryParams{
		WebhookID: d.WebhookID, Event: event, Status: string(d.Status), Attempts: int32(d.Attempts),
		NextAttemptAt: dbTime(d.NextAttemptAt), ClaimedUntil: nullTime(d.ClaimedUntil),
		LastStatusCode: int32(d.LastStatusCode), LastError: d.LastError, DeliveredAt: nullTime(d.DeliveredAt),
		CreatedAt: dbTime(d.CreatedAt), UpdatedAt: dbTime(d.UpdatedAt),
	})
}

func (r webhookQueries) GetDelivery(ctx context.Context, id int64) (sqlrepo.Stored[domain.Delivery], error) {
	row, err := r.q.GetDelivery(ctx, id)
	return deliveryOf(row), err
}

func (r webhookQueries) ClaimDeliveries(ctx context.Context, now, until time.Time, limit int) ([]sqlrepo.Stored[domain.Delivery], error) {
	rows, err := r.q.ClaimDeliveries(ctx, db.ClaimDeliveriesParams{Until: dbTime(until), Now: dbTime(now), RowLimit: int64(limit)})
	return sqlrepo.Rows(rows, deliveryOf), err
}

func (r webhookQueries) UpdateDelivery(ctx context.Context, d domain.Delivery) (int64, error) {
	return r.q.UpdateDelivery(ctx, db.UpdateDeliveryParams{
		ID: d.ID, Status: string(d.Status), Attempts: int32(d.Attempts), NextAttemptAt: dbTime(d.NextAttemptAt),
		ClaimedUntil: nullTime(d.ClaimedUntil), LastStatusCode: int32(d.LastStatusCode), LastError: d.LastError,
		DeliveredAt: nullTime(d.DeliveredAt), UpdatedAt: dbTime(d.UpdatedAt),
	})
}

func (r webhookQueries) CountPendingDeliveries(ctx context.Context) (int64, error) {
	return r.q.CountPendingDeliveries(ctx)
}

func (r webhookQueries) ListDeliveries(ctx context.Context, webhookID int64, page ports.Page) ([]sqlrepo.Stored[domain.Delivery], error) {
	limit, offset := pageBounds(page)
	rows, err := r.q.ListDeliveries(ctx, db.ListDeliveriesParams{WebhookID: webhookID, RowLimit: limit, RowOffset: offset})
	return sqlrepo.Rows(rows, deliveryOf), err
}

func (r webhookQueries) CountDeliveries(ctx context.Context, webhookID int64) (int64, error) {
	return r.q.CountDeliveries(ctx, webhookID)
}

// LockWebhookCursor reads the cursor FOR UPDATE SKIP LOCKED: while
// another replica's transaction holds it, the row is skipped.
func (r webhookQueries) LockWebhookCursor(ctx context.Context) ([]int64, error) {
	return r.q.LockWebhookCursor(ctx)
}

func (r webhookQueries) SetWebhookCursor(ctx context.Context, last int64) error {
	return r.q.SetWebhookCursor(ctx, last)
}

func deliveryOf(row db.WebhookDelivery) sqlrepo.Stored[domain.Delivery] {
	return sqlrepo.Stored[domain.Delivery]{JSON: row.Event, Value: domain.Delivery{
		ID: row.ID, WebhookID: row.WebhookID, Status: domain.DeliveryStatus(row.Status), Attempts: int(row.Attempts),
		NextAttemptAt: timeOf(row.NextAttemptAt), ClaimedUntil: timePtrOf(row.ClaimedUntil),
		LastStatusCode: int(row.LastStatusCode), LastError: row.LastError, DeliveredAt: timePtrOf(row.DeliveredAt),
		CreatedAt: timeOf(row.CreatedAt), UpdatedAt: timeOf(row.UpdatedAt),
	}}
}
