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
