package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/demo"
	"github.com/inkwell/inkwell/domain"
)

func TestSeed(t *testing.T) {
	ctx := context.Background()
	s, cleanup, err := Open(ctx, filepath.Join(t.TempDir(), "inkwell.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(cleanup)

	// A user created and deleted before: the seeded ids must not reuse
	// what the store handed out (posts and comments are AUTOINCREMENT).
	r := s.Repos()
	u := domain.User{Name: "Gone", Email: "gone@example.com", PasswordHash: "x", CreatedAt: time.Now(), UpdatedAt: time.Now()}
	if err := r.Users.Create(ctx, &u); err != nil {
		t.Fatal(err)
	}
	p, _ := domain.NewPost(u.ID, "Gone", "gone", domain.StatusDraft, time.Now())
	if err := r.Posts.Create(ctx, &p); err != nil {
		t.Fatal(err)
	}
	if err := r.Users.Delete(ctx, u.ID); err != nil {
		t.Fatal(err)
	}

	// Enough rows for several transactions.
	plan := demo.Plan{Users: 20, Tags: 12, Posts: 3000, Comments: 9000, Seed: 5,
		Until: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), PasswordHash: "$2a$04$x"}
	var last, calls int
	err = s.Seed(ctx, plan, func(done, total int) {
		calls++
		if done <= last || total != plan.Rows() {
			t.Errorf("progress %d/%d after %d, want rising to %d", done, total, last, plan.Rows())
		}
		last = done
	})
	if err != nil {
		t.Fatalf("Seed: %v", err)
	}
	if last != plan.Rows() || calls < 2 {
		t.Errorf("progress ended at %d after %d calls, want %d after several", last, calls, plan.Rows())
	}

	count := func(query string) int {
		t.Helper()
		var n int
		if err := s.reader.QueryRowContext(ctx, query).Scan(&n); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return n
	}
	published := 0
	for i := range plan.Posts {
		if plan.Post(i).Status == domain.StatusPublished {
			published++
		}
	}
	for _, tc := range []struct {
		query string
		want  int
	}{
		{"SELECT count(*) FROM users", plan.Users},
		{"SELECT count(*) FROM tags", plan.Tags},
		{"SELECT count(*) FROM posts", plan.Posts},
		{"SELECT count(*) FROM posts WHERE status = 'published' AND published_at IS NOT NULL", published},
		{"SELECT count(*) FROM post_tags", plan.Links()},
		{"SELECT count(*) FROM comments", plan.Comments},
		{"SELECT count(DISTINCT slug) FROM posts", plan.Posts},
		{"SELECT count(*) FROM posts WHERE id <= " + strconv.FormatInt(p.ID(), 10), 0},
		// Comments on a published post, after it was published.
		{`SELECT count(*) FROM comments c JOIN posts p ON p.id = c.post_id
		  WHERE p.status = 'published' AND c.created_at >= p.published_at`, plan.Comments},
		{"SELECT count(*) FROM pragma_foreign_key_check", 0},
	} {
		if got := count(tc.query); got != tc.want {
			t.Errorf("%s: got %d, want %d", strings.Join(strings.Fields(tc.query), " "), got, tc.want)
		}
	}

	// One post and one comment read back through the repositories, with
	// their links to users and tags.
	for _, i := range []int{0, 1234, plan.Posts - 1} {
		want := plan.Post(i)
		var id int64
		if err := s.reader.QueryRowContext(ctx, "SELECT id FROM posts WHERE slug = ?", want.Slug).Scan(&id); err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
		got, err := r.Posts.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		author, _ := r.Users.ByID(ctx, got.AuthorID())
		if got.Title() != want.Title || got.Excerpt() != want.Excerpt || !got.UpdatedAt().Equal(want.UpdatedAt) ||
			author.Email != plan.User(want.Author).Email {
			t.Errorf("post %d: got %+v by %s, want %+v", i, got.State(), author.Email, want)
		}
		tags, err := r.Tags.OfPosts(ctx, []int64{id})
		if err != nil {
			t.Fatal(err)
		}
		var names, wantNames []string
		for _, tag := range tags[id] {
			names = append(names, tag.Name)
		}
		for _, k := range want.Tags {
			wantNames = append(wantNames, plan.Tag(k).Name)
		}
		slices.Sort(names)
		slices.Sort(wantNames)
		if !slices.Equal(names, wantNames) {
			t.Errorf("post %d: tags %v, want %v", i, names, wantNames)
		}
	}
	first := plan.Comment(0)
	var slug, email string
	err = s.reader.QueryRowContext(ctx, `SELECT p.slug, u.email FROM comments c
		JOIN posts p ON p.id = c.post_id JOIN users u ON u.id = c.user_id ORDER BY c.id LIMIT 1`).Scan(&slug, &email)
	if err != nil || slug != plan.Post(first.Post).Slug || email != plan.User(first.User).Email {
		t.Errorf("first comment: on %s by %s (%v), want on %s by %s", slug, email, err, plan.Post(first.Post).Slug, plan.User(first.User).Email)
	}

	if err := s.Seed(ctx, plan, nil); !errors.Is(err, demo.ErrNotEmpty) {
		t.Errorf("second Seed: got %v, want demo.ErrNotEmpty", err)
	}
	if got := count("SELECT count(*) FROM posts"); got != plan.Posts {
		t.Errorf("after a refused Seed: %d posts, want %d", got, plan.Posts)
	}
	var cache int
	if err := s.writer.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&cache); err != nil || cache != -2000 {
		t.Errorf("writer's cache_size after Seed: got %d, %v; want the default -2000", cache, err)
	}
}
