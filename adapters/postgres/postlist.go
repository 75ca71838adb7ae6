package postgres

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/inkwell/inkwell/adapters/internal/postcount"
	"github.com/inkwell/inkwell/adapters/internal/titlejoin"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The lists of posts are built here rather than by sqlc. A filter's parts
// are optional, and a static query can only say so with terms like
// (@author_id = 0 OR author_id = @author_id), which the planner folds away
// only while it plans for known values. pgx prepares each statement once per
// connection, and after five executions PostgreSQL may switch to a generic
// plan made for unknown values: measured on 200,000 posts, the count of one
// author's posts then went from about 1 ms (posts_author_id) to 200 ms (the
// whole title index and every row). So each statement here holds only the
// terms its filter needs, and every value but the page size travels as a
// parameter.
//
// The statements whose best plan depends on the values bound to them run
// on PostgreSQL's unnamed statement (perCallMode), planned at every
// execution for those values: a common word is found fastest by walking
// posts_created_at_id newest first and a rare one through posts_title_trgm
// (a title search the kept counts serve is not left to the planner:
// searchPlan), a popular tag by the walk and a rare one through post_tags_tag_id, and one
// author's posts (a viewer's drafts among them) by walking posts_author_id
// in order, which a generic plan, expecting a handful of them, would read
// all and sort instead. The others, the busiest lists (everybody's posts, a
// viewer's, after a cursor), run in the pool's default mode, which prepares
// them once per connection (pgx's statement cache; through a pooler, once
// per server connection, see configurePool): their
// generic plan is the walk of posts_created_at_id whatever the values, and
// planning each page afresh cost about as much as running it (measured with pgbench on 100,000 posts: 16,000 pages a second
// planned each time, 27,000 prepared). The page size is written into the
// text rather than bound, because a generic plan assumes that a LIMIT it
// cannot see keeps a tenth of the rows, which would have PostgreSQL plan
// every call anyway; pgx's statement cache holds a text per page size, few
// in practice.

// perCallMode has pgx cache the statement's description only, so that the
// unnamed statement still takes one round trip.
const perCallMode = pgx.QueryExecModeCacheDescribe

// postQuery collects the WHERE terms of a list of posts and the arguments
// they refer to by position. perCall says that a term's best plan depends
// on the value bound to it: a title pattern, a tag, or one author, whose
// posts a generic plan, which expects a handful, sorts rather than walks in
// order.
type postQuery struct {
	where   []string
	args    []any
	perCall bool
	// search is the index in where of the title search's term, when there
	// is one, pattern the placeholder of its pattern and search0 the
	// search itself (shape rewrites the term).
	search           int
	pattern, search0 string
}

// queryArgs are the arguments of q's statements for pgx: its values, after
// perCallMode when a statement's plan depends on them. Without a mode pgx
// runs a statement in the pool's default mode (configurePool).
func (q *postQuery) queryArgs() []any {
	if q.perCall {
		return append([]any{perCallMode}, q.args...)
	}
	return q.args
}

// arg adds v to the arguments and returns the placeholder that names it.
func (q *postQuery) arg(v any) string {
	q.args = append(q.args, v)
	return "$" + strconv.Itoa(len(q.args))
}

