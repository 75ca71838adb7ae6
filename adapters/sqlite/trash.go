package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// trash implements ports.TrashRepository with the tables of migration
// 0021. Its statements are written by hand: each move is an INSERT …
// SELECT into the other table and a DELETE, run in one transaction
// (conns.atomically), so the live tables' triggers keep their counters as
// they do for any insert or delete.
type trash struct{ c conns }

var _ ports.TrashRepository = trash{}

// trashedPostColumns are the columns of a trashed post, in postFields'
// order and then tag_ids and deleted_at.
const trashedPostColumns = `id, author_id, title, slug, excerpt, body, status,
       image_path, published_at, created_at, updated_at, tag_ids, deleted_at`

const trashedCommentColumns = `id, post_id, user_id, body, created_at, updated_at, deleted_at`

func (r trash) TrashPost(ctx context.Context, id int64, at time.Time) error {
	op := fmt.Sprintf("trash post %d", id)
	return r.c.atomically(ctx, func(c conns) error {
		res, err := c.readDB.ExecContext(ctx, `INSERT INTO trashed_posts (`+trashedPostColumns+`)
SELECT p.id, p.author_id, p.title, p.slug, p.excerpt, p.body, p.status, p.image_path,
       p.published_at, p.created_at, p.updated_at,
       (SELECT json_group_array(tag_id) FROM (SELECT tag_id FROM post_tags WHERE post_id = p.id ORDER BY tag_id)), ?
FROM posts p WHERE p.id = ?`, dbTime(at), id)
		if err := affected(op, res, err); err != nil {
			return err
		}
		if _, err := c.readDB.ExecContext(ctx, `INSERT INTO trashed_comments (`+trashedCommentColumns+`)
SELECT id, post_id, user_id, body, created_at, updated_at, ? FROM comments WHERE post_id = ?`, dbTime(at), id); err != nil {
			return storeError(op, err)
		}
		_, err = c.readDB.ExecContext(ctx, `DELETE FROM posts WHERE id = ?`, id)
		return storeError(op, err)
	})
}

func (r trash) TrashComment(ctx context.Context, id int64, at time.Time) error {
	op := fmt.Sprintf("trash comment %d", id)
	return r.c.atomically(ctx, func(c conns) error {
		res, err := c.readDB.ExecContext(ctx, `INSERT INTO trashed_comments (`+trashedCommentColumns+`)
SELECT id, post_id, user_id, body, created_at, updated_at, ? FROM comments WHERE id = ?`, dbTime(at), id)
		if err := affected(op, res, err); err != nil {
			return err
		}
		_, err = c.readDB.ExecContext(ctx, `DELETE FROM comments WHERE id = ?`, id)
		return storeError(op, err)
	})
}

func (r trash) Post(ctx context.Context, id int64) (ports.TrashedPost, error) {
	posts, err := r.posts(ctx, `WHERE id = ?`, id)
	return sqlrepo.First(border, fmt.Sprintf("trashed post %d", id), posts, err)
}

func (r trash) Comment(ctx context.Context, id int64) (ports.TrashedComment, error) {
	comments, err := r.comments(ctx, `WHERE id = ?`, id)
	return sqlrepo.First(border, fmt.Sprintf("trashed comment %d", id), comments, err)
}

// RestorePost inserts the post first, so that a slug taken meanwhile
// refuses the whole move before anything else is written.
func (r trash) RestorePost(ctx context.Context, id int64, slug string) error {
	op := fmt.Sprintf("restore post %d", id)
	return r.c.atomically(ctx, func(c conns) error {
		res, err := c.readDB.ExecContext(ctx, `INSERT INTO posts (id, author_id, title, slug, excerpt, body, status,
       image_path, published_at, created_at, updated_at)
SELECT id, author_id, title, ?, excerpt, body, status, image_path, published_at, created_at, updated_at
FROM trashed_posts WHERE id = ?`, slug, id)
		if err := affected(op, res, err); err != nil {
			return err
		}
		steps := []string{
			`INSERT INTO post_tags (post_id, tag_id)
SELECT t.id, j.value FROM trashed_posts t, json_each(t.tag_ids) j
WHERE t.id = ?1 AND j.value IN (SELECT id FROM tags)`,
			`INSERT INTO comments (id, post_id, user_id, body, created_at, updated_at)
SELECT c.id, c.post_id, c.user_id, c.body, c.created_at, c.updated_at
FROM trashed_comments c JOIN trashed_posts t ON t.id = c.post_id AND t.deleted_at = c.deleted_at
WHERE t.id = ?1 AND c.user_id IN (SELECT id FROM users)`,
			`DELETE FROM trashed_comments WHERE post_id = ?1
AND deleted_at = (SELECT deleted_at FROM trashed_posts WHERE id = ?1)`,
			`DELETE FROM trashed_posts WHERE id = ?1`,
		}
		for _, s := range steps {
			if _, err := c.readDB.ExecContext(ctx, s, id); err != nil {
				return storeError(op, err)
			}
		}
		return nil
	})
}

