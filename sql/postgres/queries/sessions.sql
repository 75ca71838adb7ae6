-- name: CreateSession :exec
INSERT INTO sessions (id_hash, kind, user_id, csrf_token, last_activity, created_at)
VALUES (@id_hash, @kind, @user_id, @csrf_token, @last_activity, @created_at);

-- name: GetSession :one
SELECT * FROM sessions WHERE id_hash = @id_hash;

-- name: UpdateSession :execrows
UPDATE sessions
SET user_id = @user_id, csrf_token = @csrf_token, last_activity = @last_activity
WHERE id_hash = @id_hash;

-- TouchSession records activity. The staleness test sits in the WHERE clause
-- (stale_before = now - interval), so that a session used many times a minute
-- costs one write a minute and never needs a read first.
-- name: TouchSession :exec
UPDATE sessions SET last_activity = @now
WHERE id_hash = @id_hash AND last_activity <= @stale_before;

-- name: DeleteSession :exec
DELETE FROM sessions WHERE id_hash = @id_hash;

-- name: DeleteSessionsByUser :execrows
DELETE FROM sessions WHERE user_id = sqlc.arg(user_id)::bigint;

-- name: DeleteIdleSessions :execrows
DELETE FROM sessions WHERE last_activity <= @cutoff;
