-- name: AppendEvent :one
INSERT INTO events (type, topic, created_at, post_id, post_author_id, comment_author_id, draft, payload)
VALUES (@type, @topic, @created_at, @post_id, @post_author_id, @comment_author_id, @draft, @payload)
RETURNING id;

-- EventsAfter takes the topics as one text, each name between commas
-- (",posts,comments,"), or empty for every topic.
-- name: EventsAfter :many
SELECT id, type, created_at, post_id, post_author_id, comment_author_id, draft, payload
FROM events
WHERE id > @after
  AND (CAST(@topics AS TEXT) = '' OR instr(CAST(@topics AS TEXT), ',' || topic || ',') > 0)
  AND (CAST(@post_id AS INTEGER) = 0 OR post_id = CAST(@post_id AS INTEGER))
ORDER BY id
LIMIT @row_limit;

-- name: PruneEvents :execrows
DELETE FROM events WHERE created_at < @cutoff;