// postFilter returns the terms that keep the posts f matches and that the
// viewer may see: published posts, and the viewer's own posts of any status.
func postFilter(f ports.PostFilter) *postQuery {
	q := &postQuery{}
	switch {
	case f.Status == domain.StatusPublished:
		q.where = append(q.where, "p.status = 'published'")
	case f.Status != "":
		// A post that is not published is visible to its author only.
		q.where = append(q.where, "p.status = "+q.arg(string(f.Status)), "p.author_id = "+q.arg(f.Viewer))
		q.perCall = true
	case f.Viewer == 0:
		q.where = append(q.where, "p.status = 'published'")
	default:
		q.where = append(q.where, "(p.status = 'published' OR p.author_id = "+q.arg(f.Viewer)+")")
	}
	if f.AuthorID != 0 {
		q.where = append(q.where, "p.author_id = "+q.arg(f.AuthorID))
		q.perCall = true
	}
	if f.Search != "" {
		// lower() on both sides folds case as the port asks, Unicode
		// included, in a UTF-8 database whose character classification
		// (LC_CTYPE) is not plain C; and lower(title) is the expression
		// posts_title_trgm indexes.
		q.search = len(q.where)
		q.pattern = q.arg(searchPattern(f.Search))
		q.where = append(q.where, `lower(p.title) LIKE lower(`+q.pattern+`) ESCAPE '\'`)
		q.search0 = f.Search
		q.perCall = true
	}
	if f.TagSlug != "" {
		// EXISTS rather than a join: tag slugs are not unique, and a post
		// carrying two tags of one slug must still be listed once.
		q.where = append(q.where, "EXISTS (SELECT 1 FROM post_tags pt JOIN tags t ON t.id = pt.tag_id"+
			"\n      WHERE pt.post_id = p.id AND t.slug = "+q.arg(f.TagSlug)+")")
		q.perCall = true
	}
	return q
}

// searchPlan is the way a page of a title search is read, chosen from the
// numbers the store keeps (searchTotal) rather than left to the planner,
// whose estimate of a LIKE pattern's matches comes from a sample of about
// a hundred titles taken at the last ANALYZE: a word in 1 title in 100,
// missing from the sample, is estimated at the floor of 1 in 10,000, and
// PostgreSQL then reads every match through posts_title_trgm and sorts
// them (43 req/s for "inkwell" at a million posts), while a walk would
// have found the first page in some 1,500 rows. The other way round, a
// rare phrase estimated as common is walked through the whole list.
type searchPlan int

const (
	// walkSearch walks the list in order, newest first, and tests each
	// title on the way, until the page is full: it passes about
	// (offset + limit) × published ÷ matches posts.
	walkSearch searchPlan = iota
	// matchSearch reads every match through posts_title_trgm and sorts
	// them: it costs about the number of matches.
	matchSearch
)

// walkPerMatch is how many posts a walk may pass for each match before
// reading the matches costs less: about the ratio of a match read through
// posts_title_trgm (a heap page of its own, the recheck, its share of the
// sort) to a post passed on the walk (an index entry and its heap tuple, in
// list order, and so mostly in a page read just before). At a million
// posts, the walk passed 1,450 posts for the first page of "inkwell" in
// 1.9 ms and 54,000 for "graceful worker" in 72 ms, about 1.3 µs a post,
// while the 1,779 candidates of "graceful worker" took 28 ms through the
// index, 16 µs each, their pages mostly not in shared buffers.
var walkPerMatch int64 = 8

// planSearch chooses how to read the first reach posts of a search that
// matches matched of published posts.
func planSearch(matched, published int64, reach int) searchPlan {
	if matched <= 0 {
		return matchSearch
	}
	if int64(reach)*max(published, matched)/matched <= walkPerMatch*matched {
		return walkSearch
	}
	return matchSearch
}

// shape writes plan into q's search term (searchTerm) and returns the
// page's order and bounds (as pageSQL does) for it, so that PostgreSQL has
// one way to read the page, whatever it estimates. The walk keeps the
// order posts_created_at_id (or posts_published) gives. matchSearch orders
// by created_at plus a zero interval, the same order, which no index
// gives, so that walking one gains nothing and the matches come from
// posts_title_trgm.
func (q *postQuery) shape(plan searchPlan, limit, offset int) string {
	var c candidates
	if plan == matchSearch {
		if c = searchCandidates(q.search0); c.column != "" {
			c.pattern = q.arg(c.pattern)
		}
	}
	q.where[q.search] = searchTerm(plan, q.pattern, c)
	// Either shape's plan is the same whatever the values bound to it, so
	// the statement is prepared once per connection, as the busiest lists
	// are, rather than planned at every call (1 to 2 ms at a million
	// posts, as long as the walk of a page).
	q.perCall = false
	bounds := q.pageSQL(limit, offset)
	if plan == matchSearch {
		bounds = strings.Replace(bounds, "ORDER BY p.created_at DESC", "ORDER BY p.created_at + interval '0' DESC", 1)
	}
	return bounds
}

