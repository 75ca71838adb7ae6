package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestAdminSortPlans guards the console's orders of its unsearched lists
// (admin.sql): each walks an index in its order, with no sort of the
// table.
func TestAdminSortPlans(t *testing.T) {
	s, cleanup, err := Open(context.Background(), filepath.Join(t.TempDir(), "inkwell.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(cleanup)
	tests := []struct{ name, query, wantIndex string }{
		{"accounts, oldest first", `SELECT * FROM users ORDER BY id LIMIT 50 OFFSET 100`, "SCAN users"},
		{"accounts by e-mail", `SELECT u.* FROM users u WHERE u.id IN (SELECT k.id FROM users k ORDER BY k.email_key LIMIT 50 OFFSET 100) ORDER BY u.email_key`,
			"SCAN k USING COVERING INDEX users_email_key"},
		{"posts, oldest first", `SELECT * FROM posts ORDER BY created_at, id LIMIT 50 OFFSET 100`, "SCAN posts USING INDEX posts_created_at_id"},
		{"drafts, oldest first", `SELECT * FROM posts WHERE status = 'draft' ORDER BY created_at, id LIMIT 50 OFFSET 100`, "SCAN posts USING INDEX posts_drafts"},
		{"published, oldest first", `SELECT * FROM posts WHERE status = 'published' ORDER BY created_at, id LIMIT 50 OFFSET 100`, "SCAN posts USING INDEX posts_published"},
	}
	for _, tc := range tests {
		plan := queryPlan(t, s, tc.query)
		// The page of accounts by e-mail sorts its 50 rows, not the table.
		sorts := strings.Count(plan, "TEMP B-TREE")
		byEmail := tc.name == "accounts by e-mail"
		if !strings.Contains(plan, tc.wantIndex) || (!byEmail && sorts > 0) || sorts > 1 ||
			(byEmail && !strings.Contains(plan, "SEARCH u USING INTEGER PRIMARY KEY")) {
			t.Errorf("%s: got plan\n%s\nwant a walk of %s", tc.name, plan, tc.wantIndex)
		}
	}
}
