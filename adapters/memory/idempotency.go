package memory

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// idempotency implements ports.IdempotencyRepository. A record expires at
// its ExpiresAt, as a token does at its expires_at.
type idempotency struct{ u unit }

func (r idempotency) Claim(ctx context.Context, rec ports.IdempotencyRecord, now time.Time) (ports.IdempotencyRecord, bool, error) {
	now = norm(now)
	var found ports.IdempotencyRecord
	claimed := false
	err := r.u.write(ctx, func(s *state) error {
		if cur, ok := s.idempotency[rec.Key]; ok && now.Before(cur.ExpiresAt) {
			found = cloneRecord(cur)
			return nil
		}
		stored := cloneRecord(rec)
		stored.Answer, stored.ExpiresAt = nil, norm(rec.ExpiresAt)
		s.idempotency[rec.Key] = stored
		found, claimed = cloneRecord(stored), true
		return nil
	})
	if err != nil {
		return ports.IdempotencyRecord{}, false, err
	}
	return found, claimed, nil
}

func (r idempotency) Complete(ctx context.Context, key, fingerprint string, answer ports.IdempotentAnswer, expiresAt time.Time) error {
	return r.u.write(ctx, func(s *state) error {
		cur, ok := s.idempotency[key]
		if !ok || cur.Fingerprint != fingerprint || cur.Answer != nil {
			return fmt.Errorf("complete idempotency key: %w", domain.ErrNotFound)
		}
		a := answer
		a.Body = append([]byte{}, answer.Body...)
		cur.Answer, cur.ExpiresAt = &a, norm(expiresAt)
		s.idempotency[key] = cur
		return nil
	})
}

func (r idempotency) Release(ctx context.Context, key, fingerprint string) error {
	return r.u.write(ctx, func(s *state) error {
		if cur, ok := s.idempotency[key]; ok && cur.Fingerprint == fingerprint && cur.Answer == nil {
			delete(s.idempotency, key)
		}
		return nil
	})
}

func (r idempotency) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	now = norm(now)
	var n int64
	err := r.u.write(ctx, func(s *state) error {
		for key, rec := range s.idempotency {
			if !now.Before(rec.ExpiresAt) {
				delete(s.idempotency, key)
				n++
			}
		}
		return nil
	})
	return n, err
}

// cloneRecord copies rec with an answer of its own, since stored values are
// never shared with callers.
func cloneRecord(rec ports.IdempotencyRecord) ports.IdempotencyRecord {
	if rec.Answer != nil {
		a := *rec.Answer
		a.Body = append([]byte{}, rec.Answer.Body...)
		rec.Answer = &a
	}
	return rec
}
