// Package adminsearch chooses how a store finds a page of a console search
// (accounts by name or e-mail, posts by title, drafts included) and its
// total counted up to a bound (ports.BoundedTotal), without trusting a
// query planner's guess of how many rows match.
//
// A search is answered by up to three reads, each bounded by what it is
// asked, the cheap ones first (in this order unless Finder.IndexFirst
// asks for the index before the walk):
//
//  1. Walk reads the newest-first list (an index in the list's order) and
//     tests each row, stopping after bound+1 matches or walkPerRow rows for
//     each row up to the page's end. A common word (1 row in 50 or more for
//     the first page and a bound of 200) ends here: its page is the top of
//     what the walk found, and its total "more than bound". Counting a
//     common word's matches exactly is what a console search cost most:
//     at a million posts, the trigram index alone took 87 ms to list the
//     43,561 titles holding "graceful", where the walk finds 201 of them in
//     under 5,000 rows.
//  2. Otherwise Matches asks the store's text index (a trigram index) for
//     up to bound+1 matches, in no order. A rarer word has at most bound of
//     them: they are the whole answer, its exact total and, sorted here,
//     its page. When the walk did not find the page either, Matches reads up to
//     sortReach+1 matches, so that a word with more than bound matches but
//     fewer than that has its page sorted from them too.
//  3. A word between the two takes its page from the walk when it found
//     the page, and otherwise from Sorted, which reads the first
//     offset+limit matches in order through the text index and a sort.
//
// The planner is asked for none of these choices: the reads are written so
// that each has one way to run (but for the scan or index of Matches on
// PostgreSQL, see adapters/postgres/adminsearch.go), and the walk's budget
// bounds what a wrong first guess costs.
//
// Every read tests the rows with the store's own comparison (an exact
// LIKE or instr over the folded text), so that the answer is the one a
// plain scan gives; the index only finds candidates.
package adminsearch

