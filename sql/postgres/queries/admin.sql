-- The console's reads across every user's data, and the audit log.

-- AdminCounts takes the overview's counts in one round trip. Posts are
-- counted from post_counts, which triggers keep (0006), so that the
-- overview does not read a million posts; the event backlog is the events
-- past the webhook cursor.
-- name: AdminCounts :one
SELECT
    (SELECT coalesce(sum(users), 0) FROM user_counts)::bigint AS users,
    (SELECT coalesce(sum(published), 0) FROM post_counts)::bigint AS published,
    (SELECT coalesce(sum(drafts), 0) FROM post_counts)::bigint AS drafts,
    (SELECT count(*) FROM comments)::bigint AS comments,
    (SELECT count(*) FROM webhooks)::bigint AS webhooks,
    (SELECT count(*) FROM webhooks WHERE disabled_at IS NOT NULL)::bigint AS webhooks_disabled,
    (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')::bigint AS deliveries_pending,
    (SELECT count(*) FROM webhook_deliveries WHERE status = 'failed')::bigint AS deliveries_failed,
    (SELECT count(*) FROM mail_outbox WHERE status = 'pending')::bigint AS mails_pending,
    (SELECT count(*) FROM mail_outbox WHERE status = 'failed')::bigint AS mails_failed,
    (SELECT count(*) FROM events e WHERE e.id > (SELECT c.last_event_id FROM webhook_cursor c))::bigint AS event_backlog;

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

-- AdminListUsers skips the offset in an index-only scan of users_pkey and
-- reads only the page's rows: on 100k accounts, a page at offset 90,000
-- took 13 ms this way against 29 ms reading every skipped row.
-- name: AdminListUsers :many
SELECT u.* FROM users u
WHERE u.id IN (SELECT p.id FROM users p ORDER BY p.id DESC LIMIT @lim OFFSET @off)
ORDER BY u.id DESC;

-- The other orders of the unsearched list of accounts, as AdminListUsers:
-- oldest first walks users_pkey forwards, by e-mail users_email_key (0001).
-- name: AdminListUsersOldest :many
SELECT u.* FROM users u
WHERE u.id IN (SELECT p.id FROM users p ORDER BY p.id LIMIT @lim OFFSET @off)
ORDER BY u.id;

-- name: AdminListUsersByEmail :many
SELECT u.* FROM users u
WHERE u.id IN (SELECT p.id FROM users p ORDER BY p.email_key LIMIT @lim OFFSET @off)
ORDER BY u.email_key;

-- AdminCountUsers reads the number that triggers keep (0015).
-- name: AdminCountUsers :one
SELECT coalesce(sum(users), 0)::bigint FROM user_counts;

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
SELECT count(*) FROM (SELECT 1 FROM admin_audit ORDER BY id DESC LIMIT @lim::bigint) AS newest;

-- The console's list of posts: every author's, drafts included, newest
-- first. The unsearched lists walk posts_created_at_id (or
-- posts_published, posts_drafts) backwards and take their totals from
-- post_counts; a search is read by adapters/postgres/adminsearch.go.
-- The offset is skipped in an index-only scan and only the page's rows are
-- read, as in AdminListUsers: on 1M posts, offset 500,000 took 54 ms this
-- way against 95 ms.
-- name: AdminListPosts :many
SELECT p.* FROM posts p
WHERE p.id IN (SELECT q.id FROM posts q ORDER BY q.created_at DESC, q.id DESC LIMIT @lim OFFSET @off)
ORDER BY p.created_at DESC, p.id DESC;

-- name: AdminListPostsByStatus :many
SELECT p.* FROM posts p
WHERE p.id IN (
    SELECT q.id FROM posts q WHERE q.status = @status
    ORDER BY q.created_at DESC, q.id DESC LIMIT @lim OFFSET @off
)
ORDER BY p.created_at DESC, p.id DESC;

-- Oldest first, the same indexes walked forwards.
-- name: AdminListPostsOldest :many
SELECT p.* FROM posts p
WHERE p.id IN (SELECT q.id FROM posts q ORDER BY q.created_at, q.id LIMIT @lim OFFSET @off)
ORDER BY p.created_at, p.id;

-- name: AdminListPostsByStatusOldest :many
SELECT p.* FROM posts p
WHERE p.id IN (
    SELECT q.id FROM posts q WHERE q.status = @status
    ORDER BY q.created_at, q.id LIMIT @lim OFFSET @off
)
ORDER BY p.created_at, p.id;

-- name: AdminPostTotals :one
SELECT coalesce(sum(published), 0)::bigint AS published, coalesce(sum(drafts), 0)::bigint AS drafts FROM post_counts;

-- AdminPostsByIDs reads the rows of a searched page, whose ids
-- adapters/internal/adminsearch found.
-- name: AdminPostsByIDs :many
SELECT * FROM posts WHERE id = ANY(@ids::bigint[]);
