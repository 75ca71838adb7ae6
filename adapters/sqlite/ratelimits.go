package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
)

// rateLimits is ports.RateLimitRepository.
type rateLimits struct{ c conns }

func (r rateLimits) Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error) {
	row, err := r.c.write.HitRateLimit(ctx, db.HitRateLimitParams{
		Key:     key,
		Now:     micros(now),
		ResetAt: micros(now.Add(window)),
	})
	if err != nil {
		return 0, time.Time{}, wrap("hit rate limit", err)
	}
	return int(row.Hits), fromMicros(row.ResetAt), nil
}

func (r rateLimits) Attempts(ctx context.Context, key string, now time.Time) (int, time.Time, error) {
	row, err := r.c.read.GetRateLimit(ctx, db.GetRateLimitParams{Key: key, Now: micros(now)})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, time.Time{}, nil
	}
	if err != nil {
		return 0, time.Time{}, wrap("read rate limit", err)
	}
	return int(row.Hits), fromMicros(row.ResetAt), nil
}

func (r rateLimits) Clear(ctx context.Context, key string) error {
	if err := r.c.write.DeleteRateLimit(ctx, key); err != nil {
		return wrap("clear rate limit", err)
	}
	return nil
}
