-- name: CreateTag :one
INSERT INTO tags (name, name_key, slug, created_at, updated_at)
VALUES (@name, @name_key, @slug, @created_at, @updated_at)
RETURNING id;

-- ListTags orders by code point: the BINARY collation compares UTF-8 bytes,
-- which sort as their code points do, the order PostgreSQL's "C" gives.
-- name: ListTags :many
SELECT * FROM tags ORDER BY name, id;

-- name: GetTagsByIDs :many
SELECT * FROM tags WHERE id IN (sqlc.slice('ids')) ORDER BY id;

-- ListTagsOfPosts returns the links in no particular order: the caller
-- orders each post's tags (ports.TagOrder), which costs less than SQLite's
-- sorter.
-- name: ListTagsOfPosts :many
SELECT pt.post_id, sqlc.embed(t)
FROM post_tags pt
JOIN tags t ON t.id = pt.tag_id
WHERE pt.post_id IN (sqlc.slice('post_ids'));