func (r trash) SlugTaken(ctx context.Context, slug string) (bool, error) {
	var taken bool
	err := r.c.readDB.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM posts WHERE slug = ?)`, slug).Scan(&taken)
	return taken, storeError("check a slug", err)
}

func (r trash) RestoreComment(ctx context.Context, id int64) error {
	op := fmt.Sprintf("restore comment %d", id)
	return r.c.atomically(ctx, func(c conns) error {
		res, err := c.readDB.ExecContext(ctx, `INSERT INTO comments (id, post_id, user_id, body, created_at, updated_at)
SELECT c.id, c.post_id, c.user_id, c.body, c.created_at, c.updated_at
FROM trashed_comments c WHERE c.id = ? AND EXISTS (SELECT 1 FROM posts p WHERE p.id = c.post_id)`, id)
		if err := affected(op, res, err); err != nil {
			return err
		}
		_, err = c.readDB.ExecContext(ctx, `DELETE FROM trashed_comments WHERE id = ?`, id)
		return storeError(op, err)
	})
}

func (r trash) PurgePost(ctx context.Context, id int64) error {
	op := fmt.Sprintf("purge trashed post %d", id)
	return r.c.atomically(ctx, func(c conns) error {
		res, err := c.readDB.ExecContext(ctx, `DELETE FROM trashed_posts WHERE id = ?`, id)
		if err := affected(op, res, err); err != nil {
			return err
		}
		_, err = c.readDB.ExecContext(ctx, `DELETE FROM trashed_comments WHERE post_id = ?`, id)
		return storeError(op, err)
	})
}

func (r trash) PurgeComment(ctx context.Context, id int64) error {
	res, err := r.writeExec(ctx, `DELETE FROM trashed_comments WHERE id = ?`, id)
	return affected(fmt.Sprintf("purge trashed comment %d", id), res, err)
}

func (r trash) PurgeCommentsOf(ctx context.Context, postID int64) (int64, error) {
	res, err := r.writeExec(ctx, `DELETE FROM trashed_comments WHERE post_id = ?`, postID)
	if err != nil {
		return 0, storeError(fmt.Sprintf("purge trashed comments of post %d", postID), err)
	}
	n, err := res.RowsAffected()
	return n, storeError("purge trashed comments", err)
}

// writeExec runs one writing statement: on the transaction inside one, and
// in an immediate transaction of its own on the writer outside.
func (r trash) writeExec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	var res sql.Result
	err := r.c.atomically(ctx, func(c conns) error {
		var err error
		res, err = c.readDB.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

func (r trash) Posts(ctx context.Context, author int64, page ports.Page) ([]ports.TrashedPost, int, error) {
	where, args := `WHERE 1`, []any{}
	if author != 0 {
		where, args = `WHERE author_id = ?`, []any{author}
	}
	var total int
	if err := r.c.readDB.QueryRowContext(ctx, `SELECT count(*) FROM trashed_posts `+where, args...).Scan(&total); err != nil {
		return nil, 0, storeError("count trashed posts", err)
	}
	lim, off := pageOf(page)
	posts, err := r.posts(ctx, where+` ORDER BY deleted_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, lim, off)...)
	return posts, total, err
}

