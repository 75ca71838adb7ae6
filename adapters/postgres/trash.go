package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// trash implements ports.TrashRepository with the tables of migration
// 0021. Each move is one statement whose data-modifying WITH clauses read
// one snapshot (the comments and tag links as they were before the post
// left) and whose foreign keys are checked at its end, so it is atomic
// outside a transaction too, and the live tables' triggers keep their
// counters as they do for any insert or delete.
type trash struct{ conn db.DBTX }

var _ ports.TrashRepository = trash{}

const trashedPostColumns = `id, author_id, title, slug, excerpt, body, status,
       image_path, published_at, created_at, updated_at, tag_ids, deleted_at`

const trashedCommentColumns = `id, post_id, user_id, body, created_at, updated_at, deleted_at`

func (r trash) TrashPost(ctx context.Context, id int64, at time.Time) error {
	return r.one(ctx, fmt.Sprintf("trash post %d", id), `WITH moved AS (
  DELETE FROM posts WHERE id = $1
  RETURNING id, author_id, title, slug, excerpt, body, status, image_path, published_at, created_at, updated_at
), comments_moved AS (
  INSERT INTO trashed_comments (`+trashedCommentColumns+`)
  SELECT c.id, c.post_id, c.user_id, c.body, c.created_at, c.updated_at, $2
  FROM comments c WHERE c.post_id IN (SELECT id FROM moved)
), kept AS (
  INSERT INTO trashed_posts (`+trashedPostColumns+`)
  SELECT m.*, ARRAY(SELECT tag_id FROM post_tags WHERE post_id = m.id ORDER BY tag_id), $2 FROM moved m
  RETURNING id
)
SELECT count(*) FROM kept`, id, dbTime(at))
}

func (r trash) TrashComment(ctx context.Context, id int64, at time.Time) error {
	return r.one(ctx, fmt.Sprintf("trash comment %d", id), `WITH moved AS (
  DELETE FROM comments WHERE id = $1 RETURNING id, post_id, user_id, body, created_at, updated_at
), kept AS (
  INSERT INTO trashed_comments (`+trashedCommentColumns+`) SELECT m.*, $2 FROM moved m RETURNING id
)
SELECT count(*) FROM kept`, id, dbTime(at))
}

// Post holds the trashed post (FOR UPDATE) until the transaction ends.
func (r trash) Post(ctx context.Context, id int64) (ports.TrashedPost, error) {
	posts, err := r.posts(ctx, `WHERE id = $1 FOR UPDATE`, id)
	return sqlrepo.First(border, fmt.Sprintf("trashed post %d", id), posts, err)
}

func (r trash) Comment(ctx context.Context, id int64) (ports.TrashedComment, error) {
	comments, err := r.comments(ctx, `WHERE id = $1 FOR UPDATE`, id)
	return sqlrepo.First(border, fmt.Sprintf("trashed comment %d", id), comments, err)
}

// RestorePost links the tags that still exist and brings back the
// comments stamped as the post whose authors still exist; the foreign keys
// of those links see the post the same statement inserts.
func (r trash) RestorePost(ctx context.Context, id int64, slug string) error {
	return r.one(ctx, fmt.Sprintf("restore post %d", id), `WITH t AS (
  DELETE FROM trashed_posts WHERE id = $1 RETURNING *
), p AS (
  INSERT INTO posts (id, author_id, title, slug, excerpt, body, status, image_path, published_at, created_at, updated_at)
  SELECT id, author_id, title, $2, excerpt, body, status, image_path, published_at, created_at, updated_at FROM t
  RETURNING id
), tagged AS (
  INSERT INTO post_tags (post_id, tag_id)
  SELECT p.id, g.id FROM p, t, tags g WHERE g.id = ANY (t.tag_ids)
), c AS (
  DELETE FROM trashed_comments x USING t WHERE x.post_id = t.id AND x.deleted_at = t.deleted_at
  RETURNING x.id, x.post_id, x.user_id, x.body, x.created_at, x.updated_at
), back AS (
  INSERT INTO comments (id, post_id, user_id, body, created_at, updated_at)
  SELECT c.* FROM c WHERE c.user_id IN (SELECT id FROM users)
)
SELECT count(*) FROM p`, id, slug)
}

