package sqlite

import (
	"context"
	"strconv"
	"strings"

	"github.com/inkwell/inkwell/adapters/internal/adminsearch"
	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The console's searches (accounts by name or e-mail, posts by title with
// drafts) read their keys through adminsearch. A needle of three
// characters or more is looked up in the trigram tables, account_search
// and, for titles, published_titles with draft_titles (0007, 0017); each
// candidate is tested again with the comparison a plain scan makes (instr
// over the folded text), so that the index only narrows the rows read.
// A shorter needle has no trigram to look up: its matches are read by a
// scan, which the bound stops early for the common ones such short
// needles are.
//
// FTS5 reads its lists only as far as a query asks, so that bound+1
// matches of a common word cost little: the index is asked before the walk
// (adminsearch.Finder.IndexFirst), which a rare word would pay in full.
//
// The keys are read first and the page's rows last, by id. Sorted orders by
// +id (or +created_at), which no index gives, so that SQLite drives the
// read from the FTS5 match and sorts, rather than walk the list probing
// the index for every row.

// adminKeys runs a query of keys: created_at and id when withTime, id
// alone otherwise.
func (r admin) adminKeys(ctx context.Context, op, query string, withTime bool, args ...any) ([]adminsearch.Key, error) {
	rows, err := r.c.readDB.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, storeError(op, err)
	}
	defer rows.Close()
	var k adminsearch.Key
	dest := []any{&k.ID}
	if withTime {
		dest = []any{&k.CreatedAt, &k.ID}
	}
	keys, err := sqlrepo.Scan(rows, dest, func() (adminsearch.Key, error) { return k, nil })
	return keys, storeError(op, err)
}

// limitSQL is a LIMIT clause for n, none when n is negative.
func limitSQL(n int) string {
	if n < 0 {
		return ""
	}
	return " LIMIT " + strconv.Itoa(n)
}

// SearchUsers is the list of users with a search (sqlrepo.Admin.Users).
func (r admin) SearchUsers(ctx context.Context, q ports.AdminUserQuery) ([]domain.User, int, error) {
	// SQLite's lower() folds ASCII letters only; so must the needle.
	needle := adminsearch.LowerASCII(q.Search)
	const op = "search users"
	const test = `(instr(lower(u.name), ?1) > 0 OR instr(u.email_key, ?1) > 0)`
	from := `users u WHERE ` + test
	args := []any{needle}
	if trigramSearch(needle) {
		from = `account_search s JOIN users u ON u.id = s.rowid WHERE account_search MATCH ?2 AND ` + test
		args = append(args, ftsPhrase(needle))
	}
	f := adminsearch.Finder{
		Matches: func(ctx context.Context, limit int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT u.id FROM `+from+limitSQL(limit), false, args...)
		},
		Walk: func(ctx context.Context, examine, take int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT u.id FROM (SELECT id, name, email_key FROM users ORDER BY id DESC`+limitSQL(examine)+`) u
WHERE `+test+` ORDER BY u.id DESC`+limitSQL(take), false, needle)
		},
		Sorted: func(ctx context.Context, take int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT u.id FROM `+from+` ORDER BY +u.id DESC`+limitSQL(take), false, args...)
		},
		IndexFirst: trigramSearch(needle),
	}
	return adminsearch.Users(ctx, f, q.Page, q.CountUpTo, func(ctx context.Context, ids []int64) ([]domain.User, error) {
		rows, err := r.c.read.GetUsersByIDs(ctx, ids)
		return sqlrepo.Rows(rows, userOf), storeError(op, err)
	})
}

// SearchPosts is the list of posts with a search (sqlrepo.Admin.Posts).
func (r admin) SearchPosts(ctx context.Context, q ports.AdminPostQuery) ([]domain.Post, int, error) {
	needle := strings.ToLower(q.Search)
	const op = "search posts"
	test := `instr(` + lowerFunc + `(p.title), ?1) > 0`
	// The status is one of domain.Statuses, written into the text so that
	// the walk reads its partial index (posts_published, posts_drafts).
	switch q.Status {
	case "":
	case domain.StatusDraft, domain.StatusPublished:
		test += ` AND p.status = '` + string(q.Status) + `'`
	default:
		return []domain.Post{}, 0, nil
	}
	// The matches, as one or two SELECTs of created_at and id to follow
	// with ORDER BY or LIMIT; a UNION ALL of two is wrapped so that its
	// ORDER BY names the columns.
	var parts []string
	args := []any{needle}
	if trigramSearch(needle) {
		// A long needle is asked as the AND of a few of its trigrams
		// (candidateQuery), which reads no positions: the candidates are
		// tested by instr all the same.
		match := ftsPhrase(needle)
		if terms, ok := candidateQuery(needle); ok {
			match = terms
		}
		args = append(args, match)
		if q.Status != domain.StatusDraft {
			parts = append(parts, `SELECT p.created_at, p.id FROM published_titles t JOIN posts p ON p.id = t.rowid
WHERE published_titles MATCH ?2 AND `+test)
		}
		if q.Status != domain.StatusPublished {
			parts = append(parts, `SELECT p.created_at, p.id FROM draft_titles t JOIN posts p ON p.id = t.rowid
WHERE draft_titles MATCH ?2 AND `+test)
		}
	} else {
		parts = append(parts, `SELECT p.created_at, p.id FROM posts p WHERE `+test)
	}
	matches := parts[0]
	if len(parts) == 2 {
		matches = `SELECT created_at, id FROM (` + parts[0] + ` UNION ALL ` + parts[1] + `)`
	}
	list := `posts`
	if q.Status != "" {
		list = `posts WHERE status = '` + string(q.Status) + `'`
	}
	f := adminsearch.Finder{
		Matches: func(ctx context.Context, limit int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, matches+limitSQL(limit), true, args...)
		},
		Walk: func(ctx context.Context, examine, take int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT p.created_at, p.id FROM (
    SELECT created_at, id, title, status FROM `+list+` ORDER BY created_at DESC, id DESC`+limitSQL(examine)+`
) p WHERE `+test+` ORDER BY p.created_at DESC, p.id DESC`+limitSQL(take), true, needle)
		},
		Sorted: func(ctx context.Context, take int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT created_at, id FROM (`+matches+`) ORDER BY +created_at DESC, id DESC`+limitSQL(take), true, args...)
		},
		IndexFirst: trigramSearch(needle),
	}
	return adminsearch.Posts(ctx, f, q.Page, q.CountUpTo, func(ctx context.Context, ids []int64) ([]domain.Post, error) {
		rows, err := r.c.read.AdminPostsByIDs(ctx, ids)
		return sqlrepo.Rows(rows, postOf), storeError(op, err)
	})
}
