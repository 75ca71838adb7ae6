package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/inkwell/inkwell/adapters/internal/titlejoin"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// A search of three characters or more with no author or tag (titleSearch)
// finds its published posts in published_titles, and that phrase match is
// most of what such a page costs: at a million posts, "inkwell" (8,469
// published titles) took 2.5 ms to count, spent in FTS5's phrase matching
// and, under load, in the allocator's lock that matching takes for each
// candidate. Counted and listed apart, a page would evaluate it twice;
// here it is evaluated once:
//
//   - the page with its total (searchPage) reads the matching ids into Go
//     (titleMatches), counts them, and finds the page by walking
//     posts_published newest first and probing them, or by looking the
//     matches up and sorting them when the walk would be long
//     (matchedKeys);
//   - a page near the start of a search whose total is kept asks
//     published_titles about the newest entries of posts_published only
//     (batchAfter): as many as are expected to hold the page, and half as
//     many again. Their bounds are kept while the published titles stay
//     as they were (batchCache), so that, whatever the search, such a page
//     costs the matches in a narrow range of ids: at a million posts, on a
//     busy machine, a first page of "re met" (2,269 titles) took 4.6 ms
//     against 52 through the whole match, "st de" (4,327) 3.3 against 27,
//     "better dat" (430) 7.4 against 31 and "graceful worker" (222) 4.3
//     against 14;
//   - the page after a cursor (searchAfter) needs no total, and first asks
//     published_titles about the next entries of posts_published only
//     (batchAfter), which costs a fraction of the whole match; it falls back
//     to the whole match when those entries hold too few matches.
//
// The viewer's own posts that are not published are not in
// published_titles: they are read from posts_author_id, as the count reads
// them, and merged in order. Both kinds of page find the keys,
// (created_at, id), of the page's posts first and read their rows last
// (byKeys), all their statements on one snapshot (snapshot): a page read in
// pieces must not lose a post deleted, or show one unpublished, in between.

// titleSearch returns the folded needle of f, and whether f is a search the
// pages here serve: three characters or more, no author, no tag, and the
// published posts with, when Status is "", the viewer's own.
func titleSearch(f ports.PostFilter) (string, bool) {
	needle := strings.ToLower(f.Search)
	ok := trigramSearch(needle) && f.AuthorID == 0 && f.TagSlug == "" &&
		(f.Status == "" || f.Status == domain.StatusPublished)
	return needle, ok
}

// ownPosts reports whether a titleSearch f lists the viewer's posts that
// are not published.
func ownPosts(f ports.PostFilter) bool {
	return f.Viewer != 0 && f.Status == ""
}

// snapshot runs fn on views whose reads share one snapshot: a read
// transaction of their own outside a transaction, the transaction inside
// one.
func (r postViews) snapshot(ctx context.Context, fn func(postViews) error) error {
	if r.c.readTx == nil {
		return fn(r)
	}
	return r.c.readTx(ctx, func(tx db.DBTX) error {
		c := r.c
		c.read, c.readDB, c.readTx = db.New(tx), tx, nil
		return fn(postViews{c})
	})
}

