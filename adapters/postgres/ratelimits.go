package postgres

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// rateLimits implements ports.RateLimitRepository.
type rateLimits struct{ q *db.Queries }

var _ ports.RateLimitRepository = rateLimits{}

func (r rateLimits) Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error) {
	row, err := r.q.HitRateLimit(ctx, db.HitRateLimitParams{
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
	return storeError("clear rate limit", r.q.DeleteRateLimit(ctx, key))
}
