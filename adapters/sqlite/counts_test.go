package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/inkwell/inkwell/demo"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The contract suite follows the total of PostViews.ListViews through the
// repositories' writes. These tests cover the writes that bypass them, which the triggers of
// migration 0006 must count as well: statements that change many rows at
// once, the seeder, and the fill of the counters when the migration runs on
// a database that already holds posts.

func openForCounts(t *testing.T, path string) *Store {
	t.Helper()
	s, cleanup, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(cleanup)
	return s
}

// checkCounters compares every row of the counter tables with the posts
// themselves, so that a wrong shard or author shows even where the sums
// agree. An author's row may stay at zero after their last post has gone.
func checkCounters(t *testing.T, s *Store, step string) {
	t.Helper()
	ctx := context.Background()
	type counts struct{ published, drafts int64 }
	read := func(query string) map[int64]counts {
		t.Helper()
		rows, err := s.reader.QueryContext(ctx, query)
		if err != nil {
			t.Fatalf("%s: %s: %v", step, query, err)
		}
		defer rows.Close()
		out := map[int64]counts{}
		for rows.Next() {
			var key int64
			var c counts
			if err := rows.Scan(&key, &c.published, &c.drafts); err != nil {
				t.Fatalf("%s: %s: %v", step, query, err)
			}
			if c != (counts{}) {
				out[key] = c
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %s: %v", step, query, err)
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
	if err := s.reader.QueryRowContext(ctx, "SELECT count(*) FROM post_counts").Scan(&shards); err != nil || shards != 16 {
		t.Errorf("%s: post_counts has %d rows (%v), want 16", step, shards, err)
	}
}

func TestPostCountersBulkWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openForCounts(t, filepath.Join(t.TempDir(), "inkwell.db"))
	exec := func(query string) {
		t.Helper()
		if _, err := s.writer.ExecContext(ctx, query); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
INSERT INTO users (name, email, email_key, password_hash, created_at, updated_at)
SELECT 'User ' || i, 'u' || i || '@example.com', 'u' || i || '@example.com', 'x', 0, 0 FROM n`)
	exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
INSERT INTO posts (author_id, title, slug, excerpt, body, status, created_at, updated_at)
SELECT 1 + i % 20, 'Post ' || i, 'post-' || i, 'x', 'x', CASE WHEN i % 3 = 0 THEN 'draft' ELSE 'published' END, i, i FROM n`)
	checkCounters(t, s, "after inserting many posts in one statement")
	exec(`UPDATE posts SET status = CASE status WHEN 'draft' THEN 'published' ELSE 'draft' END WHERE id % 5 = 0`)
	checkCounters(t, s, "after changing the status of many posts")
	exec(`UPDATE posts SET title = title || '!'`)
	checkCounters(t, s, "after changing every title")
	exec(`UPDATE posts SET author_id = author_id + 1 WHERE author_id < 20 AND id % 7 = 0`)
	checkCounters(t, s, "after moving posts to other authors")
	exec(`DELETE FROM posts WHERE id % 4 = 0`)
	checkCounters(t, s, "after deleting many posts")
	exec(`DELETE FROM users WHERE id < 6`)
	checkCounters(t, s, "after deleting several users at once")
}

func TestPostCountersSeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openForCounts(t, filepath.Join(t.TempDir(), "inkwell.db"))
	plan := demo.Plan{Users: 50, Tags: 10, Posts: 2000, Comments: 100, Seed: 7, Until: time.Now(), PasswordHash: "x"}
	if err := s.Seed(ctx, plan, nil); err != nil {
		t.Fatalf("Seed: %v", err)
	}
	checkCounters(t, s, "after seeding")
	var published int
	if err := s.reader.QueryRowContext(ctx, "SELECT count(*) FROM posts WHERE status = 'published'").Scan(&published); err != nil {
		t.Fatal(err)
	}
	got, err := CountPosts(ctx, s.Repos(), ports.PostFilter{})
	if err != nil || got != published || published == 0 {
		t.Errorf("count after seeding: got %d, %v, want %d", got, err, published)
	}
}

// TestPostCountersMigration runs migration 0006 on a database that already
// holds posts, as an upgrade does: it must fill the counters from them.
// Migration 0011, whose triggers write to the counters, is taken back with
// it.
func TestPostCountersMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "inkwell.db")
	s := openForCounts(t, path)
	for _, stmt := range []string{
		`DROP TRIGGER posts_count_inserted`,
		`DROP TRIGGER posts_count_deleted`,
		`DROP TRIGGER posts_count_updated`,
		`DROP TRIGGER posts_title_inserted`,
		`DROP TRIGGER posts_title_deleted`,
		`DROP TRIGGER posts_title_updated`,
		`DROP TABLE post_counts`,
		`DROP TABLE author_post_counts`,
		`DELETE FROM schema_migrations WHERE version IN ('0006_post_counts', '0011_search_totals')`,
	} {
		if _, err := s.writer.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	r := s.Repos()
	var authors []int64
	for i := range 3 {
		u := domain.User{Name: "Ann", Email: fmt.Sprintf("m%d@example.com", i), PasswordHash: "x", CreatedAt: time.Now(), UpdatedAt: time.Now()}
		if err := r.Users.Create(ctx, &u); err != nil {
			t.Fatal(err)
		}
		authors = append(authors, u.ID)
	}
	seen := 0 // what authors[0] sees: every published post and their drafts
	for i := range 40 {
		status, author := domain.StatusPublished, authors[(i/2)%3]
		if i%3 == 0 {
			status = domain.StatusDraft
		}
		if status == domain.StatusPublished || author == authors[0] {
			seen++
		}
		p, err := domain.NewPost(author, fmt.Sprint("Before the counters ", i), "b", status, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Posts.Create(ctx, &p); err != nil {
			t.Fatal(err)
		}
	}
	again := openForCounts(t, path)
	checkCounters(t, again, "after migrating a database with posts")
	n, err := CountPosts(ctx, again.Repos(), ports.PostFilter{Viewer: authors[0]})
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
	s := openForCounts(t, filepath.Join(t.TempDir(), "inkwell.db"))
	r := s.Repos()
	ann := domain.User{Name: "Ann", Email: "ann@example.com", PasswordHash: "x", CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if err := r.Users.Create(ctx, &ann); err != nil {
		t.Fatal(err)
	}
	p, err := domain.NewPost(ann.ID, "Counted post", "b", domain.StatusPublished, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Posts.Create(ctx, &p); err != nil {
		t.Fatal(err)
	}
	if _, err := s.writer.ExecContext(ctx, `UPDATE post_counts SET published = published + 100 WHERE shard = 0;
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
		n, err := CountPosts(ctx, r, tc.f)
		if err != nil || n != tc.want {
			t.Errorf("count(%+v) with counters off by 100 published and 10 drafts: got %d, %v, want %d", tc.f, n, err, tc.want)
		}
	}
}
