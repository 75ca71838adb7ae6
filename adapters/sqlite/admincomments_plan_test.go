package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestAdminCommentPlans guards the console's list of comments
// (admin_comments.sql), newest and oldest first: each page picks its ids
// from an index, in id order with no sort, except the comments of a post
// or of a set of posts (the posts whose title matched, a JSON array),
// which comments_post_id finds and a sort orders; then each row's
// comment, author and post by key.
func TestAdminCommentPlans(t *testing.T) {
	s, cleanup, err := Open(context.Background(), filepath.Join(t.TempDir(), "inkwell.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(cleanup)
	const outer = `SELECT c.id, u.email, p.title FROM comments c JOIN users u ON u.id = c.user_id JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k %s ORDER BY k.id %o LIMIT 50 OFFSET 100) ORDER BY c.id %o`
	const set = `k.post_id IN (SELECT value FROM json_each(CAST('[3,5,8]' AS TEXT)))`
	tests := []struct {
		name, where, wantIndex string
		sorted                 bool
	}{
		{"every comment", "", "SCAN k", false},
		{"an author's", "WHERE k.user_id = 3", "SEARCH k USING COVERING INDEX comments_user_id (user_id=?)", false},
		{"a post's", "WHERE k.post_id = 3", "SEARCH k USING COVERING INDEX comments_post_id (post_id=?)", true},
		{"a post's by an author", "WHERE k.post_id = 3 AND k.user_id = 4", "USING INDEX comments_", true},
		{"a set of posts'", "WHERE " + set, "SEARCH k USING COVERING INDEX comments_post_id (post_id=?)", true},
		{"a set of posts' by an author", "WHERE " + set + " AND k.user_id = 4", "USING INDEX comments_", true},
	}
	for _, order := range []string{"DESC", "ASC"} {
		for _, tc := range tests {
			query := strings.ReplaceAll(strings.Replace(outer, "%s", tc.where, 1), "%o", order)
			plan := queryPlan(t, s, query)
			bad := !strings.Contains(plan, tc.wantIndex) ||
				!strings.Contains(plan, "SEARCH c USING INTEGER PRIMARY KEY") ||
				!strings.Contains(plan, "SEARCH u USING INTEGER PRIMARY KEY") ||
				!strings.Contains(plan, "SEARCH p USING INTEGER PRIMARY KEY") ||
				strings.Contains(plan, "SCAN c") ||
				(tc.where != "" && strings.Contains(plan, "SCAN k")) ||
				(!tc.sorted && strings.Contains(plan, "TEMP B-TREE FOR ORDER BY")) ||
				strings.Count(plan, "TEMP B-TREE FOR ORDER BY") > 1
			if bad {
				t.Errorf("%s, %s: got plan\n%s\nwant ids from %s, then each comment, author and post by key", tc.name, order, plan, tc.wantIndex)
			}
		}
	}
}
