package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/postgres"
)

// TestAdminCommentPlans guards the console's list of comments
// (admin_comments.sql), newest and oldest first: every comment's and an
// author's page take their ids from a walk of an index in id order (the
// primary key, comments_user_id_id), never from a sort; the comments of a
// set of posts (one post's, or the posts whose title matched) are found
// through comments_post_id (or an author's index) and only those are
// sorted, never by a walk of the whole table. Sequential and
// bitmap scans are turned off, and sorts where the order has an index, so
// that the planner of an empty table shows what it does at a million rows.
func TestAdminCommentPlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	const outer = `SELECT c.id, u.email, p.title FROM comments c JOIN users u ON u.id = c.user_id JOIN posts p ON p.id = c.post_id
WHERE c.id IN (SELECT k.id FROM comments k %s ORDER BY k.id %o LIMIT 50 OFFSET 100) ORDER BY c.id %o`
	const set = `k.post_id = ANY('{3,5,8}'::bigint[])`
	tests := []struct {
		name, where, wantIndex string
		sorted                 bool
	}{
		{"every comment", "", "comments_pkey", false},
		{"an author's", "WHERE k.user_id = 3", "comments_user_id_id", false},
		{"a set of posts'", "WHERE " + set, "comments_post_id", true},
		{"a set of posts' by an author", "WHERE " + set + " AND k.user_id = 4", "on comments k", true},
	}
	for _, order := range []string{"DESC", "ASC"} {
		for _, tc := range tests {
			plan := explainOff(ctx, t, st, strings.ReplaceAll(strings.Replace(outer, "%s", tc.where, 1), "%o", order), !tc.sorted)
			limit := strings.Index(plan, "Limit")
			bad := limit < 0 || !strings.Contains(plan, tc.wantIndex) || strings.Contains(plan, "Seq Scan on comments") ||
				strings.Contains(plan, "Bitmap Heap Scan on comments") ||
				(tc.where != "" && strings.Contains(plan, "comments_pkey on comments k")) ||
				(!tc.sorted && strings.Contains(strings.SplitN(plan[limit:], "\n", 3)[1], "Sort"))
			if bad {
				t.Errorf("%s, %s: got plan\n%s\nwant the page's ids from %s", tc.name, order, plan, tc.wantIndex)
			}
		}
	}
}

// explainOff is the plan of query with sequential and bitmap scans turned
// off, and sorts too when noSort.
func explainOff(ctx context.Context, t *testing.T, st *postgres.Store, query string, noSort bool) string {
	t.Helper()
	tx, err := st.Pool().Begin(ctx)
	mustDo(t, "begin", err)
	defer func() { _ = tx.Rollback(ctx) }()
	off := []string{"enable_seqscan", "enable_bitmapscan"}
	if noSort {
		off = append(off, "enable_sort")
	}
	for _, o := range off {
		_, err = tx.Exec(ctx, "SET LOCAL "+o+" = off")
		mustDo(t, o, err)
	}
	rows, err := tx.Query(ctx, "EXPLAIN "+query)
	mustDo(t, "EXPLAIN", err)
	var lines []string
	for rows.Next() {
		var line string
		mustDo(t, "scan the plan", rows.Scan(&line))
		lines = append(lines, line)
	}
	mustDo(t, "read the plan", rows.Err())
	return strings.Join(lines, "\n")
}
