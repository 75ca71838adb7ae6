package app

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/ports"
)

// RequestLimitConfig sets the API's request rate limit.
type RequestLimitConfig struct {
	// PerMinute is how many requests one caller may send in a minute; 0
	// turns the limit off.
	PerMinute int
}

// requestWindow is the fixed window requests are counted in.
const requestWindow = time.Minute

// RequestLimit implements ports.RequestLimit with fixed one-minute windows
// in the store's rate-limit counters.
type RequestLimit struct {
	store ports.Store
	clock ports.Clock
	cfg   RequestLimitConfig
}

// NewRequestLimit returns the request rate limit.
func NewRequestLimit(store ports.Store, clock ports.Clock, cfg RequestLimitConfig) *RequestLimit {
	return &RequestLimit{store: store, clock: clock, cfg: cfg}
}

var _ ports.RequestLimit = (*RequestLimit)(nil)

// Hit implements ports.RequestLimit. Its keys start with "requests:", apart
// from the failed-login counts ("login:"), which the same counters keep.
func (l *RequestLimit) Hit(ctx context.Context, caller string) (ports.Quota, error) {
	now := l.clock.Now()
	hits, resetAt, err := l.store.Repos().RateLimits.Hit(ctx, "requests:"+caller, requestWindow, now)
	if err != nil {
		return ports.Quota{}, fmt.Errorf("count request of %s: %w", caller, err)
	}
	q := ports.Quota{Limit: l.cfg.PerMinute, Remaining: max(l.cfg.PerMinute-hits, 0), ResetAt: resetAt}
	if hits > l.cfg.PerMinute {
		return q, tooManyAttempts(resetAt.Sub(now))
	}
	return q, nil
}
