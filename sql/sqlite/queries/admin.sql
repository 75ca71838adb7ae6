-- The console's reads across every user's data, and the audit log.

-- AdminCounts takes the overview's counts in one round trip. Posts are
-- counted from post_counts, which triggers keep (0006), so that the
-- overview does not read a million posts; the event backlog is the events
-- past the webhook cursor.
-- name: AdminCounts :one
SELECT
    CAST((SELECT users FROM user_counts) AS INTEGER) AS users,
    CAST((SELECT coalesce(sum(published), 0) FROM post_counts) AS INTEGER) AS published,
    CAST((SELECT coalesce(sum(drafts), 0) FROM post_counts) AS INTEGER) AS drafts,
    (SELECT count(*) FROM comments) AS comments,
    (SELECT count(*) FROM webhooks) AS webhooks,
    (SELECT count(*) FROM webhooks WHERE disabled_at IS NOT NULL) AS webhooks_disabled,
    (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS deliveries_pending,
    (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed') AS deliveries_failed,
    (SELECT count(*) FROM mail_outbox WHERE status = 'pending') AS mails_pending,
    (SELECT count(*) FROM mail_outbox WHERE status = 'failed') AS mails_failed,
    (SELECT count(*) FROM events e WHERE e.id > (SELECT c.last_event_id FROM webhook_cursor c)) AS event_backlog;

-- name: AdminRecentDeliveryFailures :many
SELECT d.id, w.url, d.last_error, d.attempts, d.updated_at
FROM webhook_deliveries d
JOIN webhooks w ON w.id = d.webhook_id
WHERE d.last_error <> ''
ORDER BY d.updated_at DESC, d.id DESC
LIMIT @lim;

-- name: AdminRecentMailFailures :many
SELECT id, recipient, last_error, attempts, updated_at
FROM mail_outbox
WHERE last_error <> ''
ORDER BY updated_at DESC, id DESC
LIMIT @lim;

-- name: AdminListUsers :many
SELECT * FROM users ORDER BY id DESC LIMIT @lim OFFSET @off;

-- The other orders of the unsearched list of accounts: oldest first walks
-- the primary key forwards, by e-mail walks users_email_key (0001); each
-- picks the page's ids from its index, then reads only those rows.
-- name: AdminListUsersOldest :many
SELECT * FROM users ORDER BY id LIMIT @lim OFFSET @off;

-- name: AdminListUsersByEmail :many
SELECT u.* FROM users u
WHERE u.id IN (SELECT k.id FROM users k ORDER BY k.email_key LIMIT @lim OFFSET @off)
ORDER BY u.email_key;

-- AdminCountUsers reads the number that triggers keep (0015).
-- name: AdminCountUsers :one
SELECT CAST(users AS INTEGER) FROM user_counts;

-- name: AdminUsersAfter :many
SELECT * FROM users WHERE id > @after ORDER BY id LIMIT @lim;

-- name: AdminPostsAfter :many
SELECT * FROM posts WHERE id > @after ORDER BY id LIMIT @lim;

-- name: AdminListWebhooks :many
SELECT sqlc.embed(w), u.email AS owner_email
FROM webhooks w
JOIN users u ON u.id = w.user_id
ORDER BY (w.disabled_at IS NULL), w.failures DESC, w.id
LIMIT @lim OFFSET @off;

-- name: AdminCountWebhooks :one
SELECT count(*) FROM webhooks;

-- name: AdminListMails :many
SELECT * FROM mail_outbox ORDER BY id DESC LIMIT @lim OFFSET @off;

-- name: AdminCountMails :one
SELECT count(*) FROM mail_outbox;

-- name: AdminListMailsByStatus :many
SELECT * FROM mail_outbox WHERE status = @status ORDER BY id DESC LIMIT @lim OFFSET @off;

-- name: AdminCountMailsByStatus :one
SELECT count(*) FROM mail_outbox WHERE status = @status;

-- name: AdminUserSessions :many
SELECT * FROM sessions WHERE user_id = @user_id ORDER BY last_activity DESC, id_hash;

-- name: AppendAudit :one
INSERT INTO admin_audit (at, admin_id, admin_email, action, subject_type, subject_id, address)
VALUES (@at, @admin_id, @admin_email, @action, @subject_type, @subject_id, @address)
RETURNING id;

-- name: ListAudit :many
SELECT * FROM admin_audit ORDER BY id DESC LIMIT @lim OFFSET @off;

-- CountAudit counts the log's newest rows, no more than @lim of them: the
-- log only grows, and counting all of it on every page cost a scan of it
-- (see app.AdminListCounted).
-- name: CountAudit :one
SELECT count(*) FROM (SELECT 1 FROM admin_audit ORDER BY id DESC LIMIT @lim) AS newest;

-- The console's list of posts: every author's, drafts included, newest
-- first. The unsearched lists walk posts_created_at_id (or
-- posts_published, posts_drafts) backwards and take their totals from
-- post_counts; a search is read by adapters/sqlite/adminsearch.go.
-- name: AdminListPosts :many
SELECT * FROM posts ORDER BY created_at DESC, id DESC LIMIT @lim OFFSET @off;

-- name: AdminListPostsByStatus :many
SELECT * FROM posts WHERE status = @status ORDER BY created_at DESC, id DESC LIMIT @lim OFFSET @off;

-- Oldest first, the same indexes walked forwards.
-- name: AdminListPostsOldest :many
SELECT * FROM posts ORDER BY created_at, id LIMIT @lim OFFSET @off;

-- name: AdminListPostsByStatusOldest :many
SELECT * FROM posts WHERE status = @status ORDER BY created_at, id LIMIT @lim OFFSET @off;

-- name: AdminPostTotals :one
SELECT CAST(coalesce(sum(published), 0) AS INTEGER) AS published, CAST(coalesce(sum(drafts), 0) AS INTEGER) AS drafts FROM post_counts;

-- AdminPostsByIDs reads the rows of a searched page, whose ids
-- adapters/internal/adminsearch found.
-- name: AdminPostsByIDs :many
SELECT * FROM posts WHERE id IN (sqlc.slice('ids'));
