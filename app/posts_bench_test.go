package app_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/adapters/random"
	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The post benchmarks run the use cases the busiest routes call on a store
// of the size the service is measured at: benchUsers users, benchTags tags
// and benchPosts posts, every fifth a draft, each post with two tags and
// benchComments comments. The rows are written by one bulk statement per
// table, as the repositories' one-row inserts would take minutes.
const (
	benchUsers    = 10_000
	benchTags     = 200
	benchPosts    = 100_000
	benchComments = 3
	benchPageSize = 15
	benchWriters  = 16
)

// benchPublished is how many of the bulk-loaded posts are published: post i
// (from 1) is a draft when i is a multiple of five.
const benchPublished = benchPosts - benchPosts/5

// benchBody is the body of every bulk-loaded post: a few hundred bytes, as
// the demonstration data has.
var benchBody = "<p>" + strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 8) + "</p>"

// benchStores open a store and fill it. Post i has id i and the title
// "Post number i" in both, since each starts from fresh sequences; the
// benchmark checks that before it relies on it.
var benchStores = []struct {
	name string
	open func(tb testing.TB) ports.Store
}{
	{"sqlite", func(tb testing.TB) ports.Store {
		path := filepath.Join(tb.TempDir(), "inkwell.db")
		st, cleanup, err := sqlite.Open(context.Background(), path)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(cleanup)
		fillSQLite(tb, path)
		return st
	}},
	{"postgres", func(tb testing.TB) ports.Store {
		st, cleanup, err := postgres.Open(context.Background(), pgtest.URL(tb))
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(cleanup)
		fillPostgres(tb, st)
		return st
	}},
}

// fillPostgres writes the benchmark rows with generate_series, then vacuums
// and analyzes the tables as a loaded database would be.
func fillPostgres(tb testing.TB, st *postgres.Store) {
	tb.Helper()
	ctx := context.Background()
	fill := fmt.Sprintf(`
INSERT INTO users (name, email, email_key, password_hash, created_at, updated_at)
SELECT 'User ' || i, 'user' || i || '@example.com', 'user' || i || '@example.com', 'x',
       timestamptz '2026-01-01', timestamptz '2026-01-01'
FROM generate_series(1, %[1]d) i;
INSERT INTO tags (name, name_key, slug, created_at, updated_at)
SELECT 'Tag ' || i, 'tag ' || i, 'tag-' || i, timestamptz '2026-01-01', timestamptz '2026-01-01'
FROM generate_series(1, %[2]d) i;
INSERT INTO posts (author_id, title, slug, excerpt, body, status, published_at, created_at, updated_at)
SELECT 1 + i %% %[1]d, 'Post number ' || i, 'post-number-' || i, 'An excerpt of post ' || i, %[4]s,
       CASE WHEN i %% 5 = 0 THEN 'draft' ELSE 'published' END,
       CASE WHEN i %% 5 = 0 THEN NULL ELSE timestamptz '2026-01-02' + i * interval '1 second' END,
       timestamptz '2026-01-02' + i * interval '1 second', timestamptz '2026-01-02' + i * interval '1 second'
FROM generate_series(1, %[3]d) i;
INSERT INTO post_tags (post_id, tag_id)
SELECT p.id, 1 + (p.id + k) %% %[2]d FROM posts p, generate_series(0, 1) k;
INSERT INTO comments (post_id, user_id, body, created_at, updated_at)
SELECT p.id, 1 + (p.id * 7 + k) %% %[1]d, 'Comment ' || k || ' on post ' || p.id,
       p.created_at + k * interval '1 minute', p.created_at + k * interval '1 minute'
FROM posts p, generate_series(1, %[5]d) k;`,
		benchUsers, benchTags, benchPosts, quoteSQL(benchBody), benchComments)
	if _, err := st.Pool().Exec(ctx, fill); err != nil {
		tb.Fatalf("fill: %v", err)
	}
	if _, err := st.Pool().Exec(ctx, "VACUUM ANALYZE users, tags, posts, post_tags, comments"); err != nil {
		tb.Fatalf("vacuum: %v", err)
	}
}

