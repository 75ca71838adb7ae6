-- AppendEvent takes the next id from event_ids, holding its row until the
-- transaction ends (see 0009_events.sql), and notifies the listeners of
-- every replica, which PostgreSQL does when the transaction commits.
-- name: AppendEvent :one
WITH next AS (
    UPDATE event_ids SET last_id = last_id + 1 RETURNING last_id
), appended AS (
    INSERT INTO events (id, type, topic, created_at, post_id, post_author_id, comment_author_id, draft, payload)
    SELECT last_id, @type, @topic, @created_at, @post_id, @post_author_id, @comment_author_id, @draft, @payload
    FROM next
    RETURNING id
), notified AS (
    SELECT pg_notify('inkwell_events', '') FROM appended
)
SELECT appended.id FROM appended, notified;

-- name: EventsAfter :many
SELECT id, type, created_at, post_id, post_author_id, comment_author_id, draft, payload
FROM events
WHERE id > @after
  AND (cardinality(@topics::text[]) = 0 OR topic = ANY (@topics::text[]))
  AND (@post_id::bigint = 0 OR post_id = @post_id::bigint)
ORDER BY id
LIMIT @row_limit::bigint;

-- name: PruneEvents :execrows
DELETE FROM events WHERE created_at < @cutoff;

-- LastEventID is the id of the newest committed event, pruned or not:
-- ids commit in order, so every event at or below it is visible, and
-- event_ids keeps the last one handed out after its event was pruned.
-- name: LastEventID :one
SELECT last_id FROM event_ids;
