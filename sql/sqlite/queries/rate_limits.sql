-- HitRateLimit counts one hit in a single statement. The SELECT reads the key's
-- row under the statement's write lock and computes the new one: an open window
-- (reset_at after now) gains a hit and keeps its end, a missing or ended one
-- starts over at one hit ending at reset_at. The new values travel through
-- "excluded" because sqlc does not see parameters inside DO UPDATE.
-- name: HitRateLimit :one
INSERT INTO rate_limits (key, hits, reset_at)
SELECT CAST(@key AS TEXT),
       CASE WHEN cur.reset_at > CAST(@now AS INTEGER) THEN cur.hits + 1 ELSE 1 END,
       CASE WHEN cur.reset_at > CAST(@now AS INTEGER) THEN cur.reset_at ELSE CAST(@reset_at AS INTEGER) END
FROM (SELECT 1) AS one
LEFT JOIN rate_limits AS cur ON cur.key = @key
WHERE true
ON CONFLICT (key) DO UPDATE
SET hits = excluded.hits,
    reset_at = excluded.reset_at
RETURNING hits, reset_at;

-- name: DeleteRateLimit :exec
DELETE FROM rate_limits WHERE key = @key;
