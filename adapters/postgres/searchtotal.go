package postgres

import (
	"context"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// titleVersionSQL reads the version of the published titles that
// searchtotal's totals are kept at (migration 0011).
const titleVersionSQL = `(SELECT coalesce(sum(title_changes), 0) FROM post_counts)::bigint`

// searchTotal returns how many posts f matches when f searches the titles
// of the published posts and, when its Status is "", of the viewer's
// others, filtering by nothing else; it returns false for any other filter
// and in a transaction. At a million posts, counting a word found in 1
// title in 100 rechecked some 10,000 rows in the heap (19 ms), ten times
// the page. So the published posts' part is counted once per version of
// the published titles and kept in r.totals, with the version read in the
// counting statement's own snapshot; a later page that reads the same
// version takes it from there. The viewer's other posts, a few found
// through posts_author_id, are counted every time, in the statement that
// reads the version, so that the total adds up from one snapshot.
func (r postViews) searchTotal(ctx context.Context, f ports.PostFilter) (int, bool, error) {
	if r.totals == nil || f.Search == "" || f.AuthorID != 0 || f.TagSlug != "" ||
		(f.Status != "" && f.Status != domain.StatusPublished) {
		return 0, false, nil
	}
	pattern := "%" + escapeLike(f.Search) + "%"
	// $1 is the pattern, and $2 the viewer when their other posts count.
	withOwn := f.Viewer != 0 && f.Status == ""
	own, args := "0::bigint", []any{perCallMode, pattern}
	if withOwn {
		own = `(SELECT count(*) FROM posts p
 WHERE p.author_id = $2 AND p.status <> 'published' AND lower(p.title) LIKE lower($1) ESCAPE '\')`
		args = append(args, f.Viewer)
	}
	const published = `(SELECT count(*) FROM posts p
 WHERE p.status = 'published' AND lower(p.title) LIKE lower($1) ESCAPE '\')`

	var version, others int64
	var err error
	if withOwn {
		err = r.conn.QueryRow(ctx, `SELECT `+titleVersionSQL+`, `+own, args...).Scan(&version, &others)
	} else {
		err = r.conn.QueryRow(ctx, `SELECT `+titleVersionSQL).Scan(&version)
	}
	if err != nil {
		return 0, true, storeError("read the published titles' version", err)
	}
	if n, ok := r.totals.Get(f.Search, version); ok {
		return n + int(others), true, nil
	}
	var n int64
	err = r.conn.QueryRow(ctx, `SELECT `+titleVersionSQL+`, `+published+`, `+own, args...).
		Scan(&version, &n, &others)
	if err != nil {
		return 0, true, storeError("count posts by title", err)
	}
	r.totals.Put(f.Search, version, int(n))
	return int(n + others), true, nil
}
