package memory

import (
	"context"
	"time"
)

// rateLimits implements ports.RateLimitRepository. A window covers
// [start, resetAt): at resetAt it has ended, as a token expires at its
// expires_at.
type rateLimits struct{ u unit }

func (r rateLimits) Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error) {
	now = norm(now)
	var c counter
	err := r.u.write(ctx, func(s *state) error {
		c = s.counters[key]
		if c.hits == 0 || !now.Before(c.resetAt) {
			c = counter{resetAt: norm(now.Add(window))}
		}
		c.hits++
		s.counters[key] = c
		return nil
	})
	if err != nil {
		return 0, time.Time{}, err
	}
	return c.hits, c.resetAt, nil
}

func (r rateLimits) Clear(ctx context.Context, key string) error {
	return r.u.write(ctx, func(s *state) error {
		delete(s.counters, key)
		return nil
	})
}
