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

-- LockSlug holds @base until the transaction ends (a statement, outside
-- one), so that creators of one slug take turns. It must be a statement of
-- its own, before LastSlugSuffix: a READ COMMITTED statement reads the
-- snapshot taken when it started, so a query that waited for the lock within
-- itself would still miss the post its predecessor committed meanwhile.
-- Colliding hashes only make unrelated creators wait for each other.
-- name: LockSlug :exec
SELECT pg_advisory_xact_lock(hashtextextended(@base::text, 0));

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

-- ImagePathsByAuthor lists the stored images of an author's posts, which
-- deleting the author orphans; posts_author_id finds the posts.
-- name: ImagePathsByAuthor :many
SELECT image_path FROM posts
WHERE author_id = @author_id AND image_path <> ''
ORDER BY id;

-- CreatePostTagged stores a post and links its tags in one statement, which
-- outside a transaction commits on its own: one round trip where a
-- transaction of the tags' check, the post and the links took five. The
-- post is inserted only when every wanted tag exists; then it returns a row
-- per tag (one with no tag when there are none), and otherwise no row. A
-- tag deleted meanwhile fails the links' foreign key, and the statement
-- with it.
-- name: CreatePostTagged :many
WITH wanted AS (
    SELECT DISTINCT unnest(@tag_ids::bigint[]) AS id
), found AS (
    SELECT t.* FROM tags t WHERE t.id IN (SELECT id FROM wanted)
), post AS (
    INSERT INTO posts (
        author_id, title, slug, excerpt, body, status, image_path, published_at, created_at, updated_at
    )
    SELECT @author_id, @title, @slug, @excerpt, @body, @status, @image_path, @published_at, @created_at, @updated_at
    WHERE (SELECT count(*) FROM found) = (SELECT count(*) FROM wanted)
    RETURNING id
), links AS (
    INSERT INTO post_tags (post_id, tag_id)
    SELECT post.id, found.id FROM post, found
)
SELECT post.id AS post_id, found.id AS tag_id, found.name, found.name_key, found.slug,
       found.created_at, found.updated_at
FROM post
LEFT JOIN found ON true;
