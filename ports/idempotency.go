package ports

import (
	"context"
	"time"
)

// IdempotentAnswer is the answer a request with an idempotency key got, as
// its transport sent it, kept so that a retry of the request gets the same
// answer again. The core reads only Status, to decide whether an answer is
// kept (Idempotency.Finish); it is numbered as HTTP numbers statuses, onto
// which any transport that offers idempotency keys maps its outcomes.
type IdempotentAnswer struct {
	Status int
	// ContentType is the media type of Body.
	ContentType string
	// Location is the address of what the request created, empty for none.
	Location string
	Body     []byte
}

// IdempotencyRecord is one Idempotency-Key of one caller: Key names both.
// Fingerprint identifies the request that claimed it (a digest of its
// method, path and body). Answer is nil while that request runs; the claim
// then lasts until ExpiresAt, so that a request that died with its replica
// does not hold the key for ever. A finished request's record lasts until
// ExpiresAt too, the end of the replay period.
type IdempotencyRecord struct {
	Key         string
	Fingerprint string
	Answer      *IdempotentAnswer
	ExpiresAt   time.Time
}

// IdempotencyRepository keeps Idempotency-Key records in the store, so that
// every replica sees them.
type IdempotencyRepository interface {
	// Claim stores rec, whose Answer is nil, unless a record of rec.Key
	// that has not expired at now exists: then it stores nothing and
	// returns that record and false. An expired record is replaced. Of
	// concurrent claims of one key exactly one succeeds.
	Claim(ctx context.Context, rec IdempotencyRecord, now time.Time) (IdempotencyRecord, bool, error)
	// Complete stores the answer of the running claim of key made with
	// fingerprint, and when the record now expires. domain.ErrNotFound when
	// there is no such running claim.
	Complete(ctx context.Context, key, fingerprint string, answer IdempotentAnswer, expiresAt time.Time) error
	// Release deletes the running claim of key made with fingerprint, so
	// that the request may be tried again; a missing claim is not an error.
	Release(ctx context.Context, key, fingerprint string) error
	// DeleteExpired removes the records that expired at or before now and
	// says how many went.
	DeleteExpired(ctx context.Context, now time.Time) (int64, error)
}

// IdempotencyState is what Begin found of an Idempotency-Key.
type IdempotencyState int

const (
	// IdempotencyClaimed: the key is new (or expired); the request runs
	// and its answer is kept with Finish.
	IdempotencyClaimed IdempotencyState = iota
	// IdempotencyReplay: the same request finished before; its answer is
	// to be sent again.
	IdempotencyReplay
	// IdempotencyRunning: the key is claimed by a request still running.
	IdempotencyRunning
	// IdempotencyReused: the key was used for another request, which has
	// finished.
	IdempotencyReused
)

// Idempotency is the driving port of Idempotency-Key handling.
type Idempotency interface {
	// Begin claims the caller's key for the request with fingerprint, or
	// says why it can't: with IdempotencyReplay it returns the answer to
	// send again. A key refused by domain.CheckIdempotencyKey returns its
	// error (domain.ErrIdempotencyKeyMalformed or
	// domain.ErrIdempotencyKeyTooLong) and claims nothing.
	Begin(ctx context.Context, caller, key, fingerprint string) (IdempotencyState, *IdempotentAnswer, error)
	// Finish keeps the answer of a claimed request for the replay period
	// and prunes the expired records. An answer that is not kept (a fault,
	// or 401, 419 or 429, which ask the client to act before it retries)
	// gives the key up as Abandon does.
	Finish(ctx context.Context, caller, key, fingerprint string, answer IdempotentAnswer) error
	// Abandon gives up a claimed request's key without keeping an answer,
	// so that a retry runs the request again.
	Abandon(ctx context.Context, caller, key, fingerprint string) error
}
