-- name: CreateTag :one
INSERT INTO tags (name, name_key, slug, created_at, updated_at)
VALUES (@name, @name_key, @slug, @created_at, @updated_at)
RETURNING id;

-- ListTags orders by code point, as every store can.
-- name: ListTags :many
SELECT * FROM tags ORDER BY name COLLATE "C", id;

-- name: GetTagsByIDs :many
SELECT * FROM tags WHERE id = ANY (@ids::bigint[]) ORDER BY id;

-- ListTagsOfPosts returns the links in no particular order: the caller
-- orders each post's tags (ports.TagOrder), a sort of two or three tags
-- that costs less in Go than a Sort node here.
-- name: ListTagsOfPosts :many
SELECT pt.post_id, sqlc.embed(t)
FROM post_tags pt
JOIN tags t ON t.id = pt.tag_id
WHERE pt.post_id = ANY (@post_ids::bigint[]);
