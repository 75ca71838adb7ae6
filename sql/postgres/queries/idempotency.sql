-- ClaimIdempotencyKey stores a running claim of @key unless the key has a
-- record that has not expired at @now, in one statement so that of two
-- concurrent claims one wins: it returns the claim when stored, no row
-- otherwise. An expired record is replaced.
-- name: ClaimIdempotencyKey :one
INSERT INTO idempotency_keys AS k (key, fingerprint, status, content_type, location, body, expires_at)
VALUES (@key, @fingerprint, 0, '', '', '', @expires_at)
ON CONFLICT (key) DO UPDATE SET
    fingerprint = excluded.fingerprint,
    status = 0,
    content_type = '',
    location = '',
    body = '',
    expires_at = excluded.expires_at
WHERE k.expires_at <= @now
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
