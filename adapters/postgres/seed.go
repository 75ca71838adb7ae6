package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/inkwell/inkwell/demo"
	"github.com/inkwell/inkwell/domain"
)

var _ demo.Seeder = (*Store)(nil)

// seedTables are the tables Seed writes. It locks them all, users and tags
// included, because dropping a foreign key locks the table it refers to.
var seedTables = []string{"users", "tags", "posts", "post_tags", "comments"}

// seedRebuilt are the tables that take millions of rows: their foreign keys
// and secondary indexes are dropped for the load and built again at its end,
// as pgbench's initialisation does. Checking a foreign key row by row costs
// a lookup and a row lock in the parent for every row, and inserting into a
// B-tree in random key order (slugs, authors, post ids of comments) or into
// the trigram index one title at a time costs far more than one sorted build.
var seedRebuilt = []string{"posts", "post_tags", "comments"}

// seedReport is how many rows a COPY sends between two progress reports.
const seedReport = 10000

// Seed implements demo.Seeder in one transaction, so that it either writes
// every row or none:
//
//   - it locks the tables (ACCESS EXCLUSIVE) and returns demo.ErrNotEmpty if
//     users, tags, posts or comments hold rows; from then on nobody else can
//     read or write them, so only a fresh database waits on the load;
//   - it saves the definitions of the foreign keys and secondary indexes of
//     posts, post_tags and comments from the catalog and drops them (the
//     primary keys stay);
//   - it takes the ids of users, tags and posts from their sequences with
//     nextval, so whatever the sequences handed out before (rows since
//     deleted, other sessions' calls) is never reused, and sends every table
//     by COPY; comments take their ids from the column default;
//   - it builds the indexes and foreign keys again from the saved
//     definitions, which checks every reference and uniqueness rule at once,
//     and analyzes the tables so that the planner knows their new sizes;
//   - it commits. Any failure before rolls all of it back, drops included;
//   - it vacuums the tables, as pgbench's initialisation does.
func (s *Store) Seed(ctx context.Context, plan demo.Plan, progress func(done, total int)) error {
	if err := plan.Validate(); err != nil {
		return err
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return storeError("seed: begin", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }() // after a commit, a no-op

	l := seedLoad{tx: tx, total: plan.Rows(), progress: progress}
	if err := l.prepare(ctx); err != nil {
		return err
	}
	rebuild, err := l.dropForLoad(ctx)
	if err != nil {
		return err
	}

	userIDs, err := l.reserveIDs(ctx, "users", plan.Users)
	if err != nil {
		return err
	}
	err = copyStream(ctx, &l, "users",
		[]string{"id", "name", "email", "email_key", "password_hash", "email_verified_at", "created_at", "updated_at"},
		plan.Users, plan.User, func(i int, u demo.User) []any {
			return []any{userIDs[i], u.Name, u.Email, domain.EmailKey(u.Email), u.PasswordHash, u.EmailVerifiedAt, u.CreatedAt, u.UpdatedAt}
		})
	if err != nil {
		return err
	}

	tagIDs, err := l.reserveIDs(ctx, "tags", plan.Tags)
	if err != nil {
		return err
	}
	err = copyStream(ctx, &l, "tags", []string{"id", "name", "name_key", "slug", "created_at", "updated_at"},
		plan.Tags, plan.Tag, func(i int, t demo.Tag) []any {
			return []any{tagIDs[i], t.Name, strings.ToLower(t.Name), t.Slug, t.CreatedAt, t.CreatedAt}
		})
	if err != nil {
		return err
	}

	postIDs, err := l.reserveIDs(ctx, "posts", plan.Posts)
	if err != nil {
		return err
	}
	// The links wait in memory for the posts' COPY to end: two ids per link,
	// tens of megabytes for millions of links.
	var links [][2]int64
	err = copyStream(ctx, &l, "posts",
		[]string{"id", "author_id", "title", "slug", "excerpt", "body", "status", "published_at", "created_at", "updated_at"},
		plan.Posts, plan.Post, func(i int, p demo.Post) []any {
			for _, t := range p.Tags {
				links = append(links, [2]int64{postIDs[i], tagIDs[t]})
			}
			return []any{postIDs[i], userIDs[p.Author], p.Title, p.Slug, p.Excerpt, p.Body, string(p.Status), p.PublishedAt, p.CreatedAt, p.UpdatedAt}
		})
	if err != nil {
		return err
	}
	err = copyStream(ctx, &l, "post_tags", []string{"post_id", "tag_id"},
		len(links), func(i int) [2]int64 { return links[i] }, func(_ int, link [2]int64) []any {
			return []any{link[0], link[1]}
		})
	if err != nil {
		return err
	}
	links = nil

	err = copyStream(ctx, &l, "comments", []string{"post_id", "user_id", "body", "created_at", "updated_at"},
		plan.Comments, plan.Comment, func(_ int, c demo.Comment) []any {
			return []any{postIDs[c.Post], userIDs[c.User], c.Body, c.CreatedAt, c.UpdatedAt}
		})
	if err != nil {
		return err
	}
	if progress != nil && l.total == 0 {
		progress(0, 0)
	}

	for _, stmt := range rebuild {
		if _, err := tx.Exec(ctx, stmt); err != nil {
			return storeError("seed: rebuild: "+stmt, err)
		}
	}
	// ANALYZE counts the rows its own transaction wrote, so the statistics
	// commit together with them.
	if _, err := tx.Exec(ctx, "ANALYZE "+strings.Join(seedTables, ", ")); err != nil {
		return storeError("seed: analyze", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return storeError("seed: commit", err)
	}
	// VACUUM cannot run in a transaction. It sets the hint bits and the
	// visibility map of every page now, for a second or two, instead of the
	// first benchmark's reads and an autovacuum run in the middle of it.
	if _, err := s.pool.Exec(ctx, "VACUUM "+strings.Join(seedTables, ", ")); err != nil {
		return storeError("seed: the rows are committed, but vacuum failed", err)
	}
	return nil
}

// seedLoad is one seeding's transaction and its count of rows sent.
type seedLoad struct {
	tx       pgx.Tx
	done     int
	total    int
	progress func(done, total int)
}

func (l *seedLoad) report(n int) {
	l.done += n
	if l.progress != nil {
		l.progress(l.done, l.total)
	}
}

// seedLockTimeout bounds the wait for the tables' locks. A lock request
// that waits holds up every later reader of the table behind it, so a
// server busy with the tables would stall while the seed waits; failing soon
// is kinder.
const seedLockTimeout = "10s"

// prepare locks the tables and refuses them when they hold content.
func (l *seedLoad) prepare(ctx context.Context) error {
	if _, err := l.tx.Exec(ctx, "SELECT set_config('lock_timeout', $1, true)", seedLockTimeout); err != nil {
		return storeError("seed: set lock_timeout", err)
	}
	if _, err := l.tx.Exec(ctx, "LOCK TABLE "+strings.Join(seedTables, ", ")+" IN ACCESS EXCLUSIVE MODE"); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "55P03" {
			return fmt.Errorf("seed: the tables stayed in use for %s (is a server running on this database?): %w", seedLockTimeout, err)
		}
		return storeError("seed: lock tables", err)
	}
	var held bool
	err := l.tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM tags)
		OR EXISTS (SELECT 1 FROM posts) OR EXISTS (SELECT 1 FROM comments)`).Scan(&held)
	if err != nil {
		return storeError("seed: check for data", err)
	}
	if held {
		return demo.ErrNotEmpty
	}
	return nil
}

// dropForLoad drops the foreign keys and the secondary indexes of
// seedRebuilt and returns the statements that make them again: indexes
// first, so that the foreign keys are checked against a complete schema.
// The definitions come from the catalog, so they are exactly what the
// migrations made, whatever they become. Indexes that a constraint relies on
// (primary keys, and any unique index a foreign key refers to) stay.
func (l *seedLoad) dropForLoad(ctx context.Context) ([]string, error) {
	const catalog = `
SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', conrelid::regclass, conname),
       format('ALTER TABLE %s ADD CONSTRAINT %I %s', conrelid::regclass, conname, pg_get_constraintdef(oid)),
       2
FROM pg_constraint
WHERE contype = 'f' AND conrelid = ANY ($1::regclass[])
UNION ALL
SELECT format('DROP INDEX %s', i.indexrelid::regclass), pg_get_indexdef(i.indexrelid), 1
FROM pg_index i
WHERE i.indrelid = ANY ($1::regclass[])
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
ORDER BY 3, 2`
	rows, err := l.tx.Query(ctx, catalog, seedRebuilt)
	if err != nil {
		return nil, storeError("seed: read indexes and foreign keys", err)
	}
	type change struct{ drop, create string }
	var changes []change
	var c change
	var order int
	_, err = pgx.ForEachRow(rows, []any{&c.drop, &c.create, &order}, func() error {
		changes = append(changes, c)
		return nil
	})
	if err != nil {
		return nil, storeError("seed: read indexes and foreign keys", err)
	}
	// Foreign keys go first: an index may not go while a constraint needs it.
	rebuild := make([]string, len(changes))
	for i := len(changes) - 1; i >= 0; i-- {
		if _, err := l.tx.Exec(ctx, changes[i].drop); err != nil {
			return nil, storeError("seed: "+changes[i].drop, err)
		}
		rebuild[i] = changes[i].create
	}
	return rebuild, nil
}

// reserveIDs takes n ids from table's id sequence, ascending. nextval never
// hands a value out twice, so the ids are free whatever the table held
// before and whoever else draws from the sequence meanwhile.
func (l *seedLoad) reserveIDs(ctx context.Context, table string, n int) ([]int64, error) {
	if n == 0 {
		return nil, nil
	}
	// The sequence is looked up once, in FROM, rather than for every row.
	rows, err := l.tx.Query(ctx, `SELECT nextval(seq)
FROM CAST(pg_get_serial_sequence($1, 'id') AS regclass) AS seq, generate_series(1, $2)`, table, n)
	if err != nil {
		return nil, storeError("seed: reserve ids of "+table, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, storeError("seed: reserve ids of "+table, err)
	}
	slices.Sort(ids)
	return ids, nil
}

// copyStream sends rows 0..n-1, generated by row, to table by COPY, with
// values making each row's column values. values runs on pgx's encoding
// goroutine, one row after the other.
func copyStream[T any](ctx context.Context, l *seedLoad, table string, columns []string,
	n int, row func(int) T, values func(int, T) []any) error {
	if n == 0 {
		return nil
	}
	stream := demo.NewStream(n, row)
	defer stream.Close()
	src := &seedSource[T]{stream: stream, values: values, i: -1, l: l}
	copied, err := l.tx.CopyFrom(ctx, pgx.Identifier{table}, columns, src)
	if err != nil {
		return storeError(fmt.Sprintf("seed: copy %s (row %d)", table, src.i+1), err)
	}
	if int(copied) != n {
		return fmt.Errorf("seed: copy %s: %d rows copied, want %d", table, copied, n)
	}
	l.report(int(copied) - src.reported)
	return nil
}

// seedSource is a pgx.CopyFromSource over a demo.Stream. It reports progress
// every seedReport rows; pgx calls it from one goroutine while CopyFrom runs,
// and the caller's goroutine reports the rest once CopyFrom has returned.
type seedSource[T any] struct {
	stream   *demo.Stream[T]
	values   func(int, T) []any
	l        *seedLoad
	i        int
	row      T
	reported int
}

func (s *seedSource[T]) Next() bool {
	row, ok := s.stream.Next()
	if !ok {
		return false
	}
	s.i++
	s.row = row
	if s.i > 0 && s.i%seedReport == 0 {
		s.l.report(seedReport)
		s.reported += seedReport
	}
	return true
}

func (s *seedSource[T]) Values() ([]any, error) { return s.values(s.i, s.row), nil }

func (s *seedSource[T]) Err() error { return nil }