// searchPage returns a page of the posts a titleSearch f matches, newest
// first, and how many it matches.
//
// The total of the published matches is kept in r.c.totals at the version
// of the published titles this snapshot reads (package searchtotal). While
// it holds, a page near the start is found as a cursor page is
// (batchAfter), without the whole match: the first offset+limit published
// matches, merged with the viewer's own posts, among a batch of the newest
// entries (batchFor) whose bounds r.c.batches keeps at the same version.
func (r postViews) searchPage(ctx context.Context, f ports.PostFilter, needle string, page ports.Page) ([]domain.Post, int, error) {
	var own []ports.PostCursor
	var err error
	if ownPosts(f) {
		if own, err = r.ownMatches(ctx, f.Viewer, needle, nil, nil, 0); err != nil {
			return nil, 0, err
		}
	}
	var version int64
	known := -1
	var m titleMatches
	// matched is set when m holds the whole match already.
	matched := false
	if r.c.totals != nil {
		// The number of published posts comes with the version, from the
		// same counters (migration 0006).
		var published int
		err := r.c.readDB.QueryRowContext(ctx, `SELECT coalesce(sum(title_changes), 0), coalesce(sum(published), 0) FROM post_counts`).
			Scan(&version, &published)
		if err != nil {
			return nil, 0, storeError("read the published titles' version", err)
		}
		n, ok := r.c.totals.Get(needle, version)
		if !ok {
			// A search nobody has counted yet is counted by one reader
			// (searchtotal.Cache.Share), whose whole match this page then
			// uses; the readers that ask meanwhile wait for its total and
			// go on as if it had been kept. Fifty readers of a new search
			// each evaluating its phrase at once answered nothing within
			// ten seconds at a million posts.
			var counted bool
			n, counted, err = r.c.totals.Share(ctx, needle, version, func() (int, int64, error) {
				m, err = r.titleMatches(ctx, needle, -1)
				return len(m.ids), version, err
			})
			if err != nil {
				return nil, 0, err
			}
			ok = !counted
		}
		if ok {
			known = n
			// A batch holding fewer matches than expected (11 of "fast re"'s
			// 1,692 among the newest 11,520 posts, where 23 were) is followed
			// by one twice as long rather than by the whole match, which
			// took 50 ms for that search.
			reach := page.Offset + page.Limit
			for batch, ok := batchFor(reach, n, published); ok && batch <= maxBatch; batch *= 2 {
				b, kept := r.c.batches.Get(batch, version)
				if !kept {
					if b, err = r.walkBatch(ctx, nil, batch); err != nil {
						return nil, 0, err
					}
					r.c.batches.Put(batch, version, b)
				}
				keys, ok, err := r.batchAfter(ctx, needle, n, nil, reach, batch, b)
				if err != nil || ok {
					return r.cutPage(ctx, keys, own, page, n+len(own), err)
				}
			}
		} else {
			matched = true
		}
	}

	if !matched {
		if m, err = r.titleMatches(ctx, needle, known); err != nil {
			return nil, 0, err
		}
		if r.c.totals != nil {
			r.c.totals.Put(needle, version, len(m.ids))
		}
	}
	total := len(m.ids) + len(own)
	if page.Offset >= total {
		return []domain.Post{}, total, nil
	}
	if len(own) == 0 {
		keys, err := r.matchedKeys(ctx, m, nil, page.Offset, page.Limit)
		return r.cutPage(ctx, keys, nil, ports.Page{Limit: page.Limit}, total, err)
	}
	keys, err := r.matchedKeys(ctx, m, nil, 0, page.Offset+page.Limit)
	return r.cutPage(ctx, keys, own, page, total, err)
}

// cutPage reads the rows of page, cut from the first offset+limit
// published matches, keys, merged with the viewer's posts, own, in which
// they take their places; total and a preceding err pass through.
func (r postViews) cutPage(ctx context.Context, keys, own []ports.PostCursor, page ports.Page, total int, err error) ([]domain.Post, int, error) {
	if err != nil {
		return nil, 0, err
	}
	if len(own) > 0 {
		keys = mergeNewest(keys, own)
	}
	keys = keys[min(page.Offset, len(keys)):min(page.Offset+page.Limit, len(keys))]
	list, err := r.byKeys(ctx, keys)
	return list, total, err
}

// batchedReach is how far into a search searchPage reaches through
// batchAfter when it knows the total: up to offset+limit 48, whose
// 48 × batchPerPost entries of posts_published cost about as much as the
// whole match.
const batchedReach = 48

// batchFor returns how many entries of posts_published searchPage asks
// about (batchAfter) for the first reach matches of a search known to match
// n of published posts: where the matches are spread evenly, the stretch
// that holds reach of them and half as much again, and at least
// batchPerPost entries a match, that floor doubled as often as it takes,
// so that the searches share a few batches' bounds (batchCache); false
// when reach is past batchedReach or the batch would be longer than
// maxBatch.
func batchFor(reach, n, published int) (int, bool) {
	if reach > batchedReach || n <= 0 {
		return 0, false
	}
	batch := reach * batchPerPost
	for want := reach * published / n * 3 / 2; batch < want; {
		batch *= 2
	}
	return batch, batch <= maxBatch
}

// maxBatch is the longest batch searchPage asks about: a fifth of a
// million posts, for a search in about 1 title in 8,000.
const maxBatch = 1 << 18

