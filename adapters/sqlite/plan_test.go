package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

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
		inOrder   bool
		wantIndex string
	}{
		{"anonymous", ports.PostFilter{}, false, "posts_published"},
		{"signed in", ports.PostFilter{Viewer: 7}, false, "posts_created_at_id"},
		{"search", ports.PostFilter{Viewer: 7, Search: "go"}, false, "posts_created_at_id"},
		{"trigram search", ports.PostFilter{Viewer: 7, Search: "inkwell"}, false, "posts_created_at_id"},
		{"public trigram search in order", ports.PostFilter{Search: "inkwell"}, true, "posts_published"},
		{"author", ports.PostFilter{AuthorID: 3}, false, "posts_author_id"},
		{"author, signed in", ports.PostFilter{Viewer: 7, AuthorID: 3}, false, "posts_author_id"},
		{"own drafts", ports.PostFilter{Viewer: 7, Status: domain.StatusDraft}, false, "posts_author_id"},
	}
	for _, tc := range tests {
		for _, c := range []*ports.PostCursor{nil, cursor} {
			cond, args := postWhere(tc.f, c, tc.inOrder)
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
