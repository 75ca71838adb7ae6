package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestAdminCommentPlans guards the console's list of comments
// (admin_comments.sql): each page picks its ids from an index, in id order
// with no sort, except one post's comments, which comments_post_id finds
// and a sort orders; then each row's comment, author and post by key.
func TestAdminCommentPlans(t *testing.T) {
	s, cleanup, err := Open(context.Background(), filepath.Join(t.TempDir(), "inkwell.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(cleanup)
	const outer = `SELECT c.id, u.email, p.title FROM comments c JOIN users u ON u.id = c.user_id JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k %s ORDER BY k.id DESC LIMIT 50 OFFSET 100) ORDER BY c.id DESC`
	tests := []struct {
		name, where, wantIndex string
		sorted                 bool
	}{
		{"every comment", "", "SCAN k", false},
		{"an author's", "WHERE k.user_id = 3", "SEARCH k USING COVERING INDEX comments_user_id (user_id=?)", false},
		{"a post's", "WHERE k.post_id = 3", "SEARCH k USING COVERING INDEX comments_post_id (post_id=?)", true},
		{"a post's by an author", "WHERE k.post_id = 3 AND k.user_id = 4", "USING INDEX comments_", true},
	}
	for _, tc := range tests {
		plan := queryPlan(t, s, strings.Replace(outer, "%s", tc.where, 1))
		bad := !strings.Contains(plan, tc.wantIndex) ||
			!strings.Contains(plan, "SEARCH c USING INTEGER PRIMARY KEY") ||
			!strings.Contains(plan, "SEARCH u USING INTEGER PRIMARY KEY") ||
			!strings.Contains(plan, "SEARCH p USING INTEGER PRIMARY KEY") ||
			strings.Contains(plan, "SCAN c") ||
			(!tc.sorted && strings.Contains(plan, "TEMP B-TREE FOR ORDER BY")) ||
			strings.Count(plan, "TEMP B-TREE FOR ORDER BY") > 1
		if bad {
			t.Errorf("%s: got plan\n%s\nwant ids from %s, then each comment, author and post by key", tc.name, plan, tc.wantIndex)
		}
	}
}