// searchAfter returns up to limit posts a titleSearch f matches after
// cursor, newest first.
func (r postViews) searchAfter(ctx context.Context, f ports.PostFilter, needle string, cursor *ports.PostCursor, limit int) ([]domain.Post, error) {
	batch := limit * batchPerPost
	b, err := r.walkBatch(ctx, cursor, batch)
	if err != nil {
		return nil, err
	}
	keys, ok, err := r.batchAfter(ctx, needle, -1, cursor, limit, batch, b)
	if err != nil {
		return nil, err
	}
	if !ok {
		m, err := r.titleMatches(ctx, needle, -1)
		if err != nil {
			return nil, err
		}
		if keys, err = r.matchedKeys(ctx, m, cursor, 0, limit); err != nil {
			return nil, err
		}
	}
	if ownPosts(f) {
		// A page of limit published posts ends at the last of them: the
		// viewer's posts past it come after the page.
		var to *ports.PostCursor
		if len(keys) == limit {
			to = &keys[limit-1]
		}
		own, err := r.ownMatches(ctx, f.Viewer, needle, cursor, to, limit)
		if err != nil {
			return nil, err
		}
		keys = mergeNewest(keys, own)
		keys = keys[:min(limit, len(keys))]
	}
	return r.byKeys(ctx, keys)
}

// batchPerPost is how many entries of posts_published batchAfter walks for
// each post of the page. A page of 16 walks 3,072, among which a search
// found in 1 published title in 100 has 31 matches on average and fewer
// than 16 once in 700 pages; with 128 a post, one page in 7 would fall back
// to the whole match. At a million posts, the first page of such a search
// took 0.92, 1.07 and 1.17 ms with 128, 192 and 256 entries a post.
const batchPerPost = 192

// batchAfter returns the keys of the first take published posts after
// cursor whose title holds needle, found among the batch b of entries of
// posts_published (walkBatch): published_titles is asked only about the
// rowids between the lowest and the highest of those entries, which, where
// ids grow with created_at as posts are written, is a narrow range. ok is
// false when those entries hold fewer matches than take and the list goes
// on past them. known is the search's total when kept, and -1 otherwise: a
// search known to match few titles asks for its candidates (matchTerms),
// tested on their titles.
//
// FTS5 reaches a range of rowids from one end of the index, its lowest
// rowid unless the query orders them DESC: at a million posts, "inkwell"
// over 2,000 rowids cost 0.34 ms read down from the top and 1.1 ms read up
// to it, and the whole match 2.5 ms. The range is read from its nearer
// end; a batch whose ids spread over more than half of all ids (posts
// written with older times, say) would cost about the whole match, and is
// not asked about.
//
// The matches in the range of ids, no older than the batch's oldest time,
// are looked up by rowid: the posts of the batch and, of the posts as old
// as its oldest, those of higher ids than the batch reached, which come
// before the rest in the list, so that the matches are still those of a
// stretch from the start of the list.
func (r postViews) batchAfter(ctx context.Context, needle string, known int, cursor *ports.PostCursor, take, batch int, b batchBounds) (keys []ports.PostCursor, ok bool, err error) {
	if b.walked == 0 {
		return []ports.PostCursor{}, true, nil
	}
	if b.hi-b.lo > b.top/2 {
		return nil, false, nil
	}
	order := "rowid"
	if b.top-b.hi < b.lo {
		order = "rowid DESC"
	}
	index, terms, test := matchTerms(needle, known)
	// The subquery is an IN list, not a table joined: SQLite drops the
	// ORDER BY of a subquery in FROM, and FTS5 then read "inkwel"'s range
	// from its lowest rowid, 5.5 ms against 1.6.
	query := `SELECT p.created_at, p.id FROM posts p
WHERE p.id IN (SELECT rowid FROM ` + index + ` WHERE ` + index + ` MATCH ? AND rowid BETWEEN ? AND ? ORDER BY ` + order + `)
  AND p.status = 'published' AND p.created_at >= ?`
	args := []any{terms, b.lo, b.hi, b.oldest}
	if test {
		query += ` AND instr(` + lowerFunc + `(p.title), ?) > 0`
		args = append(args, needle)
	}
	if cursor != nil {
		query += ` AND (p.created_at, p.id) < (?, ?)`
		args = append(args, cursor.CreatedAt, cursor.ID)
	}
	query += "\n" + newestFirst + "\nLIMIT " + strconv.Itoa(take)
	keys, err = r.keys(ctx, "list published posts by title", query, args...)
	if err != nil {
		return nil, false, err
	}
	return keys, len(keys) == take || b.walked < batch, nil
}

