package sqlite

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	sqlitedrv "modernc.org/sqlite"

	"github.com/inkwell/inkwell/adapters/internal/postcount"
	"github.com/inkwell/inkwell/adapters/internal/shorttitle"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The lists of posts (list, count, listAfter) are built here rather than
// generated: a filter's unused parts written as (?1 = '' OR col = ?1) would
// leave SQLite to plan for every value at once, and it would then walk
// posts_created_at_id even for one author's posts. Built from only the
// predicates in use, each list gets the plan its filter allows:
//
//   - no author: posts_created_at_id walked backwards, newest first, with
//     the other predicates checked on the way and no sort;
//   - an author (or the viewer's own drafts): posts_author_id, whose
//     (author_id, created_at, id) also gives the order without a sort;
//   - a tag: post_tags_tag_id finds the tag's posts by tags_slug, and SQLite
//     either probes them while walking the order or sorts the few it found;
//   - a cursor: a row-value range on the same indexes, so a page starts at
//     the cursor instead of skipping the rows before it.
//
// Every value but the page size travels as a parameter; the texts
// themselves are combinations of a fixed set of fragments and the page
// sizes in use, which is what lets each connection keep them prepared
// (stmtcache.go). The page size is written into the text because SQLite
// plans for a bound LIMIT's value and marks the statement to be prepared
// again whenever it is bound anew: measured on 100,000 posts, a page of 16
// after a cursor took 18.7 µs with LIMIT ? and 12.7 µs with LIMIT 16.

// lowerFunc is the SQL name of strings.ToLower. SQLite's lower(), LIKE and
// NOCASE fold ASCII letters only; the search must fold as strings.ToLower
// does, so that "ÉTÉ" finds "été".
const lowerFunc = "inkwell_lower"

func init() {
	// Functions registered with the driver reach every connection opened
	// afterwards, and init runs before any Open. Deterministic lets SQLite
	// evaluate it once per row and use it wherever an expression may appear.
	sqlitedrv.MustRegisterDeterministicScalarFunction(lowerFunc, 1, func(_ *sqlitedrv.FunctionContext, args []driver.Value) (driver.Value, error) {
		switch v := args[0].(type) {
		case nil:
			return nil, nil
		case string:
			return strings.ToLower(v), nil
		case []byte:
			return strings.ToLower(string(v)), nil
		default:
			return nil, fmt.Errorf("%s: want text, got %T", lowerFunc, v)
		}
	})
}

// newestFirst is the order of every list of posts.
const newestFirst = `ORDER BY p.created_at DESC, p.id DESC`

// postWhere renders f, and the cursor when there is one, as a WHERE clause
// with its arguments.
func postWhere(f ports.PostFilter, cursor *ports.PostCursor) (string, []any) {
	var w where
	// Visibility and status are rendered together: published posts are
	// everybody's, drafts their author's only.
	visible := func() {
		if f.Viewer == 0 {
			w.add("p.status = 'published'")
		} else {
			w.add("(p.status = 'published' OR p.author_id = ?)", f.Viewer)
		}
	}
	switch f.Status {
	case "":
		visible()
	case domain.StatusPublished:
		w.add("p.status = 'published'")
	case domain.StatusDraft:
		if f.Viewer == 0 {
			w.add("false") // an anonymous caller sees no draft
		} else {
			// Only the viewer's own drafts are visible; saying so lets the
			// planner walk posts_author_id.
			w.add("p.status = 'draft' AND p.author_id = ?", f.Viewer)
		}
	default:
		visible()
		w.add("p.status = ?", string(f.Status))
	}
	if f.AuthorID != 0 {
		w.add("p.author_id = ?", f.AuthorID)
	}
	if f.TagSlug != "" {
		// IN rather than a join: two tags may share a slug ("C" and "C++"),
		// and a post carrying both must still be listed once.
		w.add(`p.id IN (SELECT pt.post_id FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE t.slug = ?)`, f.TagSlug)
	}
	if f.Search != "" {
		searchWhere(&w, f)
	}
	if cursor != nil {
		// After the cursor in the newest-first order is before it in
		// (created_at, id).
		w.add("(p.created_at, p.id) < (?, ?)", cursor.CreatedAt, cursor.ID)
	}
	return strings.Join(w.preds, "\n  AND "), w.args
}