// searchPattern is the LIKE pattern of the titles that hold search.
func searchPattern(search string) string {
	return "%" + escapeLike(search) + "%"
}

// searchTerm is the term that keeps the posts whose title matches the
// pattern full (a placeholder), as plan reads them; c is what
// searchCandidates gave, its pattern a placeholder, or nothing.
//
//   - walkSearch asks whether the LIKE IS TRUE, the same test for a title
//     (never NULL), which no index serves, and which the planner expects
//     of half the rows whatever the pattern: a page is then the first
//     stretch of the walk in order, never the whole list read in parallel
//     and sorted, which it chose for a LIKE it expected of few rows.
//   - matchSearch finds the candidates through c's index when given, or
//     through posts_title_trgm with the search's own pattern, and tests
//     them as the walk does.
func searchTerm(plan searchPlan, full string, c candidates) string {
	test := `(lower(p.title) LIKE lower(` + full + `) ESCAPE '\') IS TRUE`
	switch {
	case plan == walkSearch:
		return test
	case c.column != "":
		return c.column + ` LIKE lower(` + c.pattern + `) ESCAPE '\'` + "\n  AND " + test
	default:
		return `lower(p.title) LIKE lower(` + full + `) ESCAPE '\'`
	}
}

// candidates are a search's candidates as an index finds them: the LIKE
// pattern asked of the indexed expression column. Every title that holds
// the search matches it, so the search's own test, after it, keeps the
// answer exact. A zero candidates says that the search's own pattern is
// the one to ask posts_title_trgm.
type candidates struct {
	column, pattern string
}

// searchCandidates returns how a search's candidates are found: through
// posts_title_joined_trgm when it runs across words (joinPattern), through
// posts_title_trgm with fewer trigrams than its own when it has words of
// three letters (indexPattern), and by its own pattern otherwise.
func searchCandidates(search string) candidates {
	if p, ok := joinPattern(search); ok {
		return candidates{column: joinedTitle, pattern: p}
	}
	if p, ok := indexPattern(search); ok {
		return candidates{column: "lower(p.title)", pattern: p}
	}
	return candidates{}
}

// joinedTitle is the expression posts_title_joined_trgm (migration 0016)
// indexes, the lower-cased title without its spaces; a query must use this
// one for the planner to take the index.
const joinedTitle = `replace(lower(p.title), ' ', '')`

// joinPattern returns the pattern posts_title_joined_trgm is asked about
// for a search that runs across words (titlejoin.Pieces says which do):
// up to joinWindow characters of the search with its spaces taken out, as
// the index holds the titles, around its first join: "%cefulworke%" for
// "graceful worker", and false for any other search. GIN intersects the
// posting lists of the trigrams from the rarest, skipping through the
// others, so the common trigrams of the words cost little, and together
// with the rare ones of the join they leave few candidates whatever the
// words. Asking the pieces at the joins alone ("%erre%" for "after
// review") left 18,634 candidates to read from the heap for 210 matches at
// a million posts (0.75 to 1.6 s a page, 12.8 req/s); "%afterrevie%" left
// 389. A whole title of 33 letters asked for all its trigrams read 744
// index pages (27 ms) for 1 candidate; ten letters about its first join
// read 160 (3.9 ms) for 2.
func joinPattern(search string) (string, bool) {
	if _, ok := titlejoin.Pieces(search); !ok {
		return "", false
	}
	runes := []rune(search)
	joined := make([]rune, 0, len(runes))
	first := -1
	for i, r := range runes {
		if r != ' ' {
			joined = append(joined, r)
			continue
		}
		if first < 0 && len(joined) > 0 && i+1 < len(runes) && runes[i+1] != ' ' {
			first = len(joined)
		}
	}
	from := max(0, min(first-joinWindow/2, len(joined)-joinWindow))
	to := min(len(joined), from+joinWindow)
	return "%" + escapeLike(string(joined[from:to])) + "%", true
}