// walkBatch walks the next batch entries of posts_published after cursor
// (from the start when nil) for their bounds.
func (r postViews) walkBatch(ctx context.Context, cursor *ports.PostCursor, batch int) (batchBounds, error) {
	walk := `SELECT created_at, id FROM posts WHERE status = 'published'`
	var args []any
	if cursor != nil {
		walk += ` AND (created_at, id) < (?, ?)`
		args = append(args, cursor.CreatedAt, cursor.ID)
	}
	walk += ` ORDER BY created_at DESC, id DESC LIMIT ` + strconv.Itoa(batch)
	var lo, hi, oldest, top sql.NullInt64
	var b batchBounds
	err := r.c.readDB.QueryRowContext(ctx, `SELECT min(id), max(id), min(created_at), count(*), (SELECT max(id) FROM posts) FROM (`+walk+`)`,
		args...).Scan(&lo, &hi, &oldest, &b.walked, &top)
	if err != nil {
		return batchBounds{}, storeError("bound published posts", err)
	}
	b.lo, b.hi, b.oldest, b.top = lo.Int64, hi.Int64, oldest.Int64, top.Int64
	return b, nil
}

// matchTerms returns the FTS5 table and query that find the titles holding
// needle, and whether they find candidates only, to be tested on their
// titles: a search known to match few titles (known up to sparseMatches)
// asks for its candidates (joinQuery, candidateQuery), any other for its
// phrase.
func matchTerms(needle string, known int) (index, terms string, test bool) {
	if known >= 0 && known <= sparseMatches {
		if terms, ok := joinQuery(needle); ok {
			return "published_joined_titles", terms, true
		}
		if terms, ok := candidateQuery(needle); ok {
			return "published_titles", terms, true
		}
	}
	return "published_titles", ftsPhrase(needle), false
}

// titleMatches are the ids of the published posts whose title holds a
// needle, ascending, and the same ids as group_concat wrote them; keys are
// their keys, in the same order, when the match read them (a sparse one).
type titleMatches struct {
	ids  []int64
	text string
	keys []ports.PostCursor
}

// has reports whether id is one of m's.
func (m titleMatches) has(id int64) bool {
	_, ok := slices.BinarySearch(m.ids, id)
	return ok
}

// titleMatches evaluates the match of needle in published_titles. The ids
// come in one row: 8,469 of them took 2.7 ms as one group_concat against
// 3.9 ms as as many rows. known is how many there are, when a kept total
// says so, and -1 otherwise: a search known to match few titles is asked
// of the index as candidateQuery's AND and tested on the candidates' titles
// (sparseMatches), and the keys of the matches come with their ids from
// the rows read for that test, so that matchedKeys need not look each one
// up again (222 of them cost 14% of a page of "graceful worker").
func (r postViews) titleMatches(ctx context.Context, needle string, known int) (titleMatches, error) {
	var text, times sql.NullString
	if index, terms, test := matchTerms(needle, known); test {
		// Both texts are written from the rows of one subquery, in its
		// order.
		err := r.c.readDB.QueryRowContext(ctx, `SELECT group_concat(id), group_concat(created_at) FROM (
SELECT p.id, p.created_at FROM posts p
WHERE p.id IN (SELECT rowid FROM `+index+` WHERE `+index+` MATCH ?)
  AND instr(`+lowerFunc+`(p.title), ?) > 0
ORDER BY p.id)`, terms, needle).Scan(&text, &times)
		if err != nil {
			return titleMatches{}, storeError("match published titles", err)
		}
		m, err := parseMatches(text.String)
		if err != nil || m.text == "" {
			return m, err
		}
		m.keys = make([]ports.PostCursor, 0, len(m.ids))
		for field := range strings.SplitSeq(times.String, ",") {
			at, err := strconv.ParseInt(field, 10, 64)
			if err != nil || len(m.keys) == len(m.ids) {
				return titleMatches{}, fmt.Errorf("sqlite: match published titles: time %q of %d ids: %v", field, len(m.ids), err)
			}
			m.keys = append(m.keys, ports.PostCursor{CreatedAt: at, ID: m.ids[len(m.keys)]})
		}
		if len(m.keys) != len(m.ids) {
			return titleMatches{}, fmt.Errorf("sqlite: match published titles: %d times for %d ids", len(m.keys), len(m.ids))
		}
		return m, nil
	}
	err := r.c.readDB.QueryRowContext(ctx, `SELECT group_concat(rowid) FROM published_titles WHERE published_titles MATCH ?`,
		ftsPhrase(needle)).Scan(&text)
	if err != nil {
		return titleMatches{}, storeError("match published titles", err)
	}
	m, err := parseMatches(text.String)
	if err != nil {
		return titleMatches{}, err
	}
	// FTS5 gives its rowids in ascending order, which group_concat does not
	// promise to keep.
	if !slices.IsSorted(m.ids) {
		slices.Sort(m.ids)
	}
	return m, nil
}

