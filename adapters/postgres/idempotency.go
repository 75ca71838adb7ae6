package postgres

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// idempotencyQueries are sqlrepo.IdempotencyQueries.
type idempotencyQueries struct{ q *db.Queries }

var _ sqlrepo.IdempotencyQueries = idempotencyQueries{}

func (r idempotencyQueries) ClaimIdempotencyKey(ctx context.Context, rec ports.IdempotencyRecord, now time.Time) error {
	_, err := r.q.ClaimIdempotencyKey(ctx, db.ClaimIdempotencyKeyParams{
		Key:         rec.Key,
		Fingerprint: rec.Fingerprint,
		ExpiresAt:   dbTime(rec.ExpiresAt),
		Now:         dbTime(now),
	})
	return err
}

func (r idempotencyQueries) GetIdempotencyKey(ctx context.Context, key string) (ports.IdempotencyRecord, error) {
	row, err := r.q.GetIdempotencyKey(ctx, key)
	return ports.IdempotencyRecord{
		Key: row.Key, Fingerprint: row.Fingerprint, ExpiresAt: timeOf(row.ExpiresAt),
		Answer: &ports.IdempotentAnswer{Status: int(row.Status), ContentType: row.ContentType, Location: row.Location, Body: row.Body},
	}, err
}

func (r idempotencyQueries) CompleteIdempotencyKey(ctx context.Context, key, fingerprint string, answer ports.IdempotentAnswer, expiresAt time.Time) (int64, error) {
	return r.q.CompleteIdempotencyKey(ctx, db.CompleteIdempotencyKeyParams{
		Key:         key,
		Fingerprint: fingerprint,
		Status:      int32(answer.Status),
		ContentType: answer.ContentType,
		Location:    answer.Location,
		Body:        answer.Body,
		ExpiresAt:   dbTime(expiresAt),
	})
}

func (r idempotencyQueries) ReleaseIdempotencyKey(ctx context.Context, key, fingerprint string) error {
	return r.q.ReleaseIdempotencyKey(ctx, db.ReleaseIdempotencyKeyParams{Key: key, Fingerprint: fingerprint})
}

func (r idempotencyQueries) DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error) {
	return r.q.DeleteExpiredIdempotencyKeys(ctx, dbTime(now))
}
