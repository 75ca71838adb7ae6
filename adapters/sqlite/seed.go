package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/inkwell/inkwell/demo"
	"github.com/inkwell/inkwell/domain"
)

var _ demo.Seeder = (*Store)(nil)

// seedBatch is about how many rows one seeding transaction writes. Batches
// let a server on the same file write between them, which one transaction
// of millions of rows would hold off for minutes, and keep the WAL small.
// But every commit writes each page it changed to the WAL, and the slug and
// comment indexes take their keys in random order, so a batch changes about
// as many index pages as it has rows: larger batches write each page fewer
// times (10,000 rows spent twice the system time of 100,000 in a
// measurement here).
const seedBatch = 20000

// seedCacheKiB is the page cache of the writer connection while seeding
// (SQLite's default is 2 MiB). The slug, author and comment indexes take
// their rows in random key order, and once they outgrow the cache each insert
// reads pages back from the file: with the default, loading 300,000 posts
// and 900,000 comments spent three times the system time it does with
// 256 MiB. A cache of 1 GiB did no better for three times as many rows.
const seedCacheKiB = 256 << 10

const (
	seedUser = `INSERT INTO users (name, email, email_key, password_hash, email_verified_at, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?)`
	seedTag  = `INSERT INTO tags (name, name_key, slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`
	seedPost = `INSERT INTO posts (author_id, title, slug, excerpt, body, status, published_at, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
	seedPostTag = `INSERT INTO post_tags (post_id, tag_id) VALUES (?, ?)`
	seedComment = `INSERT INTO comments (post_id, user_id, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`
)

// Seed implements demo.Seeder with prepared INSERTs in transactions of
// about seedBatch rows on the writer connection. It holds that connection for
// the whole load, so this store's other writes wait; other processes on the
// file, such as a running server, write between the batches. The ids are
// SQLite's own, read back per row, so the AUTOINCREMENT counters stay right. Rows are generated on other processors while this
// one writes. The tables are not analyzed afterwards: the service never
// analyzes them, and statistics would give benchmarks other plans than a
// real database gets.
func (s *Store) Seed(ctx context.Context, plan demo.Plan, progress func(done, total int)) error {
	if err := plan.Validate(); err != nil {
		return err
	}
	conn, err := s.writer.Conn(ctx)
	if err != nil {
		return storeError("seed: take the writer", err)
	}
	defer conn.Close()

	var held bool
	err = conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM tags)
		OR EXISTS (SELECT 1 FROM posts) OR EXISTS (SELECT 1 FROM comments)`).Scan(&held)
	if err != nil {
		return storeError("seed: check for data", err)
	}
	if held {
		return demo.ErrNotEmpty
	}
	var cache int64
	if err := conn.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cache); err != nil {
		return storeError("seed: read cache size", err)
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = -%d", seedCacheKiB)); err != nil {
		return storeError("seed: grow cache", err)
	}
	// The connection goes back to the pool for the store's other writes,
	// with the cache it had.
	defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf("PRAGMA cache_size = %d", cache))

	l := seedLoad{conn: conn, total: plan.Rows(), progress: progress}
	userIDs := make([]int64, plan.Users)
	users := demo.NewStream(plan.Users, plan.User)
	defer users.Close()
	err = l.batches(ctx, "users", plan.Users, []string{seedUser}, func(st []*sql.Stmt, i int) (int, error) {
		u, _ := users.Next()
		res, err := st[0].ExecContext(ctx, u.Name, u.Email, domain.EmailKey(u.Email), u.PasswordHash,
			dbTime(u.EmailVerifiedAt), dbTime(u.CreatedAt), dbTime(u.UpdatedAt))
		if err != nil {
			return 0, err
		}
		userIDs[i], err = res.LastInsertId()
		return 1, err
	})
	if err != nil {
		return err
	}

	tagIDs := make([]int64, plan.Tags)
	tags := demo.NewStream(plan.Tags, plan.Tag)
	defer tags.Close()
	err = l.batches(ctx, "tags", plan.Tags, []string{seedTag}, func(st []*sql.Stmt, i int) (int, error) {
		t, _ := tags.Next()
		at := dbTime(t.CreatedAt)
		res, err := st[0].ExecContext(ctx, t.Name, strings.ToLower(t.Name), t.Slug, at, at)
		if err != nil {
			return 0, err
		}
		tagIDs[i], err = res.LastInsertId()
		return 1, err
	})
	if err != nil {
		return err
	}

	postIDs := make([]int64, plan.Posts)
	posts := demo.NewStream(plan.Posts, plan.Post)
	defer posts.Close()
	err = l.batches(ctx, "posts", plan.Posts, []string{seedPost, seedPostTag}, func(st []*sql.Stmt, i int) (int, error) {
		p, _ := posts.Next()
		res, err := st[0].ExecContext(ctx, userIDs[p.Author], p.Title, p.Slug, p.Excerpt, p.Body, string(p.Status),
			nullTime(p.PublishedAt), dbTime(p.CreatedAt), dbTime(p.UpdatedAt))
		if err != nil {
			return 0, err
		}
		if postIDs[i], err = res.LastInsertId(); err != nil {
			return 0, err
		}
		for _, t := range p.Tags {
			if _, err := st[1].ExecContext(ctx, postIDs[i], tagIDs[t]); err != nil {
				return 0, err
			}
		}
		return 1 + len(p.Tags), nil
	})
	if err != nil {
		return err
	}

	comments := demo.NewStream(plan.Comments, plan.Comment)
	defer comments.Close()
	err = l.batches(ctx, "comments", plan.Comments, []string{seedComment}, func(st []*sql.Stmt, i int) (int, error) {
		c, _ := comments.Next()
		at := dbTime(c.CreatedAt)
		_, err := st[0].ExecContext(ctx, postIDs[c.Post], userIDs[c.User], c.Body, at, dbTime(c.UpdatedAt))
		return 1, err
	})
	if err != nil {
		return err
	}
	if l.total == 0 && progress != nil {
		progress(0, 0)
	}
	return nil
}

// seedLoad is one seeding's connection and its count of rows written.
type seedLoad struct {
	conn     *sql.Conn
	done     int
	total    int
	progress func(done, total int)
}

// batches calls write for items 0..n-1, in immediate transactions that
// commit once seedBatch rows are written, with queries prepared in each
// transaction and handed to write in order. write returns how many rows
// it wrote.
func (l *seedLoad) batches(ctx context.Context, what string, n int, queries []string,
	write func(stmts []*sql.Stmt, i int) (int, error)) error {
	for i := 0; i < n; {
		if err := l.batch(ctx, queries, func(stmts []*sql.Stmt) error {
			for rows := 0; i < n && rows < seedBatch; i++ {
				k, err := write(stmts, i)
				if err != nil {
					return fmt.Errorf("row %d: %w", i+1, err)
				}
				rows += k
				l.done += k
			}
			return nil
		}); err != nil {
			return storeError("seed "+what, err)
		}
		if l.progress != nil {
			l.progress(l.done, l.total)
		}
	}
	return nil
}

func (l *seedLoad) batch(ctx context.Context, queries []string, fn func([]*sql.Stmt) error) error {
	tx, err := l.conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() // after a commit, a no-op
	stmts := make([]*sql.Stmt, len(queries))
	for k, q := range queries {
		if stmts[k], err = tx.PrepareContext(ctx, q); err != nil {
			return err
		}
		defer stmts[k].Close()
	}
	if err := fn(stmts); err != nil {
		return err
	}
	return tx.Commit()
}
