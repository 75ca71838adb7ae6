package postgres

import (
	"context"
	"strconv"

	"github.com/inkwell/inkwell/adapters/internal/shorttitle"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// titleVersionSQL reads the version of the published titles that
// searchtotal's totals are kept at (migration 0011).
const titleVersionSQL = `(SELECT coalesce(sum(title_changes), 0) FROM post_counts)::bigint`

// publishedSQL reads how many posts are published, from the counters
// (migration 0006).
const publishedSQL = `(SELECT coalesce(sum(published), 0) FROM post_counts)::bigint`

// searchCounts is what a title search's page is planned from (searchPlan):
// how many published posts it matches, how many of the viewer's other
// posts it matches, and how many posts are published, all read in one
// snapshot.
type searchCounts struct {
	matched, own, published int64
}

// total is the number of posts the search lists.
func (c searchCounts) total() int { return int(c.matched + c.own) }

// plan is the way to read the first reach posts of the search. The
// viewer's own posts lengthen a walk no more than they add matches.
func (c searchCounts) plan(reach int) searchPlan {
	return planSearch(c.matched+c.own, c.published+c.own, reach)
}

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
// reads the version, so that the total adds up from one snapshot; so is
// the number of published posts, which searchPlan weighs the matches
// against.
func (r postViews) searchTotal(ctx context.Context, f ports.PostFilter) (searchCounts, bool, error) {
	if r.totals == nil || f.Search == "" || f.AuthorID != 0 || f.TagSlug != "" ||
		(f.Status != "" && f.Status != domain.StatusPublished) {
		return searchCounts{}, false, nil
	}
	pattern := searchPattern(f.Search)
	// $1 is the pattern, and $2 the viewer when their other posts count.
	withOwn := f.Viewer != 0 && f.Status == ""
	own, args := "0::bigint", []any{perCallMode, pattern}
	if withOwn {
		own = `(SELECT count(*) FROM posts p
 WHERE p.author_id = $2 AND p.status <> 'published' AND lower(p.title) LIKE lower($1) ESCAPE '\')`
		args = append(args, f.Viewer)
	}

	var version int64
	var c searchCounts
	if shorttitle.Kept(f.Search) {
		// The published matches of one or two characters are kept by the
		// triggers of migration 0022 (package shorttitle), and read in the
		// statement that counts the rest: no version to ask, nothing to
		// keep. Every parameter must be used, so without the viewer's
		// posts the search takes the pattern's place.
		shortArgs := []any{perCallMode, f.Search}
		if withOwn {
			shortArgs = append(args, f.Search)
		}
		short := `(SELECT coalesce(sum(titles), 0) FROM short_title_counts WHERE gram = lower($` + strconv.Itoa(len(shortArgs)-1) + `))::bigint`
		err := r.conn.QueryRow(ctx, `SELECT `+publishedSQL+`, `+short+`, `+own, shortArgs...).Scan(&c.published, &c.matched, &c.own)
		if err != nil {
			return searchCounts{}, true, storeError("count posts by short title", err)
		}
		return c, true, nil
	}
	versionSQL, versionArgs := `SELECT `+titleVersionSQL+`, `+publishedSQL+`, 0::bigint`, []any(nil)
	if withOwn {
		versionSQL, versionArgs = `SELECT `+titleVersionSQL+`, `+publishedSQL+`, `+own, args
	}
	err := r.conn.QueryRow(ctx, versionSQL, versionArgs...).Scan(&version, &c.published, &c.own)
	if err != nil {
		return searchCounts{}, true, storeError("read the published titles' version", err)
	}
	if n, ok := r.totals.Get(f.Search, version); ok {
		c.matched = int64(n)
		return c, true, nil
	}
	// The published matches are read as a page of matchSearch reads them.
	cands := searchCandidates(f.Search)
	if cands.column != "" {
		args = append(args, cands.pattern)
		cands.pattern = "$" + strconv.Itoa(len(args)-1)
	}
	matched := `(SELECT count(*) FROM posts p
 WHERE p.status = 'published' AND ` + searchTerm(matchSearch, "$1", cands) + `)`
	// A search asked by many readers at once is counted by one of them
	// (searchtotal.Cache.Share); the others take its total and keep the
	// counts of their own snapshot.
	n, _, err := r.totals.Share(ctx, f.Search, version, func() (int, int64, error) {
		var at int64
		err := r.conn.QueryRow(ctx, `SELECT `+titleVersionSQL+`, `+publishedSQL+`, `+matched+`, `+own, args...).
			Scan(&at, &c.published, &c.matched, &c.own)
		return int(c.matched), at, err
	})
	if err != nil {
		return searchCounts{}, true, storeError("count posts by title", err)
	}
	c.matched = int64(n)
	return c, true, nil
}
