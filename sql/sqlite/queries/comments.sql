-- name: CreateComment :one
INSERT INTO comments (post_id, user_id, body, created_at, updated_at)
VALUES (@post_id, @user_id, @body, @created_at, @updated_at)
RETURNING id;

-- name: GetComment :one
SELECT * FROM comments WHERE id = @id;

-- name: UpdateComment :execrows
UPDATE comments SET body = @body, updated_at = @updated_at WHERE id = @id;

-- name: DeleteComment :execrows
DELETE FROM comments WHERE id = @id;

-- ListCommentsByPost returns one page of the post's comments, oldest first,
-- each with its author, and how many the post has, read by the same
-- statement and so from the same snapshot. The count is a subquery that does
-- not depend on the row, so SQLite runs it once, and the page itself walks
-- comments_post_id in order; count(*) OVER () would have read and sorted
-- every comment of the post. Every comment has its user (the foreign key
-- cascades), so the join keeps them all. A page past the end has no row to
-- carry the count; CountCommentsByPost answers then.
-- name: ListCommentsByPost :many
SELECT sqlc.embed(c), u.name AS author_name, u.avatar_path AS author_avatar_path,
       (SELECT count(*) FROM comments AS x WHERE x.post_id = @post_id) AS total
FROM comments c
JOIN users u ON u.id = c.user_id
WHERE c.post_id = @post_id
ORDER BY c.created_at, c.id
LIMIT @row_limit OFFSET @row_offset;

-- name: CountCommentsByPost :one
SELECT count(*) FROM comments WHERE post_id = @post_id;
