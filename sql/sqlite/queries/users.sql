-- name: CreateUser :one
INSERT INTO users (
    name, email, email_key, password_hash, remember_token,
    email_verified_at, avatar_path, created_at, updated_at
) VALUES (
    @name, @email, @email_key, @password_hash, @remember_token,
    @email_verified_at, @avatar_path, @created_at, @updated_at
)
RETURNING id;

-- name: GetUser :one
SELECT * FROM users WHERE id = @id;

-- GetAuthorsByIDs reads what posts and comments show of their authors
-- (domain.Author): no page of posts reads an e-mail or a password hash.
-- name: GetAuthorsByIDs :many
SELECT id, name, avatar_path FROM users WHERE id IN (sqlc.slice('ids'));

-- name: GetUsersByIDs :many
SELECT * FROM users WHERE id IN (sqlc.slice('ids')) ORDER BY id;

-- name: GetUserByEmailKey :one
SELECT * FROM users WHERE email_key = @email_key;

-- name: UpdateUser :execrows
UPDATE users
SET name = @name,
    email = @email,
    email_key = @email_key,
    password_hash = @password_hash,
    remember_token = @remember_token,
    email_verified_at = @email_verified_at,
    avatar_path = @avatar_path,
    updated_at = @updated_at
WHERE id = @id;

-- name: DeleteUser :execrows
DELETE FROM users WHERE id = @id;

-- SetRememberToken replaces the token that remember-me cookies carry. It
-- leaves updated_at alone: the token is not part of what the API shows.
-- name: SetRememberToken :execrows
UPDATE users SET remember_token = @remember_token WHERE id = @id;

-- MarkEmailVerified sets email_verified_at only while the address is still
-- the one that was proven and no earlier proof is recorded.
-- name: MarkEmailVerified :execrows
UPDATE users
SET email_verified_at = @email_verified_at,
    updated_at = @updated_at
WHERE id = @id AND email = @email AND email_verified_at IS NULL;

-- SetUserAdmin grants or takes admin rights; only the command line calls
-- it. It leaves updated_at alone: the API shows nothing of it.
-- name: SetUserAdmin :execrows
UPDATE users SET is_admin = @is_admin WHERE id = @id;

-- name: ListAdmins :many
SELECT * FROM users WHERE is_admin = 1 ORDER BY id;
