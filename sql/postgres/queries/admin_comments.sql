-- The console's list of comments of every post, newest first (id
-- descending) or, in the statements named Oldest, oldest first (id
-- ascending), each with its author's e-mail and its post's title.
--
-- Each page first picks its ids alone, so that the rows OFFSET skips are
-- never joined: without a filter from the primary key, backwards or
-- forwards; by author from comments_user_id_id (0018), in id order either
-- way; by posts (one post's id, or the posts whose title matched, at most
-- app.AdminCommentTitlePosts of them) from comments_post_id, sorting those
-- posts' comments (its order within a post is created_at, id). Every
-- comment has its post and its user (the foreign keys cascade), so the
-- joins keep them all.
--
-- The counts stop at @lim rows, however many match: the caller asks for one
-- more than it will show (see app.AdminListCounted).

-- name: AdminListComments :many
SELECT sqlc.embed(c), u.email AS author_email, p.title AS post_title
FROM comments c
JOIN users u ON u.id = c.user_id
JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k ORDER BY k.id DESC LIMIT @lim::bigint OFFSET @off::bigint)
ORDER BY c.id DESC;

-- name: AdminListCommentsOldest :many
SELECT sqlc.embed(c), u.email AS author_email, p.title AS post_title
FROM comments c
JOIN users u ON u.id = c.user_id
JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k ORDER BY k.id LIMIT @lim::bigint OFFSET @off::bigint)
ORDER BY c.id;

-- name: AdminListUserComments :many
SELECT sqlc.embed(c), u.email AS author_email, p.title AS post_title
FROM comments c
JOIN users u ON u.id = c.user_id
JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k WHERE k.user_id = @user_id ORDER BY k.id DESC LIMIT @lim::bigint OFFSET @off::bigint)
ORDER BY c.id DESC;

-- name: AdminListUserCommentsOldest :many
SELECT sqlc.embed(c), u.email AS author_email, p.title AS post_title
FROM comments c
JOIN users u ON u.id = c.user_id
JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k WHERE k.user_id = @user_id ORDER BY k.id LIMIT @lim::bigint OFFSET @off::bigint)
ORDER BY c.id;

-- name: AdminListPostComments :many
SELECT sqlc.embed(c), u.email AS author_email, p.title AS post_title
FROM comments c
JOIN users u ON u.id = c.user_id
JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k WHERE k.post_id = ANY(@post_ids::bigint[]) ORDER BY k.id DESC LIMIT @lim::bigint OFFSET @off::bigint)
ORDER BY c.id DESC;

-- name: AdminListPostCommentsOldest :many
SELECT sqlc.embed(c), u.email AS author_email, p.title AS post_title
FROM comments c
JOIN users u ON u.id = c.user_id
JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k WHERE k.post_id = ANY(@post_ids::bigint[]) ORDER BY k.id LIMIT @lim::bigint OFFSET @off::bigint)
ORDER BY c.id;

-- name: AdminListPostUserComments :many
SELECT sqlc.embed(c), u.email AS author_email, p.title AS post_title
FROM comments c
JOIN users u ON u.id = c.user_id
JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k WHERE k.post_id = ANY(@post_ids::bigint[]) AND k.user_id = @user_id ORDER BY k.id DESC LIMIT @lim::bigint OFFSET @off::bigint)
ORDER BY c.id DESC;

-- name: AdminListPostUserCommentsOldest :many
SELECT sqlc.embed(c), u.email AS author_email, p.title AS post_title
FROM comments c
JOIN users u ON u.id = c.user_id
JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k WHERE k.post_id = ANY(@post_ids::bigint[]) AND k.user_id = @user_id ORDER BY k.id LIMIT @lim::bigint OFFSET @off::bigint)
ORDER BY c.id;

-- name: AdminCountComments :one
SELECT count(*) FROM (SELECT 1 FROM comments LIMIT @lim::bigint) AS m;

-- name: AdminCountUserComments :one
SELECT count(*) FROM (SELECT 1 FROM comments WHERE user_id = @user_id LIMIT @lim::bigint) AS m;

-- name: AdminCountPostComments :one
SELECT count(*) FROM (SELECT 1 FROM comments WHERE post_id = ANY(@post_ids::bigint[]) LIMIT @lim::bigint) AS m;

-- name: AdminCountPostUserComments :one
SELECT count(*) FROM (SELECT 1 FROM comments WHERE post_id = ANY(@post_ids::bigint[]) AND user_id = @user_id LIMIT @lim::bigint) AS m;
