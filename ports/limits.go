package ports

import (
	"context"
	"time"
)

// Quota is what the request rate limit leaves a caller in its current
// window.
type Quota struct {
	// Limit is how many requests one window allows.
	Limit int
	// Remaining is how many more the caller may send before ResetAt.
	Remaining int
	// ResetAt is when the window ends and the count starts over.
	ResetAt time.Time
}

// RequestLimit is the driving port of the API's per-caller request rate
// limit (RATE_LIMIT_PER_MINUTE), counted in the store so that every replica
// sees the same counts.
type RequestLimit interface {
	// Hit counts one request of caller, a key naming it (a token or a
	// client address), and returns the quota left. Past the limit the
	// request is refused: domain.ErrTooManyAttempts with RetryAfter set,
	// together with the quota.
	Hit(ctx context.Context, caller string) (Quota, error)
}
