-- name: CreatePost :one
INSERT INTO posts (
    author_id, title, slug, excerpt, body, status, image_path, published_at, created_at, updated_at
) VALUES (
    @author_id, @title, @slug, @excerpt, @body, @status, @image_path, @published_at, @created_at, @updated_at
)
RETURNING id;

-- name: GetPost :one
SELECT * FROM posts WHERE id = @id;

-- name: GetPostWithAuthor :one
SELECT sqlc.embed(p), u.name AS author_name, u.avatar_path AS author_avatar_path
FROM posts p
JOIN users u ON u.id = p.author_id
WHERE p.id = @id;

-- name: UpdatePost :execrows
UPDATE posts
SET title = @title,
    excerpt = @excerpt,
    body = @body,
    status = @status,
    image_path = @image_path,
    published_at = @published_at,
    updated_at = @updated_at
WHERE id = @id;

-- name: DeletePost :execrows
DELETE FROM posts WHERE id = @id;

-- LastSlugSuffix finds the largest n of the slugs "<base>-<n>", counting
-- <base> itself as 1. The slugs from <base> up to but excluding <base>||'.'
-- are exactly <base> and those that continue it with a byte up to '-' (the
-- byte before '.'), so the range is one scan of posts_slug, and it takes
-- <base> literally: there is no LIKE pattern to escape. The remainder after
-- "<base>-" must be 1 to 18 digits, so that n + 1 still fits in an int64.
-- name: LastSlugSuffix :one
SELECT CAST(coalesce(max(
    CASE WHEN slug = @base THEN 1
         ELSE CAST(substr(slug, length(@base) + 2) AS INTEGER) END
), 0) AS INTEGER) AS suffix
FROM posts
WHERE slug >= @base AND slug < @base || '.'
  AND (slug = @base
       OR (substr(slug, length(@base) + 1, 1) = '-'
           AND length(slug) - length(@base) - 1 BETWEEN 1 AND 18
           AND substr(slug, length(@base) + 2) NOT GLOB '*[^0-9]*'));

-- CheckPostTags says whether the post exists and how many distinct tags of
-- @tag_ids do, before SetTags changes anything.
-- name: CheckPostTags :one
SELECT (SELECT count(*) FROM posts WHERE posts.id = @post_id) AS posts,
       (SELECT count(*) FROM tags WHERE tags.id IN (sqlc.slice('tag_ids'))) AS tags;

-- name: DeletePostTags :exec
DELETE FROM post_tags WHERE post_id = @post_id;

-- AddPostTags links the post to the tags of @tag_ids. Reading them from tags
-- drops repeated ids, and ON CONFLICT keeps a link that already exists.
-- name: AddPostTags :exec
INSERT INTO post_tags (post_id, tag_id)
SELECT @post_id, tags.id FROM tags WHERE tags.id IN (sqlc.slice('tag_ids'))
ON CONFLICT DO NOTHING;

-- ImagePathsByAuthor lists the stored images of an author's posts, which
-- deleting the author orphans; posts_author_id finds the posts.
-- name: ImagePathsByAuthor :many
SELECT image_path FROM posts
WHERE author_id = @author_id AND image_path <> ''
ORDER BY id;

-- PostCounts reads the counters that migration 0006 keeps: every published
-- post, summed over the shards, and the published posts and drafts of
-- @author_id, zero for an author without posts (or 0).
-- name: PostCounts :one
SELECT CAST((SELECT coalesce(sum(published), 0) FROM post_counts) AS INTEGER) AS published,
       CAST(coalesce((SELECT a.published FROM author_post_counts a WHERE a.author_id = @author_id), 0) AS INTEGER) AS author_published,
       CAST(coalesce((SELECT a.drafts FROM author_post_counts a WHERE a.author_id = @author_id), 0) AS INTEGER) AS author_drafts;
