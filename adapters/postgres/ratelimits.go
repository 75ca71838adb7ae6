package postgres

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
)

// rateLimitQueries are sqlrepo.RateLimitQueries.
type rateLimitQueries struct{ q *db.Queries }

var _ sqlrepo.RateLimitQueries = rateLimitQueries{}

func (r rateLimitQueries) HitRateLimit(ctx context.Context, key string, now, resetAt time.Time) (int, time.Time, error) {
	row, err := r.q.HitRateLimit(ctx, db.HitRateLimitParams{Key: key, Now: dbTime(now), ResetAt: dbTime(resetAt)})
	return int(row.Hits), timeOf(row.ResetAt), err
}

func (r rateLimitQueries) DeleteRateLimit(ctx context.Context, key string) error {
	return r.q.DeleteRateLimit(ctx, key)
}