// parseMatches reads the ids group_concat wrote into text.
func parseMatches(text string) (titleMatches, error) {
	m := titleMatches{text: text}
	if m.text == "" {
		return m, nil
	}
	m.ids = make([]int64, 0, strings.Count(m.text, ",")+1)
	for s := range strings.SplitSeq(m.text, ",") {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return titleMatches{}, fmt.Errorf("sqlite: match published titles: rowid %q: %w", s, err)
		}
		m.ids = append(m.ids, id)
	}
	return m, nil
}

// sparseMatches is the most matches a search may be known to have for
// titleMatches to find them as candidates (candidateQuery) whose titles it
// tests. A phrase of FTS5's trigram tokenizer checks the positions of each
// of its trigrams in every title that holds them all, which costs most
// where the phrase spans words that are common apart: at a million posts,
// "graceful worker" (222 titles, 1,520 with both words) took 18 ms and
// "lazy snapshot of" (1 title) 11 to 36 ms as phrases. The titles cost
// about 4 µs each to read and test, so the candidates pay only where the
// matches are few; "journey" (36,736 titles) took 47 ms as a phrase, and
// the AND of its trigrams alone 5.8 ms.
const sparseMatches = 2000

// candidateQuery returns an FTS5 query that holds every title holding
// needle and reads no positions, and false when needle is too short to
// give more than its own phrase: the AND of its first and last trigrams
// and of those that run across words (a letter or digit, a space or
// punctuation, a letter or digit), which join two words' edges and are
// rare where the words are common; a needle without any instead gives the
// trigrams at every third character and the last, which cover it. At a
// million posts, "l w" AND "gra" AND "ker" found the 406 candidates of
// "graceful worker" in 2.9 ms, 4.8 ms with their titles tested.
func candidateQuery(needle string) (string, bool) {
	runes := []rune(needle)
	if len(runes) < 6 {
		return "", false
	}
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	terms := []string{string(runes[:3])}
	for i := 1; i+3 < len(runes); i++ {
		if word(runes[i]) && !word(runes[i+1]) && word(runes[i+2]) {
			terms = append(terms, string(runes[i:i+3]))
		}
	}
	if len(terms) == 1 {
		for i := 3; i+3 <= len(runes); i += 3 {
			terms = append(terms, string(runes[i:i+3]))
		}
	}
	terms = append(terms, string(runes[len(runes)-3:]))
	return andOfRarest(terms), true
}

// joinQuery returns an FTS5 query of published_joined_titles that holds
// every title holding needle: the AND of the phrases of its pieces
// (titlejoin.Pieces) of three characters or more, "ulwo" for "graceful
// worker", and of the first and last three characters of needle without
// its spaces, "gra" and "ker"; false when needle runs across no words or
// its pieces are shorter. At a million posts, "ulwo" found 422 candidates
// in 0.3 ms, and with their titles tested the 222 matches in 2.2 ms,
// against 5.5 ms through candidateQuery. The pieces alone are common where
// a common word ends and another begins: "erli" of "developer list" left
// 3,502 candidates for 223 matches (27 to 48 ms with their titles
// tested), and with "dev" and "ist" 275 (5 ms); "reo" of "before o" 4,306
// for 846, and with "bef" 966.
func joinQuery(needle string) (string, bool) {
	pieces, ok := titlejoin.Pieces(needle)
	if !ok {
		return "", false
	}
	joined := []rune(strings.ReplaceAll(needle, " ", ""))
	var kept []string
	for _, p := range append(pieces, string(joined[:3]), string(joined[len(joined)-3:])) {
		// An end that a piece holds already adds nothing.
		if utf8.RuneCountInString(p) < 3 || slices.ContainsFunc(kept, func(k string) bool { return strings.Contains(k, p) }) {
			continue
		}
		kept = append(kept, p)
	}
	return andOfRarest(kept), true
}

