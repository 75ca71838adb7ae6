-- name: CreateToken :one
INSERT INTO personal_access_tokens (
    user_id, name, token_hash, abilities, last_used_at, expires_at, created_at, updated_at
) VALUES (
    @user_id, @name, @token_hash, @abilities, @last_used_at, @expires_at, @created_at, @updated_at
)
RETURNING id;

-- name: GetToken :one
SELECT * FROM personal_access_tokens WHERE id = @id;

-- GetTokenWithUser reads a token and its owner with one statement, as every
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

-- name: DeleteToken :execrows
DELETE FROM personal_access_tokens WHERE user_id = @user_id AND id = @id;

-- name: DeleteTokensByUser :execrows
DELETE FROM personal_access_tokens WHERE user_id = @user_id;

-- DeleteTokensByUserStreamed is DeleteTokensByUser for a login: a row per
-- token that went, saying whether it ever opened an event stream.
-- name: DeleteTokensByUserStreamed :many
DELETE FROM personal_access_tokens WHERE user_id = @user_id RETURNING streamed;

-- MarkTokenStreamed marks the token as one that opened an event stream and
-- returns it; no row when it is gone.
-- name: MarkTokenStreamed :one
UPDATE personal_access_tokens SET streamed = 1 WHERE id = @id RETURNING *;

-- name: DeleteTokensByName :execrows
DELETE FROM personal_access_tokens WHERE user_id = @user_id AND name = @name;

-- name: DeleteExpiredTokens :execrows
DELETE FROM personal_access_tokens WHERE expires_at <= CAST(@now AS INTEGER);

-- TouchToken writes last_used_at only when it is unset or at least the touch
-- interval old (stale_before = now - interval), so a fresh token costs no write.
-- name: TouchToken :exec
UPDATE personal_access_tokens
SET last_used_at = CAST(@now AS INTEGER)
WHERE id = @id
  AND (last_used_at IS NULL OR last_used_at <= CAST(@stale_before AS INTEGER));
