package sqlite

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
)

// rateLimitQueries are sqlrepo.RateLimitQueries.
type rateLimitQueries struct{ c conns }

var _ sqlrepo.RateLimitQueries = rateLimitQueries{}

func (q rateLimitQueries) HitRateLimit(ctx context.Context, key string, now, resetAt time.Time) (int, time.Time, error) {
	row, err := q.c.write.HitRateLimit(ctx, db.HitRateLimitParams{Key: key, Now: dbTime(now), ResetAt: dbTime(resetAt)})
	return int(row.Hits), timeOf(row.ResetAt), err
}

func (q rateLimitQueries) DeleteRateLimit(ctx context.Context, key string) error {
	return q.c.write.DeleteRateLimit(ctx, key)
}