// maxTerms is the most terms andOfRarest asks FTS5 about. Each term costs
// its posting list, and a phrase's positions, in every title that holds
// all of them, while a few rare ones leave a handful of candidates: at a
// million posts, the nine terms of a one-title search of nine words
// ("onco" AND "xtag" AND … AND "age") took 11 to 15 ms, its two rarest,
// "xtag" AND "stqu", 1.8 ms for 3 candidates, and "onco", of words common
// on either side, 8.6 ms alone.
const maxTerms = 3

// andOfRarest returns the FTS5 AND of the phrases of terms, or of the
// maxTerms of them likeliest to be rare (rarity) where there are more. Any
// of them holds every title that holds them all, and the candidates are
// tested, so the choice costs time only, never an answer.
func andOfRarest(terms []string) string {
	if len(terms) > maxTerms {
		// The rarest, in the order given.
		byRarity := slices.Clone(terms)
		slices.SortStableFunc(byRarity, func(a, b string) int { return cmp.Compare(rarity(b), rarity(a)) })
		bar := rarity(byRarity[maxTerms-1])
		kept := make([]string, 0, maxTerms)
		for _, t := range terms {
			if len(kept) < maxTerms && rarity(t) >= bar {
				kept = append(kept, t)
			}
		}
		terms = kept
	}
	phrases := make([]string, len(terms))
	for i, t := range terms {
		phrases[i] = ftsPhrase(t)
	}
	return strings.Join(phrases, " AND ")
}

// rarity guesses how rare a term is among titles from how rare its
// characters are in English text: the mean of -ln of each character's
// share (e 12.7%, t 9.1%, … q 0.1%, z 0.07%; a space one character in six;
// any other, a digit, punctuation or a letter that is not ASCII, as rare
// as a j). A mean rather than a sum, since a long piece of common letters
// ("ryandte" of "query and test") costs the posting lists of all its
// trigrams: with it, the nine-word search above took 10.6 ms, with "infi"
// instead 5.2. The store keeps no frequencies of its trigrams; a wrong
// guess asks for a commoner term, and costs its posting list.
func rarity(term string) float64 {
	var sum float64
	n := 0
	for _, r := range term {
		n++
		share := 0.0015
		switch {
		case r >= 'a' && r <= 'z':
			share = letterShares[r-'a']
		case r == ' ':
			share = 0.18
		}
		sum -= math.Log(share)
	}
	return sum / float64(max(n, 1))
}

// letterShares are the shares of the letters a to z in English text.
var letterShares = [26]float64{
	0.082, 0.015, 0.028, 0.043, 0.127, 0.022, 0.020, 0.061, 0.070, 0.0015, 0.0077, 0.040, 0.024,
	0.067, 0.075, 0.019, 0.00095, 0.060, 0.063, 0.091, 0.028, 0.0098, 0.024, 0.0015, 0.020, 0.00074,
}

// walkPerMatch is how many entries of posts_published matchedKeys walks
// rather than look up one match: about the ratio of their costs, at a
// million posts 0.18 µs an entry (16,384 took 2.9 ms) against 2.6 µs a
// match looked up and sorted (8,469 took 22 ms).
const walkPerMatch = 14

