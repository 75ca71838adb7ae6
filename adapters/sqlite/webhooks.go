package sqlite

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// webhookQueries are sqlrepo.WebhookQueries and sqlrepo.DeliveryQueries.
type webhookQueries struct{ c conns }

func (q webhookQueries) CreateWebhook(ctx context.Context, w domain.Webhook, events []byte) (int64, error) {
	return q.c.write.CreateWebhook(ctx, db.CreateWebhookParams{
		UserID: w.UserID, Url: w.URL, Events: string(events), Secret: w.Secret, Failures: int64(w.Failures),
		DisabledAt: nullTime(w.DisabledAt), DisabledReason: w.DisabledReason,
		CreatedAt: dbTime(w.CreatedAt), UpdatedAt: dbTime(w.UpdatedAt),
	})
}

func (q webhookQueries) GetWebhook(ctx context.Context, id int64) (sqlrepo.Stored[domain.Webhook], error) {
	row, err := q.c.read.GetWebhook(ctx, id)
	return storedWebhook(row), err
}

// LockWebhook reads on the writer: inside a transaction, which holds
// SQLite's one write lock, nobody else can change the webhook meanwhile.
func (q webhookQueries) LockWebhook(ctx context.Context, id int64) (sqlrepo.Stored[domain.Webhook], error) {
	row, err := q.c.write.LockWebhook(ctx, id)
	return storedWebhook(row), err
}

func (q webhookQueries) ListWebhooksByUser(ctx context.Context, userID int64) ([]sqlrepo.Stored[domain.Webhook], error) {
	rows, err := q.c.read.ListWebhooksByUser(ctx, userID)
	return sqlrepo.Rows(rows, storedWebhook), err
}

func (q webhookQueries) UpdateWebhook(ctx context.Context, w domain.Webhook, events []byte) (int64, error) {
	return q.c.write.UpdateWebhook(ctx, db.UpdateWebhookParams{
		ID: w.ID, Url: w.URL, Events: string(events), Failures: int64(w.Failures),
		DisabledAt: nullTime(w.DisabledAt), DisabledReason: w.DisabledReason, UpdatedAt: dbTime(w.UpdatedAt),
	})
}

func (q webhookQueries) DeleteWebhook(ctx context.Context, id int64) (int64, error) {
	return q.c.write.DeleteWebhook(ctx, id)
}

func storedWebhook(row db.Webhook) sqlrepo.Stored[domain.Webhook] {
	return sqlrepo.Stored[domain.Webhook]{JSON: []byte(row.Events), Value: domain.Webhook{
		ID: row.ID, UserID: row.UserID, URL: row.Url, Secret: row.Secret, Failures: int(row.Failures),
		DisabledAt: timePtrOf(row.DisabledAt), DisabledReason: row.DisabledReason,
		CreatedAt: timeOf(row.CreatedAt), UpdatedAt: timeOf(row.UpdatedAt),
	}}
}

func (q webhookQueries) CreateDelivery(ctx context.Context, d domain.Delivery, event []byte) (int64, error) {
	return q.c.write.CreateDelivery(ctx, db.CreateDeliveryParams{
		WebhookID: d.WebhookID, Event: string(event), Status: string(d.Status), Attempts: int64(d.Attempts),
		NextAttemptAt: dbTime(d.NextAttemptAt), ClaimedUntil: nullTime(d.ClaimedUntil),
		LastStatusCode: int64(d.LastStatusCode), LastError: d.LastError, DeliveredAt: nullTime(d.DeliveredAt),
		CreatedAt: dbTime(d.CreatedAt), UpdatedAt: dbTime(d.UpdatedAt),
	})
}

func (q webhookQueries) GetDelivery(ctx context.Context, id int64) (sqlrepo.Stored[domain.Delivery], error) {
	row, err := q.c.read.GetDelivery(ctx, id)
	return deliveryOf(row), err
}

func (q webhookQueries) ClaimDeliveries(ctx context.Context, now, until time.Time, limit int) ([]sqlrepo.Stored[domain.Delivery], error) {
	rows, err := q.c.write.ClaimDeliveries(ctx, db.ClaimDeliveriesParams{Until: nullTime(&until), Now: dbTime(now), RowLimit: int64(limit)})
	return sqlrepo.Rows(rows, deliveryOf), err
}

func (q webhookQueries) UpdateDelivery(ctx context.Context, d domain.Delivery) (int64, error) {
	return q.c.write.UpdateDelivery(ctx, db.UpdateDeliveryParams{
		ID: d.ID, Status: string(d.Status), Attempts: int64(d.Attempts), NextAttemptAt: dbTime(d.NextAttemptAt),
		ClaimedUntil: nullTime(d.ClaimedUntil), LastStatusCode: int64(d.LastStatusCode), LastError: d.LastError,
		DeliveredAt: nullTime(d.DeliveredAt), UpdatedAt: dbTime(d.UpdatedAt),
	})
}

func (q webhookQueries) CountPendingDeliveries(ctx context.Context) (int64, error) {
	return q.c.read.CountPendingDeliveries(ctx)
}

func (q webhookQueries) ListDeliveries(ctx context.Context, webhookID int64, page ports.Page) ([]sqlrepo.Stored[domain.Delivery], error) {
	limit, offset := pageBounds(page)
	rows, err := q.c.read.ListDeliveries(ctx, db.ListDeliveriesParams{WebhookID: webhookID, RowLimit: limit, RowOffset: offset})
	return sqlrepo.Rows(rows, deliveryOf), err
}

func (q webhookQueries) CountDeliveries(ctx context.Context, webhookID int64) (int64, error) {
	return q.c.read.CountDeliveries(ctx, webhookID)
}

// LockWebhookCursor reads the cursor. Inside a transaction, which holds
// SQLite's one write lock, nobody else can hold it.
func (q webhookQueries) LockWebhookCursor(ctx context.Context) ([]int64, error) {
	return q.c.write.LockWebhookCursor(ctx)
}

func (q webhookQueries) SetWebhookCursor(ctx context.Context, last int64) error {
	return q.c.write.SetWebhookCursor(ctx, last)
}

func deliveryOf(row db.WebhookDelivery) sqlrepo.Stored[domain.Delivery] {
	return sqlrepo.Stored[domain.Delivery]{JSON: []byte(row.Event), Value: domain.Delivery{
		ID: row.ID, WebhookID: row.WebhookID, Status: domain.DeliveryStatus(row.Status), Attempts: int(row.Attempts),
		NextAttemptAt: timeOf(row.NextAttemptAt), ClaimedUntil: timePtrOf(row.ClaimedUntil),
		LastStatusCode: int(row.LastStatusCode), LastError: row.LastError, DeliveredAt: timePtrOf(row.DeliveredAt),
		CreatedAt: timeOf(row.CreatedAt), UpdatedAt: timeOf(row.UpdatedAt),
	}}
}