// searchWhere adds the predicate of f.Search. A search of three characters
// or more is looked up in published_titles (migration 0007), whose trigram
// phrase matches exactly the published titles that contain it once folded,
// a drafts' title is read and compared; a shorter one holds no trigram, and
// every visible title is read and compared. instr compares characters, so
// % and _ are plain characters either way.
func searchWhere(w *where, f ports.PostFilter) {
	needle := strings.ToLower(f.Search)
	if !trigramSearch(needle) {
		w.add("instr("+lowerFunc+"(p.title), ?) > 0", needle)
		return
	}
	if publishedOnly(f) {
		w.add("p.id IN (SELECT rowid FROM published_titles WHERE published_titles MATCH ?)", ftsPhrase(needle))
		return
	}
	w.add("(p.id IN (SELECT rowid FROM published_titles WHERE published_titles MATCH ?)"+
		"\n       OR (p.status <> 'published' AND instr("+lowerFunc+"(p.title), ?) > 0))", ftsPhrase(needle), needle)
}

// trigramSearch reports whether published_titles can answer a search for
// needle, already folded: its trigram tokenizer indexes runs of three
// characters.
func trigramSearch(needle string) bool {
	return utf8.RuneCountInString(needle) >= 3
}

// shortSearch reports whether f searches for one or two characters and
// filters by nothing else, so that searchCount reads its total from the
// counts of migration 0022.
func shortSearch(f ports.PostFilter) bool {
	return f.Search != "" && f.AuthorID == 0 && f.TagSlug == "" && shorttitle.Kept(strings.ToLower(f.Search))
}

// publishedOnly reports whether f keeps published posts only.
func publishedOnly(f ports.PostFilter) bool {
	return f.Status == domain.StatusPublished || (f.Status == "" && f.Viewer == 0)
}

// ftsPhrase quotes needle as an FTS5 phrase, in which every character but
// the doubled quote is literal.
func ftsPhrase(needle string) string {
	return `"` + strings.ReplaceAll(needle, `"`, `""`) + `"`
}

// where collects the predicates of a WHERE clause and their arguments.
type where struct {
	preds []string
	args  []any
}

func (w *where) add(pred string, args ...any) {
	w.preds = append(w.preds, pred)
	w.args = append(w.args, args...)
}

// list returns one page of the posts f matches, newest first.
func (r postViews) list(ctx context.Context, f ports.PostFilter, page ports.Page) ([]domain.Post, error) {
	cond, args := postWhere(f, nil)
	limit, offset := pageBounds(page)
	query := `SELECT ` + postColumns + `
FROM posts p
WHERE ` + cond + `
` + newestFirst + `
LIMIT ` + strconv.FormatInt(limit, 10) + ` OFFSET ?`
	return r.query(ctx, "list posts", query, append(args, offset)...)
}

// deepOffset is the offset from which a page of the published posts is
// read by walk rather than by list: below it, the few rows list reads
// cost less than a statement more for the total first.
const deepOffset = 1000

// listCounted returns one page of the posts f matches, newest first, and
// how many posts f matches.
func (r postViews) listCounted(ctx context.Context, f ports.PostFilter, page ports.Page) ([]domain.Post, int, error) {
	t, tallied := postcount.Of(f)
	if tallied && t == (postcount.Tally{Published: true}) && page.Limit > 0 && page.Offset >= deepOffset {
		total, err := r.count(ctx, f)
		if err != nil {
			return nil, 0, err
		}
		w, ok := postcount.WalkTo(total, page.Offset, page.Limit)
		if !ok {
			return []domain.Post{}, total, nil
		}
		list, err := r.walk(ctx, w)
		return list, total, err
	}
	if needle, ok := titleSearch(f); ok && page.Limit > 0 {
		var list []domain.Post
		var total int
		err := r.snapshot(ctx, func(r postViews) (err error) {
			list, total, err = r.searchPage(ctx, f, needle, page)
			return err
		})
		return list, total, err
	}
	if shortSearch(f) && page.Limit > 0 {
		// The total is kept (searchCount) and the page walks the newest
		// posts, both on one snapshot; past the total there is no walk.
		var list []domain.Post
		var total int
		err := r.snapshot(ctx, func(r postViews) (err error) {
			if total, err = r.count(ctx, f); err != nil || page.Offset >= total {
				list = []domain.Post{}
				return err
			}
			list, err = r.list(ctx, f, page)
			return err
		})
		return list, total, err
	}
	list, err := r.list(ctx, f, page)
	if err != nil {
		return nil, 0, err
	}
	total, err := r.count(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	return list, total, nil
}

// walk returns the page of the published posts that w reaches. It skips
// w.Skip entries of posts_published, which holds each post's id beside its
// place in the list, without reading a row, and reads the rows of the page
// alone; a backward walk skips from the oldest post.
func (r postViews) walk(ctx context.Context, w postcount.Walk) ([]domain.Post, error) {
	order := "created_at DESC, id DESC"
	if w.Backward {
		order = "created_at, id"
	}
	query := `SELECT ` + postColumns + `
FROM posts p
WHERE p.id IN (SELECT id FROM posts WHERE status = 'published'
               ORDER BY ` + order + `
               LIMIT ` + strconv.Itoa(w.Take) + ` OFFSET ?)
` + newestFirst
	return r.query(ctx, "list published posts", query, w.Skip)
}

// count returns how many posts f matches. It answers from the counters of
// migration 0006 whenever postcount allows, with one small read whatever the
// number of posts, and counts the matching posts otherwise.
func (r postViews) count(ctx context.Context, f ports.PostFilter) (int, error) {
	if t, ok := postcount.Of(f); ok {
		if !t.Counted() {
			return 0, nil
		}
		c, err := r.c.read.PostCounts(ctx, t.Author)
		if err != nil {
			return 0, storeError("read post counts", err)
		}
		return int(t.Sum(c.Published, c.AuthorPublished, c.AuthorDrafts)), nil
	}
	if n, ok, err := r.searchCount(ctx, f); ok || err != nil {
		return n, err
	}
	cond, args := postWhere(f, nil)
	query := `SELECT count(*) FROM posts p
WHERE ` + cond
	var n int
	if err := r.c.readDB.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return 0, storeError("count posts", err)
	}
	return n, nil
}

