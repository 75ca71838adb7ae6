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

-- name: LockTag :one
SELECT * FROM tags WHERE id = @id FOR UPDATE;

-- name: GetTagByNameKey :one
SELECT * FROM tags WHERE name_key = @name_key;

-- name: UpdateTag :execrows
UPDATE tags SET name = @name, name_key = @name_key, slug = @slug, updated_at = @updated_at
WHERE id = @id;

-- CopyTagLinks gives every post of one tag the other too; a post holding
-- both keeps its link.
-- name: CopyTagLinks :exec
INSERT INTO post_tags (post_id, tag_id)
SELECT pt.post_id, @into_id::bigint FROM post_tags pt WHERE pt.tag_id = @from_id::bigint
ON CONFLICT DO NOTHING;

-- name: DeleteTagLinks :execrows
DELETE FROM post_tags WHERE tag_id = @tag_id;

-- name: DeleteTag :execrows
DELETE FROM tags WHERE id = @id;

-- CountTags counts the tags a search keeps: strpos takes the search,
-- folded as name_key is, literally.
-- name: CountTags :one
SELECT count(*) FROM tags WHERE strpos(name_key, @search::text) > 0;
