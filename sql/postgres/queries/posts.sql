-- name: CreatePost :one
INSERT INTO posts (
    author_id, title, slug, excerpt, body, status, image_path, published_at, created_at, updated_at
) VALUES (
    @author_id, @title, @slug, @excerpt, @body, @status, @image_path, @published_at, @created_at, @updated_at
)
RETURNING id;

-- name: GetPost :one
SELECT * FROM posts WHERE id = @id;

-- LockPost holds the post until the transaction ends, so that concurrent
-- writers of one post (two publishers) run one after the other.
-- name: LockPost :one
SELECT * FROM posts WHERE id = @id FOR UPDATE;

-- name: UpdatePost :execrows
UPDATE posts SET
    title = @title,
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
-- <base> itself as 1. @prefix is <base> escaped for LIKE and followed by "-%";
-- the "C" collation of slug lets posts_slug serve that prefix.
-- name: LastSlugSuffix :one
SELECT coalesce(max(
    CASE WHEN slug = @base::text THEN 1
         ELSE substr(slug, length(@base::text) + 2)::integer END
), 0)::integer AS suffix
FROM posts
WHERE slug = @base::text
   OR (slug LIKE @prefix::text ESCAPE '\'
       AND substr(slug, length(@base::text) + 2) ~ '^[0-9]{1,9}$');

-- ListPosts returns one page, newest first, of the published posts and the
-- viewer's drafts whose title matches @pattern (an ILIKE pattern with % and _
-- escaped) and that have the status, author and tag slug asked for, where an
-- empty status or slug and a zero author mean any. CountPosts and
-- ListPostsBefore repeat its WHERE clause.
-- name: ListPosts :many
SELECT p.* FROM posts p
WHERE (p.status = 'published' OR p.author_id = @viewer::bigint)
  AND p.title ILIKE @pattern::text ESCAPE '\'
  AND (@status::text = '' OR p.status = @status::text)
  AND (@author_id::bigint = 0 OR p.author_id = @author_id::bigint)
  AND (@tag_slug::text = '' OR EXISTS (
        SELECT 1 FROM post_tags pt JOIN tags t ON t.id = pt.tag_id
        WHERE pt.post_id = p.id AND t.slug = @tag_slug::text))
ORDER BY p.created_at DESC, p.id DESC
LIMIT @row_limit::bigint OFFSET @row_offset::bigint;

-- name: CountPosts :one
SELECT count(*) FROM posts p
WHERE (p.status = 'published' OR p.author_id = @viewer::bigint)
  AND p.title ILIKE @pattern::text ESCAPE '\'
  AND (@status::text = '' OR p.status = @status::text)
  AND (@author_id::bigint = 0 OR p.author_id = @author_id::bigint)
  AND (@tag_slug::text = '' OR EXISTS (
        SELECT 1 FROM post_tags pt JOIN tags t ON t.id = pt.tag_id
        WHERE pt.post_id = p.id AND t.slug = @tag_slug::text));

-- ListPostsBefore returns the posts that come after the cursor
-- (@before_created_at, @before_id) in the newest-first order.
-- name: ListPostsBefore :many
SELECT p.* FROM posts p
WHERE (p.status = 'published' OR p.author_id = @viewer::bigint)
  AND p.title ILIKE @pattern::text ESCAPE '\'
  AND (@status::text = '' OR p.status = @status::text)
  AND (@author_id::bigint = 0 OR p.author_id = @author_id::bigint)
  AND (@tag_slug::text = '' OR EXISTS (
        SELECT 1 FROM post_tags pt JOIN tags t ON t.id = pt.tag_id
        WHERE pt.post_id = p.id AND t.slug = @tag_slug::text))
  AND (p.created_at, p.id) < (@before_created_at::timestamptz, @before_id::bigint)
ORDER BY p.created_at DESC, p.id DESC
LIMIT @row_limit::bigint;

-- SetPostTags replaces the post's tags in one statement, so that a missing
-- tag (a foreign-key violation) leaves the old ones in place even outside a
-- transaction. It returns 0 when the post does not exist.
-- name: SetPostTags :one
WITH post AS (
    SELECT id FROM posts WHERE id = @post_id
), removed AS (
    DELETE FROM post_tags
    WHERE post_id = (SELECT id FROM post) AND NOT (tag_id = ANY (@tag_ids::bigint[]))
), added AS (
    INSERT INTO post_tags (post_id, tag_id)
    SELECT DISTINCT post.id, tag_id FROM post, unnest(@tag_ids::bigint[]) AS tag_id
    ON CONFLICT DO NOTHING
)
SELECT count(*) FROM post;