// fillSQLite writes the benchmark rows through a connection of its own on
// the store's file, in one transaction, with recursive common table
// expressions in place of generate_series.
func fillSQLite(tb testing.TB, path string) {
	tb.Helper()
	ctx := context.Background()
	conn, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_txlock=immediate")
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	const day = int64(24 * time.Hour / time.Microsecond)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	fill := fmt.Sprintf(`
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %[1]d)
INSERT INTO users (name, email, email_key, password_hash, created_at, updated_at)
SELECT 'User ' || i, 'user' || i || '@example.com', 'user' || i || '@example.com', 'x', %[6]d, %[6]d FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %[2]d)
INSERT INTO tags (name, name_key, slug, created_at, updated_at)
SELECT 'Tag ' || i, 'tag ' || i, 'tag-' || i, %[6]d, %[6]d FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %[3]d)
INSERT INTO posts (author_id, title, slug, excerpt, body, status, published_at, created_at, updated_at)
SELECT 1 + i %% %[1]d, 'Post number ' || i, 'post-number-' || i, 'An excerpt of post ' || i, %[4]s,
       CASE WHEN i %% 5 = 0 THEN 'draft' ELSE 'published' END,
       CASE WHEN i %% 5 = 0 THEN NULL ELSE %[7]d + i * 1000000 END,
       %[7]d + i * 1000000, %[7]d + i * 1000000
FROM n;
WITH k(k) AS (VALUES (0), (1))
INSERT INTO post_tags (post_id, tag_id)
SELECT p.id, 1 + (p.id + k) %% %[2]d FROM posts p, k;
WITH RECURSIVE k(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM k WHERE k < %[5]d)
INSERT INTO comments (post_id, user_id, body, created_at, updated_at)
SELECT p.id, 1 + (p.id * 7 + k) %% %[1]d, 'Comment ' || k || ' on post ' || p.id,
       p.created_at + k * 60000000, p.created_at + k * 60000000
FROM posts p, k ORDER BY p.id, k;`,
		benchUsers, benchTags, benchPosts, quoteSQL(benchBody), benchComments, t0, t0+day)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, fill); err != nil {
		tb.Fatalf("fill: %v", err)
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		tb.Fatal(err)
	}
}