func (r trash) SlugTaken(ctx context.Context, slug string) (bool, error) {
	var taken bool
	err := r.conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM posts WHERE slug = $1)`, slug).Scan(&taken)
	return taken, storeError("check a slug", err)
}

func (r trash) RestoreComment(ctx context.Context, id int64) error {
	return r.one(ctx, fmt.Sprintf("restore comment %d", id), `WITH c AS (
  DELETE FROM trashed_comments x WHERE x.id = $1 AND EXISTS (SELECT 1 FROM posts p WHERE p.id = x.post_id)
  RETURNING x.id, x.post_id, x.user_id, x.body, x.created_at, x.updated_at
), back AS (
  INSERT INTO comments (id, post_id, user_id, body, created_at, updated_at) SELECT c.* FROM c RETURNING id
)
SELECT count(*) FROM back`, id)
}

func (r trash) PurgePost(ctx context.Context, id int64) error {
	return r.one(ctx, fmt.Sprintf("purge trashed post %d", id), `WITH d AS (
  DELETE FROM trashed_posts WHERE id = $1 RETURNING id
), c AS (
  DELETE FROM trashed_comments WHERE post_id IN (SELECT id FROM d)
)
SELECT count(*) FROM d`, id)
}

func (r trash) PurgeComment(ctx context.Context, id int64) error {
	tag, err := r.conn.Exec(ctx, `DELETE FROM trashed_comments WHERE id = $1`, id)
	op := fmt.Sprintf("purge trashed comment %d", id)
	if err != nil {
		return storeError(op, err)
	}
	if tag.RowsAffected() == 0 {
		return notFound(op)
	}
	return nil
}

func (r trash) PurgeCommentsOf(ctx context.Context, postID int64) (int64, error) {
	tag, err := r.conn.Exec(ctx, `DELETE FROM trashed_comments WHERE post_id = $1`, postID)
	if err != nil {
		return 0, storeError(fmt.Sprintf("purge trashed comments of post %d", postID), err)
	}
	return tag.RowsAffected(), nil
}

func (r trash) PurgeAuthor(ctx context.Context, author int64) ([]string, error) {
	op := fmt.Sprintf("purge the trash of user %d", author)
	rows, err := r.conn.Query(ctx, `WITH d AS (
  DELETE FROM trashed_posts WHERE author_id = $1 RETURNING id, image_path
), c AS (
  DELETE FROM trashed_comments
  WHERE post_id IN (SELECT id FROM d UNION ALL SELECT id FROM posts WHERE author_id = $1)
)
SELECT image_path FROM d WHERE image_path <> '' ORDER BY id`, author)
	if err != nil {
		return nil, storeError(op, err)
	}
	defer rows.Close()
	var paths []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, storeError(op, err)
		}
		paths = append(paths, p)
	}
	return paths, storeError(op, rows.Err())
}

func (r trash) Posts(ctx context.Context, author int64, page ports.Page) ([]ports.TrashedPost, int, error) {
	lim, off := pageOf(page)
	var total int
	if err := r.conn.QueryRow(ctx, `SELECT count(*) FROM trashed_posts WHERE $1::bigint = 0 OR author_id = $1`, author).Scan(&total); err != nil {
		return nil, 0, storeError("count trashed posts", err)
	}
	posts, err := r.posts(ctx, `WHERE $1::bigint = 0 OR author_id = $1 ORDER BY deleted_at DESC, id DESC LIMIT $2 OFFSET $3`, author, lim, off)
	return posts, total, err
}

func (r trash) Comments(ctx context.Context, author int64, page ports.Page) ([]ports.TrashedComment, int, error) {
	lim, off := pageOf(page)
	var total int
	if err := r.conn.QueryRow(ctx, `SELECT count(*) FROM trashed_comments WHERE $1::bigint = 0 OR user_id = $1`, author).Scan(&total); err != nil {
		return nil, 0, storeError("count trashed comments", err)
	}
	comments, err := r.comments(ctx, `WHERE $1::bigint = 0 OR user_id = $1 ORDER BY deleted_at DESC, id DESC LIMIT $2 OFFSET $3`, author, lim, off)
	return comments, total, err
}

func (r trash) ExpiredPosts(ctx context.Context, cutoff time.Time, limit int) ([]ports.TrashedPost, error) {
	return r.posts(ctx, `WHERE deleted_at <= $1 ORDER BY deleted_at, id LIMIT $2`, dbTime(cutoff), limit)
}

func (r trash) ExpiredComments(ctx context.Context, cutoff time.Time, limit int) ([]ports.TrashedComment, error) {
	return r.comments(ctx, `WHERE deleted_at <= $1 ORDER BY deleted_at, id LIMIT $2`, dbTime(cutoff), limit)
}

// one runs a statement that answers with the number of rows it moved;
// none is domain.ErrNotFound.
func (r trash) one(ctx context.Context, op, query string, args ...any) error {
	var n int64
	if err := r.conn.QueryRow(ctx, query, args...).Scan(&n); err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func (r trash) posts(ctx context.Context, tail string, args ...any) ([]ports.TrashedPost, error) {
	rows, err := r.conn.Query(ctx, `SELECT `+trashedPostColumns+` FROM trashed_posts `+tail, args...)
	if err != nil {
		return nil, storeError("read trashed posts", err)
	}
	defer rows.Close()
	var p db.Post
	var tagIDs []int64
	var deleted pgtype.Timestamptz
	list, err := sqlrepo.Scan(rows, append(postFields(&p), &tagIDs, &deleted), func() (ports.TrashedPost, error) {
		if tagIDs == nil {
			tagIDs = []int64{}
		}
		return ports.TrashedPost{Post: postOf(p), TagIDs: tagIDs, DeletedAt: timeOf(deleted)}, nil
	})
	return list, storeError("read trashed posts", err)
}

func (r trash) comments(ctx context.Context, tail string, args ...any) ([]ports.TrashedComment, error) {
	rows, err := r.conn.Query(ctx, `SELECT `+trashedCommentColumns+` FROM trashed_comments `+tail, args...)
	if err != nil {
		return nil, storeError("read trashed comments", err)
	}
	defer rows.Close()
	var c db.Comment
	var deleted pgtype.Timestamptz
	list, err := sqlrepo.Scan(rows, []any{&c.ID, &c.PostID, &c.UserID, &c.Body, &c.CreatedAt, &c.UpdatedAt, &deleted}, func() (ports.TrashedComment, error) {
		return ports.TrashedComment{Comment: commentOf(c), DeletedAt: timeOf(deleted)}, nil
	})
	return list, storeError("read trashed comments", err)
}
