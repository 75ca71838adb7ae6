package postgres_test

import (
	"context"
	"strings"
	"testing"
)

// TestAdminSortPlans guards the console's orders of its unsearched lists
// (admin.sql): the page's ids come from a walk of the index in the list's
// order, never from a sort of the table. Sequential and bitmap scans and
// sorts are turned off, so that the planner of an empty table shows what
// it does at a million rows: a Sort left under the Limit is one that no
// index can spare.
func TestAdminSortPlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	tx, err := st.Pool().Begin(ctx)
	mustDo(t, "begin", err)
	defer func() { _ = tx.Rollback(ctx) }()
	for _, off := range []string{"enable_seqscan", "enable_bitmapscan", "enable_sort"} {
		_, err = tx.Exec(ctx, "SET LOCAL "+off+" = off")
		mustDo(t, off, err)
	}
	tests := []struct{ name, query, wantIndex string }{
		{"accounts, oldest first", `SELECT u.* FROM users u WHERE u.id IN (SELECT p.id FROM users p ORDER BY p.id LIMIT 50 OFFSET 100) ORDER BY u.id`, "users_pkey"},
		{"accounts by e-mail", `SELECT u.* FROM users u WHERE u.id IN (SELECT p.id FROM users p ORDER BY p.email_key LIMIT 50 OFFSET 100) ORDER BY u.email_key`, "users_email_key"},
		{"posts, oldest first", `SELECT p.* FROM posts p WHERE p.id IN (SELECT q.id FROM posts q ORDER BY q.created_at, q.id LIMIT 50 OFFSET 100) ORDER BY p.created_at, p.id`, "posts_created_at_id"},
		{"drafts, oldest first", `SELECT p.* FROM posts p WHERE p.id IN (SELECT q.id FROM posts q WHERE q.status = 'draft' ORDER BY q.created_at, q.id LIMIT 50 OFFSET 100) ORDER BY p.created_at, p.id`, "posts_drafts"},
		{"published, oldest first", `SELECT p.* FROM posts p WHERE p.id IN (SELECT q.id FROM posts q WHERE q.status = 'published' ORDER BY q.created_at, q.id LIMIT 50 OFFSET 100) ORDER BY p.created_at, p.id`, "posts_published"},
	}
	for _, tc := range tests {
		rows, err := tx.Query(ctx, "EXPLAIN "+tc.query)
		mustDo(t, "EXPLAIN", err)
		var lines []string
		for rows.Next() {
			var line string
			mustDo(t, "scan the plan", rows.Scan(&line))
			lines = append(lines, line)
		}
		mustDo(t, "read the plan", rows.Err())
		plan := strings.Join(lines, "\n")
		// Under the Limit, the index walk itself: no Sort between them.
		limit := strings.Index(plan, "Limit")
		if limit < 0 || !strings.Contains(plan, tc.wantIndex) || strings.Contains(plan, "Seq Scan") ||
			strings.Contains(strings.SplitN(plan[limit:], "\n", 3)[1], "Sort") {
			t.Errorf("%s: got plan\n%s\nwant the page's ids from a walk of %s", tc.name, plan, tc.wantIndex)
		}
	}
}