// quoteSQL is s as an SQL string literal, in both dialects.
func quoteSQL(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// noFiles is a ports.FileStore for posts without images.
type noFiles struct{}

func (noFiles) Save(context.Context, string, []byte, string) (string, error) {
	return "", fmt.Errorf("no files here")
}

func (noFiles) Open(context.Context, string) (ports.StoredFile, error) {
	return ports.StoredFile{}, domain.ErrNotFound
}

func (noFiles) Delete(context.Context, string) error { return nil }

func (noFiles) MoveToTrash(context.Context, string) error { return nil }

func (noFiles) MoveFromTrash(context.Context, string) error { return nil }

// BenchmarkPosts measures the use cases behind the routes the service is
// held to: a page of posts with its exact total (v1) and a page after a
// cursor halfway down (v2), the single read with tags and comments, the
// creation of a post with two tags, and the authentication of a bearer
// token. Each runs serially, for the cost of one call, and with
// b.RunParallel, for what the store gives under concurrent callers.
func BenchmarkPosts(b *testing.B) {
	for _, s := range benchStores {
		b.Run(s.name, func(b *testing.B) {
			st := s.open(b)
			benchPostUseCases(b, st)
		})
	}
}

func benchPostUseCases(b *testing.B, st ports.Store) {
	ctx := context.Background()
	clk := clock.NewUTC()
	posts := app.NewPosts(st, noFiles{}, clk)
	accounts := app.NewAccounts(st, nil, random.NewSecrets(), clk, app.AccountsConfig{}, nil)

	// The fill must have given post i the id i (benchPosts itself is a draft).
	for _, i := range []int64{1, benchPosts - 1} {
		v, err := posts.Show(ctx, domain.Actor{PostReads: domain.PostReadsOpen}, i, true)
		if err != nil {
			b.Fatalf("Show(%d): %v", i, err)
		}
		if want := fmt.Sprintf("Post number %d", i); v.Post.Title() != want || len(v.Tags) != 2 || len(v.Comments) != benchComments {
			b.Fatalf("Show(%d): got %q with %d tags and %d comments, want %q with 2 and %d",
				i, v.Post.Title(), len(v.Tags), len(v.Comments), want, benchComments)
		}
	}
	author, err := st.Repos().Users.ByID(ctx, 1)
	if err != nil {
		b.Fatal(err)
	}
	secret := domain.NewSecret("benchmarksecretbenchmarksecretbenchmarks")
	tok := domain.NewToken(author.ID, "bench", domain.HashSecret(secret), []string{domain.AbilityAll}, clk.Now(), 0)
	if err := st.Repos().Tokens.Create(ctx, &tok); err != nil {
		b.Fatal(err)
	}
	bearer := domain.PlainToken{ID: tok.ID, Secret: secret}.String()
	actor := domain.Actor{User: author, Token: &tok}

	benchBoth(b, "List", func(int) error {
		list, total, err := posts.List(ctx, domain.Actor{PostReads: domain.PostReadsOpen}, ports.PostFilter{}, ports.Page{Limit: benchPageSize})
		if err == nil && (len(list) != benchPageSize || total < benchPublished) {
			err = fmt.Errorf("got %d posts of %d, want %d of at least %d", len(list), total, benchPageSize, benchPublished)
		}
		return err
	})
	benchBoth(b, "ListViewer", func(int) error {
		list, total, err := posts.List(ctx, domain.Actor{User: author}, ports.PostFilter{}, ports.Page{Limit: benchPageSize})
		if err == nil && (len(list) != benchPageSize || total < benchPublished) {
			err = fmt.Errorf("got %d posts of %d, want %d of at least %d", len(list), total, benchPageSize, benchPublished)
		}
		return err
	})
	// The cursor of post benchPosts/2 starts a page halfway down the list.
	mid, err := st.Repos().Posts.Get(ctx, benchPosts/2)
	if err != nil {
		b.Fatal(err)
	}
	cursor := &ports.PostCursor{CreatedAt: mid.CreatedAt().UnixMicro(), ID: mid.ID()}
	benchBoth(b, "ListAfter", func(int) error {
		list, next, err := posts.ListAfter(ctx, domain.Actor{User: author}, ports.PostFilter{}, cursor, benchPageSize)
		if err == nil && (len(list) != benchPageSize || next == nil) {
			err = fmt.Errorf("got %d posts, want %d and a next cursor", len(list), benchPageSize)
		}
		return err
	})
	benchBoth(b, "Show", func(i int) error {
		// Published posts spread over the table: i*7919 visits them in
		// an order unrelated to their ids, skipping the drafts.
		id := int64(1 + (i*7919)%benchPosts)
		if id%5 == 0 {
			id++
		}
		v, err := posts.Show(ctx, domain.Actor{PostReads: domain.PostReadsOpen}, id, true)
		if err == nil && (len(v.Tags) != 2 || len(v.Comments) != benchComments) {
			err = fmt.Errorf("post %d: got %d tags and %d comments", id, len(v.Tags), len(v.Comments))
		}
		return err
	})
	// The creators write as benchWriters users in turn, as the HTTP
	// benchmark's do, and as Create1 as one user, whose posts' counts
	// then take every create in turn.
	writers := make([]domain.Actor, benchWriters)
	for i := range writers {
		u, err := st.Repos().Users.ByID(ctx, int64(1+i))
		if err != nil {
			b.Fatal(err)
		}
		writers[i] = domain.Actor{User: u, Token: &tok}
	}
	var created atomic.Int64
	create := func(writer domain.Actor) error {
		n := created.Add(1)
		in := ports.PostInput{
			Title:  fmt.Sprintf("Benchmark entry %d", n),
			Body:   benchBody,
			Status: domain.StatusPublished,
			TagIDs: []int64{1 + n%benchTags, 1 + (n+1)%benchTags},
		}
		v, err := posts.Create(ctx, writer, in)
		if err == nil && (len(v.Tags) != 2 || v.Author.ID != writer.User.ID) {
			err = fmt.Errorf("got %d tags and author %d", len(v.Tags), v.Author.ID)
		}
		return err
	}
	benchBoth(b, "Create", func(i int) error { return create(writers[i%benchWriters]) })
	benchBoth(b, "Create1", func(int) error { return create(actor) })
	benchBoth(b, "Authenticate", func(int) error {
		a, err := accounts.Authenticate(ctx, bearer)
		if err == nil && a.User.ID != author.ID {
			err = fmt.Errorf("got user %d, want %d", a.User.ID, author.ID)
		}
		return err
	})
}

// benchParallelism is how many goroutines per processor the parallel
// benchmarks run: an HTTP benchmark keeps dozens of requests in flight, and
// with only one per processor a store's round trips would leave the
// processors idle while they wait.
const benchParallelism = 8

// benchBoth runs op as name/serial, which measures the latency of one call,
// and name/parallel, with benchParallelism callers per processor, whose time
// per operation is the inverse of the throughput; both report allocations.
// op gets a number that differs from call to call.
func benchBoth(b *testing.B, name string, op func(i int) error) {
	b.Run(name, func(b *testing.B) {
		b.Run("serial", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := op(i); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("parallel", func(b *testing.B) {
			b.ReportAllocs()
			var next atomic.Int64
			b.SetParallelism(benchParallelism)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := op(int(next.Add(1))); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	})
}
