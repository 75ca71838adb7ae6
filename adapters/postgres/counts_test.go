package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/demo"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The contract suite follows the total of PostViews.ListViews through the
// repositories' writes. These tests cover the writes that bypass them,
// which the triggers of migration 0006 must count as well: COPY, statements
// that change many rows at once, TRUNCATE, the seeder, and the fill of the
// counters when the migration runs on a database that already holds posts.

// checkCounters compares every row of the counter tables with the posts
// themselves, so that a wrong shard or author shows even where the sums
// agree. An author's row may stay at zero after their last post has gone.
func checkCounters(t *testing.T, pool *pgxpool.Pool, step string) {
	t.Helper()
	ctx := context.Background()
	type counts struct{ published, drafts int64 }
	read := func(sql string) map[int64]counts {
		t.Helper()
		rows, _ := pool.Query(ctx, sql)
		out := map[int64]counts{}
		var key int64
		var c counts
		_, err := pgx.ForEachRow(rows, []any{&key, &c.published, &c.drafts}, func() error {
			if c != (counts{}) {
				out[key] = c
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %s: %v", step, sql, err)
		}
		return out
	}
	const tally = `count(*) FILTER (WHERE status = 'published'), count(*) FILTER (WHERE status = 'draft')`
	for _, c := range []struct{ what, kept, counted string }{
		{"shard", "SELECT shard, published, drafts FROM post_counts", "SELECT id % 16, " + tally + " FROM posts GROUP BY 1"},
		{"author", "SELECT author_id, published, drafts FROM author_post_counts", "SELECT author_id, " + tally + " FROM posts GROUP BY 1"},
	} {
		kept, counted := read(c.kept), read(c.counted)
		for key, want := range counted {
			if got := kept[key]; got != want {
				t.Errorf("%s: %s %d: got %d published and %d drafts, want %d and %d", step, c.what, key, got.published, got.drafts, want.published, want.drafts)
			}
		}
		for key, got := range kept {
			if _, ok := counted[key]; !ok {
				t.Errorf("%s: %s %d: got %d published and %d drafts, want none", step, c.what, key, got.published, got.drafts)
			}
		}
	}
	var shards int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM post_counts").Scan(&shards); err != nil || shards != 16 {
		t.Errorf("%s: post_counts has %d rows (%v), want 16", step, shards, err)
	}
}

func TestPostCountersBulkWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	pool := st.Pool()
	exec := func(sql string) {
		t.Helper()
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec(`INSERT INTO users (name, email, email_key, password_hash, created_at, updated_at)
SELECT 'User ' || i, 'u' || i || '@example.com', 'u' || i || '@example.com', 'x', now(), now()
FROM generate_series(1, 20) i`)
	var first int64
	if err := pool.QueryRow(ctx, "SELECT min(id) FROM users").Scan(&first); err != nil {
		t.Fatal(err)
	}
	rows := make([][]any, 1000)
	now := time.Now()
	for i := range rows {
		status := "published"
		if i%3 == 0 {
			status = "draft"
		}
		rows[i] = []any{first + int64(i%20), fmt.Sprint("Copied ", i), fmt.Sprint("copied-", i), "x", "x", status, now, now}
	}
	n, err := pool.CopyFrom(ctx, pgx.Identifier{"posts"},
		[]string{"author_id", "title", "slug", "excerpt", "body", "status", "created_at", "updated_at"},
		pgx.CopyFromRows(rows))
	if err != nil || n != int64(len(rows)) {
		t.Fatalf("COPY: %d rows, %v", n, err)
	}
	checkCounters(t, pool, "after a COPY")

	exec(`UPDATE posts SET status = CASE status WHEN 'draft' THEN 'published' ELSE 'draft' END WHERE id % 5 = 0`)
	checkCounters(t, pool, "after changing the status of many posts")
	exec(`UPDATE posts SET title = title || '!'`)
	checkCounters(t, pool, "after changing every title")
	exec(`UPDATE posts SET author_id = author_id + 1 WHERE author_id < (SELECT max(id) FROM users) AND id % 7 = 0`)
	checkCounters(t, pool, "after moving posts to other authors")
	exec(`DELETE FROM posts WHERE id % 4 = 0`)
	checkCounters(t, pool, "after deleting many posts")
	exec(fmt.Sprintf(`DELETE FROM users WHERE id < %d`, first+5))
	checkCounters(t, pool, "after deleting several users at once")

	// Two bulk statements at once, each over every shard, must neither
	// deadlock nor lose each other's changes.
	errs := make(chan error, 2)
	for _, sql := range []string{
		`UPDATE posts SET status = 'published' WHERE status = 'draft' AND id % 2 = 0`,
		`DELETE FROM posts WHERE status = 'published' AND id % 2 = 1`,
	} {
		go func() { _, err := pool.Exec(ctx, sql); errs <- err }()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("concurrent bulk statement: %v", err)
		}
	}
	checkCounters(t, pool, "after concurrent bulk statements")

	exec(`TRUNCATE posts CASCADE`)
	checkCounters(t, pool, "after a TRUNCATE")
	n2, err := postgres.CountPosts(ctx, st.Repos(), ports.PostFilter{})
	if err != nil || n2 != 0 {
		t.Errorf("count after a TRUNCATE: got %d, %v, want 0", n2, err)
	}
}

func TestPostCountersSeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	plan := demo.Plan{Users: 50, Tags: 10, Posts: 2000, Comments: 100, Seed: 7, Until: t0, PasswordHash: "x"}
	if err := st.Seed(ctx, plan, nil); err != nil {
		t.Fatalf("Seed: %v", err)
	}
	checkCounters(t, st.Pool(), "after seeding")
	var published int
	if err := st.Pool().QueryRow(ctx, "SELECT count(*) FROM posts WHERE status = 'published'").Scan(&published); err != nil {
		t.Fatal(err)
	}
	got, err := postgres.CountPosts(ctx, st.Repos(), ports.PostFilter{})
	if err != nil || got != published || published == 0 {
		t.Errorf("count after seeding: got %d, %v, want %d", got, err, published)
	}
}

// TestPostCountersMigration runs migration 0006 on a database that already
// holds posts, as an upgrade does: it must fill the counters from them.
func TestPostCountersMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.URL(t)
	st := openStoreAt(t, url)
	pool := st.Pool()
	r := st.Repos()
	var authors []domain.User
	for i := range 3 {
		u := newUser(fmt.Sprintf("m%d@example.com", i))
		mustDo(t, "create user", r.Users.Create(ctx, &u))
		authors = append(authors, u)
	}
	for _, stmt := range []string{
		`DROP TABLE post_counts, author_post_counts`,
		`DROP FUNCTION posts_count_inserted, posts_count_deleted, posts_count_updated, posts_count_truncated CASCADE`,
		`DELETE FROM schema_migrations WHERE version = '0006_post_counts'`,
	} {
		if _, err := pool.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	seen := 0 // what authors[0] sees: every published post and their drafts
	for i := range 40 {
		status, author := domain.StatusPublished, authors[(i/2)%3].ID
		if i%3 == 0 {
			status = domain.StatusDraft
		}
		if status == domain.StatusPublished || author == authors[0].ID {
			seen++
		}
		p, err := domain.NewPost(author, fmt.Sprint("Before the counters ", i), "b", status, t0)
		mustDo(t, "new post", err)
		mustDo(t, "create post", r.Posts.Create(ctx, &p))
	}
	again := openStoreAt(t, url)
	checkCounters(t, again.Pool(), "after migrating a database with posts")
	n, err := postgres.CountPosts(ctx, again.Repos(), ports.PostFilter{Viewer: authors[0].ID})
	if err != nil || n != seen {
		t.Errorf("count after migrating: got %d, %v, want %d", n, err, seen)
	}
}

// TestPostCountReadsCounters shows which filters Count answers from the
// counters and which it counts: with the counters made wrong on purpose,
// the former give the wrong answer and the latter the right one.
func TestPostCountReadsCounters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	r := st.Repos()
	ann := newUser("ann@example.com")
	mustDo(t, "create user", r.Users.Create(ctx, &ann))
	p, err := domain.NewPost(ann.ID, "Counted post", "b", domain.StatusPublished, t0)
	mustDo(t, "new post", err)
	mustDo(t, "create post", r.Posts.Create(ctx, &p))
	if _, err := st.Pool().Exec(ctx, `UPDATE post_counts SET published = published + 100 WHERE shard = 0;
UPDATE author_post_counts SET drafts = drafts + 10`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		f    ports.PostFilter
		want int
	}{
		{ports.PostFilter{}, 101},
		{ports.PostFilter{Viewer: ann.ID}, 111},
		{ports.PostFilter{Viewer: ann.ID, Status: domain.StatusDraft}, 10},
		{ports.PostFilter{Status: domain.StatusDraft}, 0},
		{ports.PostFilter{AuthorID: ann.ID, Viewer: ann.ID}, 11},
		{ports.PostFilter{Search: "counted"}, 1},
		{ports.PostFilter{TagSlug: "none"}, 0},
	} {
		n, err := postgres.CountPosts(ctx, r, tc.f)
		if err != nil || n != tc.want {
			t.Errorf("count(%+v) with counters off by 100 published and 10 drafts: got %d, %v, want %d", tc.f, n, err, tc.want)
		}
	}
}
