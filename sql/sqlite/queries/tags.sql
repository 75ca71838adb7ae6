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

-- name: GetTag :one
SELECT * FROM tags WHERE id = @id;

-- name: GetTagByNameKey :one
SELECT * FROM tags WHERE name_key = @name_key;

-- name: UpdateTag :execrows
UPDATE tags SET name = @name, name_key = @name_key, slug = @slug, updated_at = @updated_at
WHERE id = @id;

-- CopyTagLinks gives every post of one tag the other too; a post holding
-- both keeps its link.
-- name: CopyTagLinks :exec
INSERT INTO post_tags (post_id, tag_id)
SELECT pt.post_id, @into_id FROM post_tags pt WHERE pt.tag_id = @from_id
ON CONFLICT DO NOTHING;

-- name: DeleteTagLinks :execrows
DELETE FROM post_tags WHERE tag_id = @tag_id;

-- name: DeleteTag :execrows
DELETE FROM tags WHERE id = @id;

-- CountTags counts the tags a search keeps: instr takes the search, folded
-- as name_key is, literally.
-- name: CountTags :one
SELECT count(*) FROM tags WHERE instr(name_key, @search) > 0;
