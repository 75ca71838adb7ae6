package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// IdempotencyConfig sets how long Idempotency-Key records last.
type IdempotencyConfig struct {
	// Lease is how long a running request holds its key: past it the
	// request is taken for dead (its replica stopped) and the key may be
	// claimed again. The request timeout, after which no request runs on.
	Lease time.Duration
	// Retention is how long a finished request's answer is replayed.
	Retention time.Duration
}

// Idempotency implements ports.Idempotency over the store's records.
type Idempotency struct {
	store ports.Store
	clock ports.Clock
	cfg   IdempotencyConfig
}

// NewIdempotency returns the Idempotency-Key use cases.
func NewIdempotency(store ports.Store, clock ports.Clock, cfg IdempotencyConfig) *Idempotency {
	return &Idempotency{store: store, clock: clock, cfg: cfg}
}

var _ ports.Idempotency = (*Idempotency)(nil)

// recordKey is the store's key of one caller's key: the caller comes first
// and never contains the separator "|", so two callers never share a record.
func recordKey(caller, key string) string {
	return caller + "|" + key
}

// Begin implements ports.Idempotency.
func (i *Idempotency) Begin(ctx context.Context, caller, key, fingerprint string) (ports.IdempotencyState, *ports.IdempotentAnswer, error) {
	if err := domain.CheckIdempotencyKey(key); err != nil {
		return 0, nil, err
	}
	now := i.clock.Now()
	claim := ports.IdempotencyRecord{Key: recordKey(caller, key), Fingerprint: fingerprint, ExpiresAt: now.Add(i.cfg.Lease)}
	found, claimed, err := i.store.Repos().Idempotency.Claim(ctx, claim, now)
	switch {
	case err != nil:
		return 0, nil, fmt.Errorf("claim idempotency key: %w", err)
	case claimed:
		return ports.IdempotencyClaimed, nil, nil
	case found.Answer == nil:
		// Whatever the request, a running one holds the key: which body
		// wins is only known once it has finished.
		return ports.IdempotencyRunning, nil, nil
	case found.Fingerprint != fingerprint:
		return ports.IdempotencyReused, nil, nil
	}
	return ports.IdempotencyReplay, found.Answer, nil
}

// Finish implements ports.Idempotency. Pruning here costs one indexed
// delete per kept answer and needs no loop of its own on any replica.
func (i *Idempotency) Finish(ctx context.Context, caller, key, fingerprint string, answer ports.IdempotentAnswer) error {
	if !keptStatus(answer.Status) {
		return i.Abandon(ctx, caller, key, fingerprint)
	}
	now := i.clock.Now()
	repo := i.store.Repos().Idempotency
	err := repo.Complete(ctx, recordKey(caller, key), fingerprint, answer, now.Add(i.cfg.Retention))
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return fmt.Errorf("keep idempotent answer: %w", err)
	}
	// A claim that outlived its lease may have been taken over; the answer
	// was sent all the same, only not kept.
	if _, err := repo.DeleteExpired(ctx, now); err != nil {
		return fmt.Errorf("prune idempotency keys: %w", err)
	}
	return nil
}

// Abandon implements ports.Idempotency.
func (i *Idempotency) Abandon(ctx context.Context, caller, key, fingerprint string) error {
	if err := i.store.Repos().Idempotency.Release(ctx, recordKey(caller, key), fingerprint); err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}

// Statuses that ask the client to do something before it tries again.
const (
	statusUnauthorized    = 401 // authenticate
	statusPageExpired     = 419 // fetch a new CSRF token
	statusTooManyRequests = 429 // wait for Retry-After
)

// keptStatus reports whether an answer of status is kept for retries. A
// fault (5xx) is worth retrying as it is; 401, 419 and 429 tell the client
// what to do before it retries, and replaying them after it did so would
// refuse it for the whole replay period. Every other answer, a validation
// failure (422) among them, is the request's own outcome and is kept.
func keptStatus(status int) bool {
	switch status {
	case statusUnauthorized, statusPageExpired, statusTooManyRequests:
		return false
	}
	return status < 500
}
