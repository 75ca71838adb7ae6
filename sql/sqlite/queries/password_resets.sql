-- name: PutPasswordReset :exec
INSERT INTO password_resets (user_id, token_hash, created_at, expires_at)
VALUES (@user_id, @token_hash, @created_at, @expires_at)
ON CONFLICT (user_id) DO UPDATE SET
    token_hash = excluded.token_hash,
    created_at = excluded.created_at,
    expires_at = excluded.expires_at;

-- name: GetPasswordReset :one
SELECT * FROM password_resets WHERE user_id = @user_id;

-- name: DeletePasswordReset :exec
DELETE FROM password_resets WHERE user_id = @user_id;
