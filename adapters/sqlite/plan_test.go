package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// queryPlan returns the details of SQLite's plan for query, one per line.
func queryPlan(t *testing.T, s *Store, query string, args ...any) string {
	t.Helper()
	rows, err := s.reader.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", query, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatalf("explain %s: %v", query, err)
		}
		lines = append(lines, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("explain %s: %v", query, err)
	}
	return strings.Join(lines, "\n")
}

// TestListPlans guards the indexes the lists of posts and comments rely on:
// each must walk its index in the list's order, with no sort of its own.
func TestListPlans(t *testing.T) {
	s, cleanup, err := Open(context.Background(), filepath.Join(t.TempDir(), "inkwell.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(cleanup)

	cursor := &ports.PostCursor{CreatedAt: 1, ID: 1}
	tests := []struct {
		name      string
		f         ports.PostFilter
		wantIndex string
	}{
		{"anonymous", ports.PostFilter{}, "posts_published"},
		{"signed in", ports.PostFilter{Viewer: 7}, "posts_created_at_id"},
		{"search", ports.PostFilter{Viewer: 7, Search: "go"}, "posts_created_at_id"},
		{"trigram search", ports.PostFilter{Viewer: 7, Search: "inkwell"}, "posts_created_at_id"},
		{"author", ports.PostFilter{AuthorID: 3}, "posts_author_id"},
		{"author, signed in", ports.PostFilter{Viewer: 7, AuthorID: 3}, "posts_author_id"},
		{"own drafts", ports.PostFilter{Viewer: 7, Status: domain.StatusDraft}, "posts_author_id"},
	}
	for _, tc := range tests {
		for _, c := range []*ports.PostCursor{nil, cursor} {
			cond, args := postWhere(tc.f, c)
			plan := queryPlan(t, s, "SELECT "+postColumns+" FROM posts p WHERE "+cond+" "+newestFirst+" LIMIT 10", args...)
			if !strings.Contains(plan, tc.wantIndex) || strings.Contains(plan, "TEMP B-TREE") {
				t.Errorf("%s (cursor %v): got plan\n%s\nwant a walk of %s without a sort", tc.name, c != nil, plan, tc.wantIndex)
			}
		}
	}

	plan := queryPlan(t, s, `SELECT c.id, u.name FROM comments c JOIN users u ON u.id = c.user_id
WHERE c.post_id = ?1 ORDER BY c.created_at, c.id LIMIT 10`, 1)
	if !strings.Contains(plan, "SEARCH c USING INDEX comments_post_id") || !strings.Contains(plan, "SEARCH u USING INTEGER PRIMARY KEY") ||
		strings.Contains(plan, "TEMP B-TREE") {
		t.Errorf("comments of a post with their authors: got plan\n%s\nwant a walk of comments_post_id without a sort, then each author by id", plan)
	}
	plan = queryPlan(t, s, `SELECT slug FROM posts WHERE slug >= ?1 AND slug < ?1 || '.'`, "hello")
	if !strings.Contains(plan, "posts_slug (slug>? AND slug<?)") {
		t.Errorf("slug range: got plan\n%s\nwant a range of posts_slug", plan)
	}
}

// recorder is a db.DBTX that keeps the statements sent through it.
type recorder struct {
	db.DBTX
	sent *[]recorded
}

type recorded struct {
	query string
	args  []any
}

func (r recorder) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	*r.sent = append(*r.sent, recorded{query, args})
	return r.DBTX.QueryContext(ctx, query, args...)
}

func (r recorder) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	*r.sent = append(*r.sent, recorded{query, args})
	return r.DBTX.QueryRowContext(ctx, query, args...)
}