import (
	"cmp"
	"context"
	"slices"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Key is a row's place in a newest-first list: CreatedAt then ID for
// posts (in microseconds, as ports.PostCursor), ID alone (CreatedAt zero)
// for accounts.
type Key = ports.PostCursor

// Newest orders keys newest first, as the console's lists are.
func Newest(a, b Key) int {
	return cmp.Or(cmp.Compare(b.CreatedAt, a.CreatedAt), cmp.Compare(b.ID, a.ID))
}

// IDs returns the ids of keys, in their order: what a store reads the
// page's rows by.
func IDs(keys []Key) []int64 {
	ids := make([]int64, len(keys))
	for i, k := range keys {
		ids[i] = k.ID
	}
	return ids
}

// Finder is how a store reads the matches of one search.
type Finder struct {
	// Matches returns up to limit matches, in any order, found through
	// the store's text index.
	Matches func(ctx context.Context, limit int) ([]Key, error)
	// Walk returns the matches among the first examine rows of the
	// newest-first list, newest first, at most take of them.
	Walk func(ctx context.Context, examine, take int) ([]Key, error)
	// Sorted returns the first take matches, newest first.
	Sorted func(ctx context.Context, take int) ([]Key, error)
	// IndexFirst asks Matches before walking: for an index that reads its
	// lists as far as it is asked, in id order (FTS5), so that bound+1
	// matches of a common word cost little, while a walk costs a rare word
	// its whole budget; how far apart those matches lie then says whether
	// a walk would find the page (walkReaches). PostgreSQL's GIN index
	// builds a word's whole bitmap first, and walks first.
	IndexFirst bool
}

// maxWalk bounds a walk, whatever the page: a deep page of a search whose
// walk would pass more rows reads its matches through the index instead
// (at a million posts, page 30 of "inkwell" walked 150,000 posts).
const maxWalk = 20_000

// sortReach is how many matches a search the walk did not serve reads
// through the index to sort them itself, rather than ask the index twice
// (once for the count, once for the page in order): a trigram match costs
// the most in the index's lists, not in the rows it returns, so that a
// phrase of common words ("graceful worker", 262 titles) paid it twice.
const sortReach = 5_000

// walkPerRow is how many rows of the list Walk examines for each row up to
// the page's end: a walk that finds the page has matches of 1 row in 200
// or more. A row walked costs one to two microseconds on either store, so
// the first page's walk stays within 10,000 rows, about 10 ms at worst,
// which is what a rare word pays before the index finds it.
const walkPerRow = 200

// Page returns the keys of page among the matches f reads, newest first,
// and their total counted up to bound (ports.BoundedTotal); bound 0 counts
// every match.
func Page(ctx context.Context, f Finder, page ports.Page, bound int) ([]Key, int, error) {
	end := page.Offset + page.Limit
	if bound <= 0 {
		// An exact total: every match is read, as a plain scan would.
		all, err := f.Sorted(ctx, -1)
		if err != nil {
			return nil, 0, err
		}
		return cut(all, page), len(all), nil
	}
	if page.Limit <= 0 {
		// No page size: every match to the end, which only Sorted gives.
		all, err := f.Sorted(ctx, -1)
		if err != nil {
			return nil, 0, err
		}
		return cut(all, page), ports.BoundedTotal(len(all), bound), nil
	}
	walk := func(take int) ([]Key, error) { return f.Walk(ctx, min(walkPerRow*end, maxWalk), take) }
	var (
		walked []Key
		err    error
	)
	if !f.IndexFirst {
		if walked, err = walk(max(end, bound+1)); err != nil {
			return nil, 0, err
		}
		if len(walked) > bound {
			return cut(walked, page), bound + 1, nil
		}
	}
	// The index gives the count up to bound+1 and, when a walk did not
	// find the page, up to sortReach+1 matches, in which all of a rare
	// word's lie.
	want := bound + 1
	if !f.IndexFirst && len(walked) < end {
		want = max(want, sortReach+1)
	}
	m, err := f.Matches(ctx, want)
	if err != nil {
		return nil, 0, err
	}
	if len(m) < want || len(m) <= bound {
		// Every match is in m.
		slices.SortFunc(m, Newest)
		return cut(m, page), ports.BoundedTotal(len(m), bound), nil
	}
	if f.IndexFirst && walkReaches(m, end, min(walkPerRow*end, maxWalk)) {
		if walked, err = walk(end); err != nil {
			return nil, 0, err
		}
	}
	if len(walked) >= end {
		return cut(walked, page), bound + 1, nil
	}
	if f.IndexFirst {
		if m, err = f.Matches(ctx, sortReach+1); err != nil {
			return nil, 0, err
		}
		if len(m) <= sortReach {
			slices.SortFunc(m, Newest)
			return cut(m, page), bound + 1, nil
		}
	}
	sorted, err := f.Sorted(ctx, end)
	if err != nil {
		return nil, 0, err
	}
	return cut(sorted, page), bound + 1, nil
}

// Users is the page of accounts f finds (Page) and their total, read by
// byIDs, which reads in id order, and put newest first. An account deleted
// since its key was read is left out.
func Users(ctx context.Context, f Finder, page ports.Page, bound int, byIDs func(context.Context, []int64) ([]domain.User, error)) ([]domain.User, int, error) {
	keys, total, err := Page(ctx, f, page, bound)
	if err != nil {
		return nil, 0, err
	}
	users, err := byIDs(ctx, IDs(keys))
	if err != nil {
		return nil, 0, err
	}
	slices.Reverse(users)
	return users, total, nil
}

// Posts is the page of posts f finds (Page) and their total, read by
// byIDs and put newest first. A post deleted since its key was read is
// left out.
func Posts(ctx context.Context, f Finder, page ports.Page, bound int, byIDs func(context.Context, []int64) ([]domain.Post, error)) ([]domain.Post, int, error) {
	keys, total, err := Page(ctx, f, page, bound)
	if err != nil {
		return nil, 0, err
	}
	posts, err := byIDs(ctx, IDs(keys))
	if err != nil {
		return nil, 0, err
	}
	slices.SortFunc(posts, func(a, b domain.Post) int {
		return Newest(Key{CreatedAt: a.CreatedAt().UnixMicro(), ID: a.ID()}, Key{CreatedAt: b.CreatedAt().UnixMicro(), ID: b.ID()})
	})
	return posts, total, nil
}

// walkReaches reports whether a walk of budget rows is likely to find end
// matches, judged from m, the first matches an index that reads in id
// order (FTS5) gave: as many matches as m among the ids up to m's highest
// say how many ids a match takes. At a million posts, "graceful worker"
// (262 titles) had its 201st match near id 770,000, and walked 10,000
// posts in vain before it read its matches. Only the choice of read
// depends on it, never the answer.
func walkReaches(m []Key, end, budget int) bool {
	var top int64
	for _, k := range m {
		top = max(top, k.ID)
	}
	return int64(end)*top <= int64(budget)*int64(len(m))
}

// cut returns the keys of page among keys, which start at the list's top.
func cut(keys []Key, page ports.Page) []Key {
	from := min(max(page.Offset, 0), len(keys))
	to := len(keys)
	if page.Limit > 0 {
		to = min(from+page.Limit, to)
	}
	return keys[from:to]
}

// LowerASCII folds the letters A to Z of s and leaves every other byte as
// it is: the case an account search ignores (ports.AdminUserQuery), the
// one that SQLite's lower() and PostgreSQL's lower() under the C collation
// fold.
func LowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