func (r trash) Comments(ctx context.Context, author int64, page ports.Page) ([]ports.TrashedComment, int, error) {
	where, args := `WHERE 1`, []any{}
	if author != 0 {
		where, args = `WHERE user_id = ?`, []any{author}
	}
	var total int
	if err := r.c.readDB.QueryRowContext(ctx, `SELECT count(*) FROM trashed_comments `+where, args...).Scan(&total); err != nil {
		return nil, 0, storeError("count trashed comments", err)
	}
	lim, off := pageOf(page)
	comments, err := r.comments(ctx, where+` ORDER BY deleted_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, lim, off)...)
	return comments, total, err
}

func (r trash) ExpiredPosts(ctx context.Context, cutoff time.Time, limit int) ([]ports.TrashedPost, error) {
	return r.posts(ctx, `WHERE deleted_at <= ? ORDER BY deleted_at, id LIMIT ?`, dbTime(cutoff), limit)
}

func (r trash) ExpiredComments(ctx context.Context, cutoff time.Time, limit int) ([]ports.TrashedComment, error) {
	return r.comments(ctx, `WHERE deleted_at <= ? ORDER BY deleted_at, id LIMIT ?`, dbTime(cutoff), limit)
}

// PurgeAuthor is the trash's part of an account's deletion.
func (r trash) PurgeAuthor(ctx context.Context, author int64) ([]string, error) {
	op := fmt.Sprintf("purge the trash of user %d", author)
	var paths []string
	err := r.c.atomically(ctx, func(c conns) error {
		rows, err := c.readDB.QueryContext(ctx, `SELECT image_path FROM trashed_posts
WHERE author_id = ? AND image_path <> '' ORDER BY id`, author)
		if err != nil {
			return storeError(op, err)
		}
		defer rows.Close()
		for rows.Next() {
			var p string
			if err := rows.Scan(&p); err != nil {
				return storeError(op, err)
			}
			paths = append(paths, p)
		}
		if err := rows.Err(); err != nil {
			return storeError(op, err)
		}
		for _, s := range []string{
			`DELETE FROM trashed_comments WHERE post_id IN
  (SELECT id FROM posts WHERE author_id = ?1 UNION ALL SELECT id FROM trashed_posts WHERE author_id = ?1)`,
			`DELETE FROM trashed_posts WHERE author_id = ?1`,
		} {
			if _, err := c.readDB.ExecContext(ctx, s, author); err != nil {
				return storeError(op, err)
			}
		}
		return nil
	})
	return paths, err
}

func (r trash) posts(ctx context.Context, tail string, args ...any) ([]ports.TrashedPost, error) {
	rows, err := r.c.readDB.QueryContext(ctx, `SELECT `+trashedPostColumns+` FROM trashed_posts `+tail, args...)
	if err != nil {
		return nil, storeError("read trashed posts", err)
	}
	defer rows.Close()
	var p db.Post
	var tagIDs string
	var deleted int64
	list, err := sqlrepo.Scan(rows, append(postFields(&p), &tagIDs, &deleted), func() (ports.TrashedPost, error) {
		t := ports.TrashedPost{Post: postOf(p), TagIDs: []int64{}, DeletedAt: timeOf(deleted)}
		if err := json.NewDecoder(strings.NewReader(tagIDs)).Decode(&t.TagIDs); err != nil {
			return t, fmt.Errorf("tag ids of trashed post %d: %w", p.ID, err)
		}
		return t, nil
	})
	return list, storeError("read trashed posts", err)
}

func (r trash) comments(ctx context.Context, tail string, args ...any) ([]ports.TrashedComment, error) {
	rows, err := r.c.readDB.QueryContext(ctx, `SELECT `+trashedCommentColumns+` FROM trashed_comments `+tail, args...)
	if err != nil {
		return nil, storeError("read trashed comments", err)
	}
	defer rows.Close()
	var c db.Comment
	var deleted int64
	list, err := sqlrepo.Scan(rows, []any{&c.ID, &c.PostID, &c.UserID, &c.Body, &c.CreatedAt, &c.UpdatedAt, &deleted}, func() (ports.TrashedComment, error) {
		return ports.TrashedComment{Comment: commentOf(c), DeletedAt: timeOf(deleted)}, nil
	})
	return list, storeError("read trashed comments", err)
}

// affected turns a statement that changed no row into domain.ErrNotFound.
func affected(op string, res sql.Result, err error) error {
	if err != nil {
		return storeError(op, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}