// joinWindow is how many characters of a search across words joinPattern
// asks posts_title_joined_trgm about: eight trigrams.
const joinWindow = 10

// indexPattern returns the pattern posts_title_trgm is asked about for a
// search, and false when that is the search's own: of each of its words of
// three letters or digits or more, the first three characters, and the
// last three of a word of six or more, in order, with anything between
// them. A LIKE pattern costs
// posts_title_trgm a posting list per trigram: pg_trgm takes every
// trigram of each word, and pads a word where a space bounds it, so that
// "lazy snapshot of" also asked for every title with a word starting in s
// ("  s") or o ("  o"), 40% and 15% of them in the seeded data. At a
// million posts its bitmap took 19 ms so, %lazy%snapshot% about 30 ms
// under load and %laz%sna%hot% 4 to 8 ms, for the same 1,745 candidates.
func indexPattern(search string) (string, bool) {
	var pieces []string
	for w := range strings.FieldsFuncSeq(search, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		runes := []rune(w)
		if len(runes) >= 3 {
			pieces = append(pieces, string(runes[:3]))
		}
		if len(runes) >= 6 {
			pieces = append(pieces, string(runes[len(runes)-3:]))
		}
	}
	if len(pieces) == 0 {
		return "", false
	}
	p := "%" + strings.Join(pieces, "%") + "%"
	return p, p != searchPattern(search)
}

// after keeps the posts that come after cursor in the newest-first order.
// The row comparison is one index condition on posts_created_at_id.
func (q *postQuery) after(c ports.PostCursor) {
	q.where = append(q.where, "(p.created_at, p.id) < ("+q.arg(dbTime(time.UnixMicro(c.CreatedAt)))+", "+q.arg(c.ID)+")")
}

// whereClause joins the terms; there is always at least the visibility one.
func (q *postQuery) whereClause() string {
	return "\nWHERE " + strings.Join(q.where, "\n  AND ")
}

// pageSQL is the order and the bounds of one page, newest first, which
// posts_created_at_id serves read backwards. A limit of zero or less means
// none, and an offset of zero or less is left out. The limit is written as
// a number (see the top of this file); the offset is a parameter, so that
// paging deeper adds no statement texts. It is built once per page, since
// the offset is added to the arguments.
func (q *postQuery) pageSQL(limit, offset int) string {
	s := "\nORDER BY p.created_at DESC, p.id DESC"
	if limit > 0 {
		s += "\nLIMIT " + strconv.Itoa(limit)
	}
	if offset > 0 {
		s += "\nOFFSET " + q.arg(int64(offset))
	}
	return s
}

// listSQL is the statement of the page that pageSQL bounds, each post with
// its author joined, a look-up of users_pkey per row.
func (q *postQuery) listSQL(page string) string {
	return "SELECT " + postColumns + ",\n       " + authorColumns +
		"\nFROM posts p\nJOIN users u ON u.id = p.author_id" + q.whereClause() + page
}

// pagePart is the part of a page a row of pageUnionSQL holds.
type pagePart int32

const (
	pagePost pagePart = iota
	pageTag
	pageCounts
)