// matchedKeys returns the keys of the posts of m after cursor (from the
// start when nil), newest first: take of them, after skipping skip. It
// either walks posts_published newest first and probes m, or looks each
// match up by id and sorts them; a walk passes about
// (skip+take) × published ÷ matches entries, and is taken while that is
// within walkPerMatch entries a match. The walk stops there all the same,
// where the matches are sparser than on average (after the last of them,
// say), and looks up the rest.
func (r postViews) matchedKeys(ctx context.Context, m titleMatches, cursor *ports.PostCursor, skip, take int) ([]ports.PostCursor, error) {
	if take <= 0 || skip >= len(m.ids) {
		return []ports.PostCursor{}, nil
	}
	if m.keys != nil {
		return pageOfKeys(m.keys, cursor, skip, take), nil
	}
	published, err := r.count(ctx, ports.PostFilter{})
	if err != nil {
		return nil, err
	}
	matches := int64(len(m.ids))
	walk := int64(skip+take) * int64(published) / matches
	if walk > walkPerMatch*matches {
		return r.sortMatches(ctx, m, cursor, skip, take)
	}
	// The first chunk is the walk expected and a quarter.
	chunk := int(max(walk+walk/4, 64))
	keys, skipped, last, err := r.walkMatches(ctx, m, cursor, skip, take, chunk, walkPerMatch*len(m.ids))
	if err != nil || last == nil {
		return keys, err
	}
	rest, err := r.sortMatches(ctx, m, last, skip-skipped, take-len(keys))
	return append(keys, rest...), err
}

// pageOfKeys returns the keys after cursor (from the start when nil),
// newest first: take of them after skipping skip.
func pageOfKeys(keys []ports.PostCursor, cursor *ports.PostCursor, skip, take int) []ports.PostCursor {
	page := make([]ports.PostCursor, 0, len(keys))
	for _, k := range keys {
		if cursor == nil || newerFirst(*cursor, k) < 0 {
			page = append(page, k)
		}
	}
	slices.SortFunc(page, newerFirst)
	page = page[min(skip, len(page)):]
	return slices.Clip(page[:min(take, len(page))])
}

// walkMatches walks posts_published newest first after cursor, for at most
// budget entries, and returns the keys of the posts of m it passes: take of
// them after skipping skip. skipped is how many it skipped, and last the
// last entry it walked when it stopped at the budget (nil when it found
// take or reached the end). It reads the entries in chunks (nextPublished),
// the first of chunk entries and each next one twice the last.
func (r postViews) walkMatches(ctx context.Context, m titleMatches, cursor *ports.PostCursor, skip, take, chunk, budget int) (keys []ports.PostCursor, skipped int, last *ports.PostCursor, err error) {
	keys = []ports.PostCursor{}
	for walked := 0; walked < budget; chunk *= 2 {
		n := min(chunk, budget-walked)
		entries, err := r.nextPublished(ctx, cursor, n)
		if err != nil {
			return nil, 0, nil, err
		}
		for _, k := range entries {
			switch {
			case !m.has(k.ID):
			case skipped < skip:
				skipped++
			default:
				keys = append(keys, k)
				if len(keys) == take {
					return keys, skipped, nil, nil
				}
			}
		}
		if len(entries) < n {
			return keys, skipped, nil, nil
		}
		walked += n
		cursor = &entries[n-1]
	}
	return keys, skipped, cursor, nil
}

// nextPublished returns the keys of the next n entries of posts_published
// after cursor (from the start when nil), newest first. They come as two
// group_concat texts, which cost less than half as much as rows: at a
// million posts, 16,384 entries took 2.2 ms so and 4.4 ms as rows before
// database/sql even scanned them. group_concat promises no order, so the
// keys are sorted unless they come sorted, as they do. The LIMIT is bound,
// a chunk's size being anything: SQLite then prepares the statement anew,
// a few microseconds a chunk.
func (r postViews) nextPublished(ctx context.Context, cursor *ports.PostCursor, n int) ([]ports.PostCursor, error) {
	query := `SELECT group_concat(created_at), group_concat(id) FROM (
SELECT created_at, id FROM posts WHERE status = 'published'`
	var args []any
	if cursor != nil {
		query += ` AND (created_at, id) < (?, ?)`
		args = append(args, cursor.CreatedAt, cursor.ID)
	}
	query += ` ORDER BY created_at DESC, id DESC LIMIT ?)`
	var times, ids sql.NullString
	if err := r.c.readDB.QueryRowContext(ctx, query, append(args, n)...).Scan(&times, &ids); err != nil {
		return nil, storeError("walk published posts", err)
	}
	keys := make([]ports.PostCursor, 0, n)
	for t, id := times.String, ids.String; t != "" && id != ""; {
		var k ports.PostCursor
		var err error
		var field string
		field, t, _ = strings.Cut(t, ",")
		if k.CreatedAt, err = strconv.ParseInt(field, 10, 64); err == nil {
			field, id, _ = strings.Cut(id, ",")
			k.ID, err = strconv.ParseInt(field, 10, 64)
		}
		if err != nil {
			return nil, fmt.Errorf("sqlite: walk published posts: %w", err)
		}
		keys = append(keys, k)
	}
	if !slices.IsSortedFunc(keys, newerFirst) {
		slices.SortFunc(keys, newerFirst)
	}
	return keys, nil
}

