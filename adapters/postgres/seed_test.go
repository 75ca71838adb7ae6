package postgres_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/inkwell/inkwell/demo"
	"github.com/inkwell/inkwell/domain"
)

// schemaOf lists the definitions of every index and constraint of the
// content tables, to show that Seed builds again what it drops.
const schemaOf = `
SELECT pg_get_indexdef(indexrelid) FROM pg_index
WHERE indrelid = ANY ('{users,tags,posts,post_tags,comments}'::regclass[])
UNION ALL
SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
WHERE conrelid = ANY ('{users,tags,posts,post_tags,comments}'::regclass[])
ORDER BY 1`

func TestSeed(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	pool := st.Pool()
	query := func(sql string) []string {
		t.Helper()
		rows, _ := pool.Query(ctx, sql)
		out, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return out
	}
	count := func(sql string) int {
		t.Helper()
		var n int
		if err := pool.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return n
	}
	schema := query(schemaOf)
	if len(schema) < 10 {
		t.Fatalf("schema: got %d definitions, want the migrations' indexes and constraints", len(schema))
	}

	// A user and a post created and deleted before: their ids are gone from
	// the sequences, and the seeded rows must start after them.
	r := st.Repos()
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

	plan := demo.Plan{Users: 20, Tags: 12, Posts: 3000, Comments: 25000, Seed: 5,
		Until: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), PasswordHash: "$2a$04$x"}
	var last, calls int
	err := st.Seed(ctx, plan, func(done, total int) {
		calls++
		if done < last || total != plan.Rows() {
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
	if got := query(schemaOf); !slices.Equal(got, schema) {
		t.Errorf("schema after Seed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(schema, "\n"))
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
		{"SELECT count(*) FROM users WHERE id <= " + strconv.FormatInt(u.ID, 10), 0},
		{"SELECT count(*) FROM posts WHERE id <= " + strconv.FormatInt(p.ID(), 10), 0},
		// Ids grow with created_at, as they do in use.
		{"SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY created_at) AS prev FROM posts) x WHERE id < prev", 0},
		// The sequences go on after the seeded ids.
		{"SELECT count(*) FROM posts WHERE id >= (SELECT last_value FROM posts_id_seq)", 1},
		{"SELECT count(*) FROM comments WHERE id >= (SELECT last_value FROM comments_id_seq)", 1},
		{`SELECT count(*) FROM comments c JOIN posts p ON p.id = c.post_id
		  WHERE p.status = 'published' AND c.created_at >= p.published_at`, plan.Comments},
		// ANALYZE ran: the planner knows the table's size.
		{"SELECT reltuples::int FROM pg_class WHERE oid = 'comments'::regclass", plan.Comments},
	} {
		if got := count(tc.query); got != tc.want {
			t.Errorf("%s: got %d, want %d", strings.Join(strings.Fields(tc.query), " "), got, tc.want)
		}
	}

	for _, i := range []int{0, 1234, plan.Posts - 1} {
		want := plan.Post(i)
		var id int64
		if err := pool.QueryRow(ctx, "SELECT id FROM posts WHERE slug = $1", want.Slug).Scan(&id); err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
		got, err := r.Posts.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		author, _ := r.Users.ByID(ctx, got.AuthorID())
		if got.Title() != want.Title || got.Body() != want.Body || !got.CreatedAt().Equal(want.CreatedAt) ||
			author.Email != plan.User(want.Author).Email || author.PasswordHash != plan.PasswordHash {
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
	err = pool.QueryRow(ctx, `SELECT p.slug, u.email FROM comments c
		JOIN posts p ON p.id = c.post_id JOIN users u ON u.id = c.user_id ORDER BY c.id LIMIT 1`).Scan(&slug, &email)
	if err != nil || slug != plan.Post(first.Post).Slug || email != plan.User(first.User).Email {
		t.Errorf("first comment: on %s by %s (%v), want on %s by %s", slug, email, err, plan.Post(first.Post).Slug, plan.User(first.User).Email)
	}

	// A refused seed leaves rows and schema as they were.
	if err := st.Seed(ctx, plan, nil); !errors.Is(err, demo.ErrNotEmpty) {
		t.Errorf("second Seed: got %v, want demo.ErrNotEmpty", err)
	}
	if got := count("SELECT count(*) FROM posts"); got != plan.Posts {
		t.Errorf("after a refused Seed: %d posts, want %d", got, plan.Posts)
	}
	if got := query(schemaOf); !slices.Equal(got, schema) {
		t.Errorf("schema after a refused Seed: %v", got)
	}
}

// TestSeedRollsBack shows that a failed load leaves nothing behind, the
// dropped indexes and foreign keys included.
func TestSeedRollsBack(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	pool := st.Pool()
	rows, _ := pool.Query(ctx, schemaOf)
	schema, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	plan := demo.Plan{Users: 5, Tags: 5, Posts: 20000, Comments: 0, Seed: 1,
		Until: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), PasswordHash: "$2a$04$x"}
	cctx, cancel := context.WithCancel(ctx)
	err = st.Seed(cctx, plan, func(done, total int) {
		if done > 10000 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("Seed cancelled half-way: got no error")
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM posts)").Scan(&n); err != nil || n != 0 {
		t.Errorf("after a failed Seed: %d rows (%v), want none", n, err)
	}
	rows, _ = pool.Query(ctx, schemaOf)
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || !slices.Equal(got, schema) {
		t.Errorf("schema after a failed Seed: got %v (%v), want %v", got, err, schema)
	}
}