// pageUnionSQL is the page that pageSQL bounds in one statement: the page
// found once (the CTE page) and read as a union of plain rows, as viewSQL
// reads a post, told apart by the column part (pagePart), with the columns
// of the other parts NULL:
//
//	part  posts          users       tags   counts
//	0     a post         its author  -      -
//	1     the post's id  -           a tag  -
//	2     -              -           -      countsSQL's three numbers
//
// The counts come when t is counted. One statement is one pass through a
// pooler, and one snapshot: every post of the page has its tags. The rows
// come in no particular order. It adds t's author to q's arguments.
func (q *postQuery) pageUnionSQL(page string, t postcount.Tally) string {
	s := "WITH page AS MATERIALIZED (\nSELECT " + postColumns + "\nFROM posts p" + q.whereClause() + page + ")" +
		"\nSELECT 0, " + postColumns + ",\n       " + authorColumns +
		",\n       " + typedNulls(tagTypes) + ", " + typedNulls(countTypes) +
		"\nFROM page p\nJOIN users u ON u.id = p.author_id" +
		"\nUNION ALL\nSELECT 1, p.id, " + nulls(postWidth-1+authorWidth) +
		",\n       " + tagColumns + ", " + nulls(len(countTypes)) +
		"\nFROM page p\nJOIN post_tags pt ON pt.post_id = p.id\nJOIN tags t ON t.id = pt.tag_id"
	if t.Counted() {
		s += "\nUNION ALL\nSELECT 2, " + nulls(postWidth+authorWidth+len(tagTypes)) + ", c.*" +
			"\nFROM (" + countsOf(q.arg(t.Author)) + ") AS c"
	}
	return s
}

// deepOffset is the offset from which a page of the published posts is
// read by walkSQL rather than listSQL: below it, the few rows listSQL
// reads cost less than a round trip more for the total first.
const deepOffset = 1000

// walkSQL is the statement of the page of the published posts that w
// reaches, with their authors; $1 is w.Skip. It skips w.Skip entries of
// posts_published, an index-only scan that holds each post's id beside its
// place in the list and reads no row, and reads the page's rows alone; a
// backward walk skips from the oldest post.
func walkSQL(w postcount.Walk) string {
	order := "created_at DESC, id DESC"
	if w.Backward {
		order = "created_at, id"
	}
	return "SELECT " + postColumns + ",\n       " + authorColumns +
		"\nFROM posts p\nJOIN users u ON u.id = p.author_id" +
		"\nWHERE p.id IN (SELECT id FROM posts WHERE status = 'published'" +
		"\n               ORDER BY " + order + "\n               LIMIT " + strconv.Itoa(w.Take) + " OFFSET $1)" +
		"\nORDER BY p.created_at DESC, p.id DESC"
}

// countSQL is the statement that counts the matching posts.
func (q *postQuery) countSQL() string {
	return "SELECT count(*)\nFROM posts p" + q.whereClause()
}

// views runs a statement built by listSQL on conn.
func (q *postQuery) views(ctx context.Context, conn db.DBTX, sql string) ([]ports.PostView, error) {
	rows, err := conn.Query(ctx, sql, q.queryArgs()...)
	if err != nil {
		return nil, err
	}
	return collectViews(rows)
}

// collectViews reads the rows of a list with authors. The rows are
// scanned into one pair of records, which ForEachRow reuses, and appended to
// a slice sized for a page: pgx.CollectRows would allocate both per row and
// grow the slice as it goes.
func collectViews(rows pgx.Rows) ([]ports.PostView, error) {
	views := make([]ports.PostView, 0, viewsPerPage)
	var p db.Post
	var u domain.Author
	_, err := pgx.ForEachRow(rows, append(postFields(&p), authorFields(&u)...), func() error {
		views = append(views, ports.PostView{Post: postOf(p), Author: u})
		return nil
	})
	return views, err
}

// viewsPerPage is the capacity collectViews starts with: a page of the
// default size and the one more post a cursor page reads.
const viewsPerPage = 16

// count runs the statement built by countSQL on conn.
func (q *postQuery) count(ctx context.Context, conn db.DBTX) (int64, error) {
	var n int64
	err := conn.QueryRow(ctx, q.countSQL(), q.queryArgs()...).Scan(&n)
	return n, err
}
