-- HitRateLimit counts one hit in a single statement, so concurrent hits on
-- one key never lose a count: the first hit of a key, or the first after its
-- window ended, starts a new window ending at @reset_at.
-- name: HitRateLimit :one
INSERT INTO rate_limits AS r (key, hits, reset_at)
VALUES (@key, 1, @reset_at)
ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN r.reset_at <= @now THEN 1 ELSE r.hits + 1 END,
    reset_at = CASE WHEN r.reset_at <= @now THEN excluded.reset_at ELSE r.reset_at END
RETURNING hits, reset_at;

-- name: DeleteRateLimit :exec
DELETE FROM rate_limits WHERE key = @key;
