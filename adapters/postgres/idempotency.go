package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// idempotency implements ports.IdempotencyRepository.
type idempotency struct{ q *db.Queries }

var _ ports.IdempotencyRepository = idempotency{}

// Claim tries the claim and, when a live record keeps it from being
// stored, reads that record. A record that expires or goes between the
// two statements makes the claim worth trying again, once.
func (r idempotency) Claim(ctx context.Context, rec ports.IdempotencyRecord, now time.Time) (ports.IdempotencyRecord, bool, error) {
	for range 2 {
		_, err := r.q.ClaimIdempotencyKey(ctx, db.ClaimIdempotencyKeyParams{
			Key:         rec.Key,
			Fingerprint: rec.Fingerprint,
			ExpiresAt:   dbTime(rec.ExpiresAt),
			Now:         dbTime(now),
		})
		if err == nil {
			return rec, true, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return ports.IdempotencyRecord{}, false, storeError("claim idempotency key", err)
		}
		row, err := r.q.GetIdempotencyKey(ctx, rec.Key)
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return ports.IdempotencyRecord{}, false, storeError("read idempotency key", err)
		}
		found := ports.IdempotencyRecord{Key: row.Key, Fingerprint: row.Fingerprint, ExpiresAt: timeOf(row.ExpiresAt)}
		if row.Status != 0 {
			found.Answer = &ports.IdempotentAnswer{Status: int(row.Status), ContentType: row.ContentType, Location: row.Location, Body: row.Body}
		}
		return found, false, nil
	}
	return ports.IdempotencyRecord{}, false, fmt.Errorf("postgres: claim idempotency key: the key changed hands twice")
}

func (r idempotency) Complete(ctx context.Context, key, fingerprint string, answer ports.IdempotentAnswer, expiresAt time.Time) error {
	body := answer.Body
	if body == nil {
		body = []byte{}
	}
	n, err := r.q.CompleteIdempotencyKey(ctx, db.CompleteIdempotencyKeyParams{
		Key:         key,
		Fingerprint: fingerprint,
		Status:      int32(answer.Status),
		ContentType: answer.ContentType,
		Location:    answer.Location,
		Body:        body,
		ExpiresAt:   dbTime(expiresAt),
	})
	if err != nil {
		return storeError("complete idempotency key", err)
	}
	if n == 0 {
		return notFound("complete idempotency key")
	}
	return nil
}

func (r idempotency) Release(ctx context.Context, key, fingerprint string) error {
	err := r.q.ReleaseIdempotencyKey(ctx, db.ReleaseIdempotencyKeyParams{Key: key, Fingerprint: fingerprint})
	if err != nil {
		return storeError("release idempotency key", err)
	}
	return nil
}

func (r idempotency) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	n, err := r.q.DeleteExpiredIdempotencyKeys(ctx, dbTime(now))
	if err != nil {
		return 0, storeError("prune idempotency keys", err)
	}
	return n, nil
}
