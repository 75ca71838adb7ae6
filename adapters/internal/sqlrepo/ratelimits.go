package sqlrepo

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/ports"
)

// RateLimitQueries are a store's statements on rate limits.
type RateLimitQueries interface {
	// HitRateLimit counts a hit on key, starting a window that ends at
	// resetAt where the key's has ended at now, and returns the hits in
	// the window and when it ends.
	HitRateLimit(ctx context.Context, key string, now, resetAt time.Time) (int, time.Time, error)
	DeleteRateLimit(ctx context.Context, key string) error
}

// RateLimits is ports.RateLimitRepository.
type RateLimits struct {
	Q RateLimitQueries
	B Border
}

var _ ports.RateLimitRepository = RateLimits{}

func (r RateLimits) Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error) {
	hits, resetAt, err := r.Q.HitRateLimit(ctx, key, now, now.Add(window))
	if err != nil {
		return 0, time.Time{}, r.B.Err("hit rate limit", err)
	}
	return hits, resetAt, nil
}

func (r RateLimits) Clear(ctx context.Context, key string) error {
	return r.B.Err("clear rate limit", r.Q.DeleteRateLimit(ctx, key))
}