// searchCount counts the posts a search of published_titles matches when
// f filters by nothing else: the index alone counts the published posts, or
// for a search of one or two characters the counts of migration 0022, and
// a viewer's own drafts are added from posts_author_id. It returns false
// for any other filter.
func (r postViews) searchCount(ctx context.Context, f ports.PostFilter) (int, bool, error) {
	needle := strings.ToLower(f.Search)
	short := shorttitle.Kept(needle)
	if f.AuthorID != 0 || f.TagSlug != "" || !(trigramSearch(needle) || short) {
		return 0, false, nil
	}
	var published, drafts int
	switch {
	case !(publishedOnly(f) || f.Status == ""):
	case short:
		var err error
		if published, err = r.shortTitles(ctx, needle); err != nil {
			return 0, true, err
		}
	default:
		err := r.c.readDB.QueryRowContext(ctx, `SELECT count(*) FROM published_titles WHERE published_titles MATCH ?`,
			ftsPhrase(needle)).Scan(&published)
		if err != nil {
			return 0, true, storeError("count published posts by title", err)
		}
	}
	if f.Viewer != 0 && f.Status != domain.StatusPublished {
		// The viewer's own posts that are not published, of the status
		// asked for if any.
		query := `SELECT count(*) FROM posts p
WHERE p.author_id = ? AND p.status <> 'published' AND instr(` + lowerFunc + `(p.title), ?) > 0`
		args := []any{f.Viewer, needle}
		if f.Status != "" {
			query += ` AND p.status = ?`
			args = append(args, string(f.Status))
		}
		if err := r.c.readDB.QueryRowContext(ctx, query, args...).Scan(&drafts); err != nil {
			return 0, true, storeError("count own posts by title", err)
		}
	}
	return published + drafts, true, nil
}

// listAfter returns up to limit posts f matches that come after cursor in
// the newest-first order (from the start when cursor is nil).
func (r postViews) listAfter(ctx context.Context, f ports.PostFilter, cursor *ports.PostCursor, limit int) ([]domain.Post, error) {
	if needle, ok := titleSearch(f); ok && limit > 0 {
		var list []domain.Post
		err := r.snapshot(ctx, func(r postViews) (err error) {
			list, err = r.searchAfter(ctx, f, needle, cursor, limit)
			return err
		})
		return list, err
	}
	cond, args := postWhere(f, cursor)
	rowLimit, _ := pageBounds(ports.Page{Limit: limit})
	query := `SELECT ` + postColumns + `
FROM posts p
WHERE ` + cond + `
` + newestFirst + `
LIMIT ` + strconv.FormatInt(rowLimit, 10)
	return r.query(ctx, "list posts after cursor", query, args...)
}

// query runs a list of posts on readDB and reads its rows.
func (r postViews) query(ctx context.Context, op, query string, args ...any) ([]domain.Post, error) {
	rows, err := r.c.readDB.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, storeError(op, err)
	}
	defer rows.Close()
	list := []domain.Post{}
	var row db.Post
	fields := postFields(&row)
	for rows.Next() {
		if err := rows.Scan(fields...); err != nil {
			return nil, storeError(op, err)
		}
		list = append(list, postOf(row))
	}
	if err := rows.Err(); err != nil {
		return nil, storeError(op, err)
	}
	return list, nil
}