// TestSearchPlans guards the indexes the pieces of a title search rely on
// (search.go): the walks of posts_published read that index alone, the
// matches and the page's rows are looked up by id, and the viewer's own
// posts are found through posts_author_id.
func TestSearchPlans(t *testing.T) {
	ctx := context.Background()
	s, cleanup, err := Open(ctx, filepath.Join(t.TempDir(), "inkwell.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(cleanup)
	for _, query := range []string{
		`INSERT INTO users (name, email, email_key, password_hash, created_at, updated_at) VALUES ('Ann', 'ann@example.com', 'ann@example.com', 'x', 0, 0)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
INSERT INTO posts (author_id, title, slug, excerpt, body, status, created_at, updated_at)
SELECT 1, 'Inkwell ' || i, 'inkwell-' || i, 'x', 'x', 'published', i, i FROM n`,
	} {
		if _, err := s.writer.ExecContext(ctx, query); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}

	var sent []recorded
	r := postViews{c: conns{read: db.New(s.reader), readDB: recorder{s.reader, &sent}}}
	m, err := r.titleMatches(ctx, "inkwell", -1)
	if err != nil || len(m.ids) != 400 {
		t.Fatalf("titleMatches: got %d ids, %v, want 400", len(m.ids), err)
	}
	newest, oldest := &ports.PostCursor{CreatedAt: 400, ID: 400}, &ports.PostCursor{CreatedAt: 3, ID: 3}
	tests := []struct {
		name       string
		run        func() error
		statements int
		want       string
		sortFree   bool
		// then, when set, is what the statements after the first want
		// instead of want.
		then string
	}{
		{"walk", func() error { _, err := r.nextPublished(ctx, nil, 3); return err }, 1, "COVERING INDEX posts_published", true, ""},
		{"walk after a cursor", func() error { _, err := r.nextPublished(ctx, newest, 3); return err }, 1, "COVERING INDEX posts_published", true, ""},
		// From the newest posts the batch reads the index down, from the
		// oldest up, for its bounds; the matches in them are looked up by
		// id (then).
		{"batch", func() error {
			b, err := r.walkBatch(ctx, nil, batchPerPost)
			if err == nil {
				_, _, err = r.batchAfter(ctx, "inkwell", -1, nil, 1, batchPerPost, b)
			}
			return err
		}, 2, "COVERING INDEX posts_published", false, "SEARCH p USING INTEGER PRIMARY KEY"},
		{"batch near the oldest", func() error {
			b, err := r.walkBatch(ctx, oldest, batchPerPost)
			if err == nil {
				_, _, err = r.batchAfter(ctx, "inkwell", -1, oldest, 1, batchPerPost, b)
			}
			return err
		}, 2, "COVERING INDEX posts_published", false, "SEARCH p USING INTEGER PRIMARY KEY"},
		{"sort", func() error { _, err := r.sortMatches(ctx, m, nil, 0, 3); return err }, 1, "SEARCH p USING INTEGER PRIMARY KEY", false, ""},
		{"sort after a cursor", func() error { _, err := r.sortMatches(ctx, m, newest, 0, 3); return err }, 1, "SEARCH p USING INTEGER PRIMARY KEY", false, ""},
		{"own posts", func() error { _, err := r.ownMatches(ctx, 1, "inkwell", nil, nil, 0); return err }, 1, "posts_author_id", true, ""},
		{"own posts between two keys", func() error { _, err := r.ownMatches(ctx, 1, "inkwell", newest, oldest, 3); return err }, 1, "posts_author_id", true, ""},
		{"rows by key", func() error { _, err := r.byKeys(ctx, []ports.PostCursor{*newest, *oldest}); return err }, 1, "SEARCH p USING INTEGER PRIMARY KEY", false, ""},
	}
	for _, tc := range tests {
		sent = sent[:0]
		if err := tc.run(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(sent) != tc.statements {
			t.Errorf("%s: sent %d statements, want %d", tc.name, len(sent), tc.statements)
		}
		for i, st := range sent {
			want := tc.want
			if i > 0 && tc.then != "" {
				want = tc.then
			}
			plan := queryPlan(t, s, st.query, st.args...)
			if !strings.Contains(plan, want) || tc.sortFree && strings.Contains(plan, "TEMP B-TREE") {
				t.Errorf("%s: got plan\n%s\nof\n%s\nwant %s", tc.name, plan, st.query, want)
			}
		}
	}
}