// newerFirst orders keys as the lists do, newest first.
func newerFirst(x, y ports.PostCursor) int {
	return cmp.Or(cmp.Compare(y.CreatedAt, x.CreatedAt), cmp.Compare(y.ID, x.ID))
}

// sortMatches looks each post of m up by id and returns the keys of those
// after cursor, newest first: take of them after skipping skip. The ids
// travel as one JSON array, a single text whatever their number. A bound
// LIMIT makes SQLite prepare the statement anew at each use, a few
// microseconds beside the thousands of rows it may read.
func (r postViews) sortMatches(ctx context.Context, m titleMatches, cursor *ports.PostCursor, skip, take int) ([]ports.PostCursor, error) {
	query := `SELECT p.created_at, p.id FROM posts p
WHERE p.id IN (SELECT value FROM json_each(?))`
	args := []any{"[" + m.text + "]"}
	if cursor != nil {
		query += ` AND (p.created_at, p.id) < (?, ?)`
		args = append(args, cursor.CreatedAt, cursor.ID)
	}
	query += "\n" + newestFirst + "\nLIMIT ? OFFSET ?"
	return r.keys(ctx, "sort published posts by title", query, append(args, take, skip)...)
}

// ownMatches returns the keys of the viewer's posts that are not published
// and whose title holds needle, newest first: those after cursor (from the
// start when nil) down to and including to (to the end when nil), at most
// limit of them (all when limit is 0). It walks posts_author_id and reads
// the viewer's rows in that stretch.
func (r postViews) ownMatches(ctx context.Context, viewer int64, needle string, cursor, to *ports.PostCursor, limit int) ([]ports.PostCursor, error) {
	query := `SELECT p.created_at, p.id FROM posts p
WHERE p.author_id = ? AND p.status <> 'published' AND instr(` + lowerFunc + `(p.title), ?) > 0`
	args := []any{viewer, needle}
	if cursor != nil {
		query += ` AND (p.created_at, p.id) < (?, ?)`
		args = append(args, cursor.CreatedAt, cursor.ID)
	}
	if to != nil {
		query += ` AND (p.created_at, p.id) >= (?, ?)`
		args = append(args, to.CreatedAt, to.ID)
	}
	query += "\n" + newestFirst
	if limit > 0 {
		query += "\nLIMIT " + strconv.Itoa(limit)
	}
	return r.keys(ctx, "list own posts by title", query, args...)
}

// mergeNewest merges two lists of keys, each newest first, into one.
func mergeNewest(a, b []ports.PostCursor) []ports.PostCursor {
	keys := append(slices.Clip(a), b...)
	slices.SortFunc(keys, newerFirst)
	return keys
}

// byKeys reads the rows of the posts of keys, newest first. The ids travel
// as one JSON array, as in sortMatches.
func (r postViews) byKeys(ctx context.Context, keys []ports.PostCursor) ([]domain.Post, error) {
	if len(keys) == 0 {
		return []domain.Post{}, nil
	}
	ids := []byte{'['}
	for i, k := range keys {
		if i > 0 {
			ids = append(ids, ',')
		}
		ids = strconv.AppendInt(ids, k.ID, 10)
	}
	ids = append(ids, ']')
	query := `SELECT ` + postColumns + `
FROM posts p
WHERE p.id IN (SELECT value FROM json_each(?))
` + newestFirst
	return r.query(ctx, "list posts by id", query, string(ids))
}

// keys runs a query of (created_at, id) pairs on readDB and reads them.
func (r postViews) keys(ctx context.Context, op, query string, args ...any) ([]ports.PostCursor, error) {
	rows, err := r.c.readDB.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, storeError(op, err)
	}
	defer rows.Close()
	keys := []ports.PostCursor{}
	for rows.Next() {
		var k ports.PostCursor
		if err := rows.Scan(&k.CreatedAt, &k.ID); err != nil {
			return nil, storeError(op, err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, storeError(op, err)
	}
	return keys, nil
}
