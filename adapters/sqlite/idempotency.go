package sqlite

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// idempotencyQueries are sqlrepo.IdempotencyQueries, all on the writer: a
// claim reads the record it lost to in the same transaction.
type idempotencyQueries struct{ c conns }

var _ sqlrepo.IdempotencyQueries = idempotencyQueries{}

func (q idempotencyQueries) ClaimIdempotencyKey(ctx context.Context, rec ports.IdempotencyRecord, now time.Time) error {
	_, err := q.c.write.ClaimIdempotencyKey(ctx, db.ClaimIdempotencyKeyParams{
		Key:         rec.Key,
		Fingerprint: rec.Fingerprint,
		ExpiresAt:   dbTime(rec.ExpiresAt),
		Now:         dbTime(now),
	})
	return err
}

func (q idempotencyQueries) GetIdempotencyKey(ctx context.Context, key string) (ports.IdempotencyRecord, error) {
	row, err := q.c.write.GetIdempotencyKey(ctx, key)
	return ports.IdempotencyRecord{
		Key: row.Key, Fingerprint: row.Fingerprint, ExpiresAt: timeOf(row.ExpiresAt),
		Answer: &ports.IdempotentAnswer{Status: int(row.Status), ContentType: row.ContentType, Location: row.Location, Body: row.Body},
	}, err
}

func (q idempotencyQueries) CompleteIdempotencyKey(ctx context.Context, key, fingerprint string, answer ports.IdempotentAnswer, expiresAt time.Time) (int64, error) {
	return q.c.write.CompleteIdempotencyKey(ctx, db.CompleteIdempotencyKeyParams{
		Key:         key,
		Fingerprint: fingerprint,
		Status:      int64(answer.Status),
		ContentType: answer.ContentType,
		Location:    answer.Location,
		Body:        answer.Body,
		ExpiresAt:   dbTime(expiresAt),
	})
}

func (q idempotencyQueries) ReleaseIdempotencyKey(ctx context.Context, key, fingerprint string) error {
	return q.c.write.ReleaseIdempotencyKey(ctx, db.ReleaseIdempotencyKeyParams{Key: key, Fingerprint: fingerprint})
}

func (q idempotencyQueries) DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error) {
	return q.c.write.DeleteExpiredIdempotencyKeys(ctx, dbTime(now))
}
