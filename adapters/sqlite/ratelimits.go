package sqlite

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
)

// rateLimits is ports.RateLimitRepository.
type rateLimits struct{ c conns }

func (r rateLimits) Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error) {
	row, err := r.c.write.HitRateLimit(ctx, db.HitRateLimitParams{
		Key:     key,
		Now:     dbTime(now),
		ResetAt: dbTime(now.Add(window)),
	})
	if err != nil {
		return 0, time.Time{}, storeError("hit rate limit", err)
	}
	return int(row.Hits), timeOf(row.ResetAt), nil
}

func (r rateLimits) Clear(ctx context.Context, key string) error {
	if err := r.c.write.DeleteRateLimit(ctx, key); err != nil {
		return storeError("clear rate limit", err)
	}
	return nil
}
