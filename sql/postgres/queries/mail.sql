-- name: EnqueueMail :one
INSERT INTO mail_outbox (message_id, recipient, subject, text_body, html_body, status, attempts, next_attempt_at, claimed_until, last_error, sent_at, expires_at, created_at, updated_at)
VALUES (@message_id, @recipient, @subject, @text_body, @html_body, @status, @attempts, @next_attempt_at, @claimed_until, @last_error, @sent_at, @expires_at, @created_at, @updated_at)
RETURNING id;

-- name: GetMail :one
SELECT * FROM mail_outbox WHERE id = @id;

-- ClaimMails leases the due mails that no other replica holds: SKIP LOCKED
-- passes over rows another claim is taking at this moment.
-- name: ClaimMails :many
UPDATE mail_outbox SET claimed_until = @until
WHERE id IN (
    SELECT m.id FROM mail_outbox m
    WHERE m.status = 'pending' AND m.next_attempt_at <= @now AND m.expires_at > @now
      AND (m.claimed_until IS NULL OR m.claimed_until <= @now)
    ORDER BY m.next_attempt_at, m.id
    LIMIT @row_limit::bigint
    FOR UPDATE SKIP LOCKED
)
RETURNING *;

-- name: UpdateMail :execrows
UPDATE mail_outbox SET
    status = @status,
    attempts = @attempts,
    next_attempt_at = @next_attempt_at,
    claimed_until = @claimed_until,
    last_error = @last_error,
    sent_at = @sent_at,
    text_body = @text_body,
    html_body = @html_body,
    updated_at = @updated_at
WHERE id = @id;

-- name: ExpireMails :execrows
UPDATE mail_outbox SET status = 'expired', text_body = '', html_body = '', claimed_until = NULL, updated_at = @now
WHERE status = 'pending' AND expires_at <= @now;

-- name: PruneMails :execrows
DELETE FROM mail_outbox WHERE status <> 'pending' AND updated_at <= @before;

-- CountPendingMails is the outbox's backlog, for /metrics: the partial
-- index mail_outbox_due holds exactly the pending rows.
-- name: CountPendingMails :one
SELECT count(*) FROM mail_outbox WHERE status = 'pending';
