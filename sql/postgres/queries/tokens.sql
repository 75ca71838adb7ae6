-- name: CreateToken :one
INSERT INTO personal_access_tokens (
    user_id, name, token_hash, abilities, last_used_at, expires_at, created_at, updated_at
) VALUES (
    @user_id, @name, @token_hash, @abilities, @last_used_at, @expires_at, @created_at, @updated_at
)
RETURNING id;

-- name: GetToken :one
SELECT * FROM personal_access_tokens WHERE id = @id;

-- GetTokenWithUser reads a token and its owner in one round trip, as every
-- authenticated request needs both.
-- name: GetTokenWithUser :one
SELECT sqlc.embed(t), sqlc.embed(u)
FROM personal_access_tokens t
JOIN users u ON u.id = t.user_id
WHERE t.id = @id;

-- name: GetTokenByHash :one
SELECT * FROM personal_access_tokens WHERE token_hash = @token_hash;

-- name: ListTokensByUser :many
SELECT * FROM personal_access_tokens
WHERE user_id = @user_id
ORDER BY created_at, id;

-- name: DeleteUserToken :execrows
DELETE FROM personal_access_tokens WHERE id = @id AND user_id = @user_id;

-- name: DeleteTokensByUser :execrows
DELETE FROM personal_access_tokens WHERE user_id = @user_id;

-- DeleteTokensByUserStreamed is DeleteTokensByUser for a login: a row per
-- token that went, saying whether it ever opened an event stream.
-- name: DeleteTokensByUserStreamed :many
DELETE FROM personal_access_tokens WHERE user_id = @user_id RETURNING streamed;

-- MarkTokenStreamed marks the token as one that opened an event stream and
-- returns it; no row when it is gone.
-- name: MarkTokenStreamed :one
UPDATE personal_access_tokens SET streamed = true WHERE id = @id RETURNING *;

-- name: DeleteTokensByName :execrows
DELETE FROM personal_access_tokens WHERE user_id = @user_id AND name = @name;

-- name: DeleteExpiredTokens :execrows
DELETE FROM personal_access_tokens WHERE expires_at <= @now;

-- TouchToken records a use. The staleness test sits in the WHERE clause so
-- that a token used many times a minute costs one write a minute, not one per
-- request, and never needs a read first.
-- name: TouchToken :exec
UPDATE personal_access_tokens SET last_used_at = @now
WHERE id = @id AND (last_used_at IS NULL OR last_used_at <= @stale_before);
