-- name: CreateWebhook :one
INSERT INTO webhooks (user_id, url, events, secret, failures, disabled_at, disabled_reason, created_at, updated_at)
VALUES (@user_id, @url, @events, @secret, @failures, @disabled_at, @disabled_reason, @created_at, @updated_at)
RETURNING id;

-- name: GetWebhook :one
SELECT * FROM webhooks WHERE id = @id;

-- name: LockWebhook :one
SELECT * FROM webhooks WHERE id = @id FOR UPDATE;

-- name: ListWebhooksByUser :many
SELECT * FROM webhooks WHERE user_id = @user_id ORDER BY id;

-- name: UpdateWebhook :execrows
UPDATE webhooks SET
    url = @url,
    events = @events,
    failures = @failures,
    disabled_at = @disabled_at,
    disabled_reason = @disabled_reason,
    updated_at = @updated_at
WHERE id = @id;

-- name: DeleteWebhook :execrows
DELETE FROM webhooks WHERE id = @id;

-- name: CreateDelivery :one
INSERT INTO webhook_deliveries (webhook_id, event, status, attempts, next_attempt_at, claimed_until, last_status_code, last_error, delivered_at, created_at, updated_at)
VALUES (@webhook_id, @event, @status, @attempts, @next_attempt_at, @claimed_until, @last_status_code, @last_error, @delivered_at, @created_at, @updated_at)
RETURNING id;

-- name: GetDelivery :one
SELECT * FROM webhook_deliveries WHERE id = @id;

-- ClaimDeliveries leases the due deliveries that no other replica holds:
-- SKIP LOCKED passes over rows another claim is taking at this moment.
-- name: ClaimDeliveries :many
UPDATE webhook_deliveries SET claimed_until = @until
WHERE id IN (
    SELECT d.id FROM webhook_deliveries d
    WHERE d.status = 'pending' AND d.next_attempt_at <= @now
      AND (d.claimed_until IS NULL OR d.claimed_until <= @now)
    ORDER BY d.next_attempt_at, d.id
    LIMIT @row_limit::bigint
    FOR UPDATE SKIP LOCKED
)
RETURNING *;

-- name: UpdateDelivery :execrows
UPDATE webhook_deliveries SET
    status = @status,
    attempts = @attempts,
    next_attempt_at = @next_attempt_at,
    claimed_until = @claimed_until,
    last_status_code = @last_status_code,
    last_error = @last_error,
    delivered_at = @delivered_at,
    updated_at = @updated_at
WHERE id = @id;

-- name: ListDeliveries :many
SELECT * FROM webhook_deliveries WHERE webhook_id = @webhook_id
ORDER BY id DESC
LIMIT @row_limit::bigint OFFSET @row_offset::bigint;

-- name: CountDeliveries :one
SELECT count(*) FROM webhook_deliveries WHERE webhook_id = @webhook_id;

-- name: LockWebhookCursor :many
SELECT last_event_id FROM webhook_cursor FOR UPDATE SKIP LOCKED;

-- name: SetWebhookCursor :exec
UPDATE webhook_cursor SET last_event_id = @last_event_id;

-- CountPendingDeliveries is the deliveries' backlog, for /metrics: the
-- partial index webhook_deliveries_due holds exactly the pending rows.
-- name: CountPendingDeliveries :one
SELECT count(*) FROM webhook_deliveries WHERE status = 'pending';
