package sqlrepo

import (
	"context"
	"errors"
	"time"

	"github.com/inkwell/inkwell/ports"
)

// IdempotencyQueries are a store's statements on idempotency keys.
type IdempotencyQueries interface {
	// ClaimIdempotencyKey stores rec unless a record of its key that has
	// not expired at now exists, which it says by the driver's no-rows
	// error (Border.NoRows).
	ClaimIdempotencyKey(ctx context.Context, rec ports.IdempotencyRecord, now time.Time) error
	// GetIdempotencyKey reads the record of key with its answer as stored,
	// whose status is 0 while the claim runs.
	GetIdempotencyKey(ctx context.Context, key string) (ports.IdempotencyRecord, error)
	CompleteIdempotencyKey(ctx context.Context, key, fingerprint string, answer ports.IdempotentAnswer, expiresAt time.Time) (int64, error)
	ReleaseIdempotencyKey(ctx context.Context, key, fingerprint string) error
	DeleteExpiredIdempotencyKeys(ctx context.Context, now time.Time) (int64, error)
}

// Idempotency is ports.IdempotencyRepository.
type Idempotency struct {
	Q IdempotencyQueries
	B Border
}

var _ ports.IdempotencyRepository = Idempotency{}

// errChangedHands is the error of a claim whose key's record went (or
// expired) twice between the claim and the read of it.
var errChangedHands = errors.New("the key changed hands twice")

// Claim tries the claim and, when a live record keeps it from being
// stored, reads that record. A record that expires or goes between the
// two statements makes the claim worth trying again, once.
func (r Idempotency) Claim(ctx context.Context, rec ports.IdempotencyRecord, now time.Time) (ports.IdempotencyRecord, bool, error) {
	for range 2 {
		err := r.Q.ClaimIdempotencyKey(ctx, rec, now)
		if err == nil {
			return rec, true, nil
		}
		if !r.B.NoRows(err) {
			return ports.IdempotencyRecord{}, false, r.B.Err("claim idempotency key", err)
		}
		found, err := r.Q.GetIdempotencyKey(ctx, rec.Key)
		if r.B.NoRows(err) {
			continue
		}
		if err != nil {
			return ports.IdempotencyRecord{}, false, r.B.Err("read idempotency key", err)
		}
		if found.Answer != nil && found.Answer.Status == 0 {
			found.Answer = nil
		}
		return found, false, nil
	}
	return ports.IdempotencyRecord{}, false, r.B.Err("claim idempotency key", errChangedHands)
}

func (r Idempotency) Complete(ctx context.Context, key, fingerprint string, answer ports.IdempotentAnswer, expiresAt time.Time) error {
	if answer.Body == nil {
		answer.Body = []byte{}
	}
	n, err := r.Q.CompleteIdempotencyKey(ctx, key, fingerprint, answer, expiresAt)
	return r.B.Affected("complete idempotency key", n, err)
}

func (r Idempotency) Release(ctx context.Context, key, fingerprint string) error {
	return r.B.Err("release idempotency key", r.Q.ReleaseIdempotencyKey(ctx, key, fingerprint))
}

func (r Idempotency) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	n, err := r.Q.DeleteExpiredIdempotencyKeys(ctx, now)
	if err != nil {
		return 0, r.B.Err("prune idempotency keys", err)
	}
	return n, nil
}
