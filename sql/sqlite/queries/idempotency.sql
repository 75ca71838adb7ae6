-- ClaimIdempotencyKey stores a running claim of @key unless the key has a
-- record that has not expired at @now: it returns the claim when stored, no
-- row otherwise. An expired record is replaced. The check sits in the SELECT
-- because sqlc does not see parameters inside DO UPDATE; the transaction's
-- write lock keeps the check and the write together.
-- name: ClaimIdempotencyKey :one
INSERT INTO idempotency_keys (key, fingerprint, status, content_type, location, body, expires_at)
SELECT CAST(@key AS TEXT), CAST(@fingerprint AS TEXT), 0, '', '', X'', CAST(@expires_at AS INTEGER)
WHERE NOT EXISTS (SELECT 1 FROM idempotency_keys AS cur WHERE cur.key = @key AND cur.expires_at > @now)
ON CONFLICT (key) DO UPDATE SET
    fingerprint = excluded.fingerprint,
    status = 0,
    content_type = '',
    location = '',
    body = X'',
    expires_at = excluded.expires_at
RETURNING key;

-- name: GetIdempotencyKey :one
SELECT * FROM idempotency_keys WHERE key = @key;

-- name: CompleteIdempotencyKey :execrows
UPDATE idempotency_keys
SET status = @status, content_type = @content_type, location = @location, body = @body, expires_at = @expires_at
WHERE key = @key AND fingerprint = @fingerprint AND status = 0;

-- name: ReleaseIdempotencyKey :exec
DELETE FROM idempotency_keys WHERE key = @key AND fingerprint = @fingerprint AND status = 0;

-- name: DeleteExpiredIdempotencyKeys :execrows
DELETE FROM idempotency_keys WHERE expires_at <= @now;
