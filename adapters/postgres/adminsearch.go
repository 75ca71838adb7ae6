package postgres

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/inkwell/inkwell/adapters/internal/adminsearch"
	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The console's searches (accounts by name or e-mail, posts by title with
// drafts) read their keys through adminsearch, which picks the read from
// what the trigram indexes answer rather than from the planner's estimate
// of a LIKE pattern (see searchPlan for how far off it goes). Each of the
// three reads is written so that PostgreSQL has one way to run it:
//
//   - matches has no ORDER BY, so that nothing but the trigram index
//     (posts_title_trgm, users_name_trgm with users_email_key_trgm) or, for
//     a pattern too short for trigrams or a common one, a scan that the
//     LIMIT stops, can serve it; but matches of posts read past the
//     count's bound (a rare phrase's every match) asks
//     posts_title_joined_trgm for the search's join pieces
//     (searchCandidates, as the public search does) and orders them as
//     sorted does, so that no estimate makes a scan look cheaper;
//   - walk reads a fixed number of rows of the list's index in order (the
//     inner LIMIT) and tests them;
//   - sorted orders by an expression no index gives (created_at plus a
//     zero interval, id plus zero), so that the matches of the search's
//     own pattern come from the trigram index and are sorted.
//
// They run as unnamed statements planned for their values (perCallMode),
// and the limits are written into the text, as in postlist.go, so that a
// generic plan never guesses them.

// userSearchWhere is the comparison of AdminUserQuery.Search: the pattern
// ($1, asciiLikePattern) against the name with its ASCII letters
// lower-cased (lower() under the C collation, as users_name_trgm indexes
// it) and the e-mail key.
const userSearchWhere = `(lower(name COLLATE "C") LIKE $1 OR email_key LIKE $1)`

// limitSQL is a LIMIT clause for n, none when n is negative.
func limitSQL(n int) string {
	if n < 0 {
		return ""
	}
	return " LIMIT " + strconv.Itoa(n)
}

// adminKeys runs a query of keys: created_at and id when withTime, id
// alone otherwise.
func (r admin) adminKeys(ctx context.Context, op, query string, withTime bool, args ...any) ([]adminsearch.Key, error) {
	rows, err := r.conn.Query(ctx, query, append([]any{perCallMode}, args...)...)
	if err != nil {
		return nil, storeError(op, err)
	}
	defer rows.Close()
	var k adminsearch.Key
	var at time.Time
	dest := []any{&k.ID}
	if withTime {
		dest = []any{&at, &k.ID}
	}
	keys, err := sqlrepo.Scan(rows, dest, func() (adminsearch.Key, error) {
		if withTime {
			k.CreatedAt = at.UnixMicro()
		}
		return k, nil
	})
	return keys, storeError(op, err)
}

// SearchUsers is the list of users with a search (sqlrepo.Admin.Users).
func (r admin) SearchUsers(ctx context.Context, q ports.AdminUserQuery) ([]domain.User, int, error) {
	pattern := asciiLikePattern(q.Search)
	const op = "search users"
	f := adminsearch.Finder{
		Matches: func(ctx context.Context, limit int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT id FROM users WHERE `+userSearchWhere+limitSQL(limit), false, pattern)
		},
		Walk: func(ctx context.Context, examine, take int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT id FROM (SELECT id, name, email_key FROM users ORDER BY id DESC`+limitSQL(examine)+`) w
WHERE `+userSearchWhere+` ORDER BY id DESC`+limitSQL(take), false, pattern)
		},
		Sorted: func(ctx context.Context, take int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT id FROM users WHERE `+userSearchWhere+` ORDER BY id + 0 DESC`+limitSQL(take), false, pattern)
		},
		// The accounts' trigram lists are a tenth of the titles': asking
		// them first cost a common name little, while the walk first cost a
		// rare one 20 ms more than its index read (at 100k accounts, p50 29
		// against 7 ms for "jade q" under 10 clients). A needle too short
		// for trigrams is scanned, and the LIMIT stops the scan early for
		// the common matches such needles have.
		IndexFirst: utf8.RuneCountInString(q.Search) >= 3,
	}
	return adminsearch.Users(ctx, f, q.Page, q.CountUpTo, func(ctx context.Context, ids []int64) ([]domain.User, error) {
		rows, err := r.q.GetUsersByIDs(ctx, ids)
		return sqlrepo.Rows(rows, userOf), storeError(op, err)
	})
}

// SearchPosts is the list of posts with a search (sqlrepo.Admin.Posts).
func (r admin) SearchPosts(ctx context.Context, q ports.AdminPostQuery) ([]domain.Post, int, error) {
	pattern := likePattern(q.Search)
	const op = "search posts"
	// The status is one of domain.Statuses, written into the text so that
	// the walk reads its partial index (posts_published, posts_drafts).
	where := `lower(title) LIKE $1`
	switch q.Status {
	case "":
	case domain.StatusDraft:
		where += ` AND status = 'draft'`
	case domain.StatusPublished:
		where += ` AND status = 'published'`
	default:
		return []domain.Post{}, 0, nil
	}
	list := `posts`
	if q.Status != "" {
		list = `posts WHERE status = '` + string(q.Status) + `'`
	}
	// A search across words reads its matches past the bound through the
	// candidates the public search asks for (searchCandidates): the pieces
	// where its words join, through posts_title_joined_trgm, which covers
	// every post, drafts included, and whose posting lists cost a phrase of
	// common words far less than its own trigrams' do in posts_title_trgm.
	// That read orders by an expression no index gives, as sorted does, so
	// that the index read is the only one that does not pass every post (a
	// LIMIT alone let the planner pick a scan).
	//
	// Candidates and order are asked only of a read past the bound, which
	// adminsearch makes when the walk did not find the page, a rare word's
	// read of all its matches. The count of a word the walk found often
	// (Matches of CountUpTo+1) keeps its own pattern and a LIMIT alone,
	// which a scan serves by stopping early: ordered, it read and sorted
	// every match of "journey" (43,000 titles) for 201 of them, and with
	// the candidates' pattern as well the planner, multiplying the two
	// patterns' shares, took the index and built its whole bitmap (at a
	// million posts, p50 72 to 180 ms for "journey" under 10 clients).
	// Sorted, which reads a common word's matches in order (a deep page),
	// keeps its own pattern too. So does the read past the bound of a
	// search without join pieces: PostgreSQL puts the reduced pattern and
	// the search's own into one condition on posts_title_trgm, which saves
	// no posting list, and the order made a deep page of a common word,
	// which reads past the bound too, read every candidate where a LIMIT
	// alone stopped at 5,001 (page 30 of "inkwell", p50 about 390 against
	// 280 ms under load, bench/results/2026-11-26-console-1m-joins.md).
	cand := searchCandidates(strings.ToLower(q.Search))
	indexed := where
	if cand.column != "" {
		indexed = cand.column + ` LIKE $2 ESCAPE '\' AND ` + where
	}
	indexArgs := []any{pattern}
	if cand.column != "" {
		indexArgs = append(indexArgs, cand.pattern)
	}
	f := adminsearch.Finder{
		Matches: func(ctx context.Context, limit int) ([]adminsearch.Key, error) {
			if cand.column != joinedTitle || limit <= q.CountUpTo+1 {
				return r.adminKeys(ctx, op, `SELECT created_at, id FROM posts WHERE `+where+limitSQL(limit), true, pattern)
			}
			return r.adminKeys(ctx, op, `SELECT p.created_at, p.id FROM posts p WHERE `+indexed+
				` ORDER BY p.created_at + interval '0' DESC, p.id DESC`+limitSQL(limit), true, indexArgs...)
		},
		Walk: func(ctx context.Context, examine, take int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT created_at, id FROM (
    SELECT created_at, id, title, status FROM `+list+` ORDER BY created_at DESC, id DESC`+limitSQL(examine)+`
) w WHERE `+where+` ORDER BY created_at DESC, id DESC`+limitSQL(take), true, pattern)
		},
		Sorted: func(ctx context.Context, take int) ([]adminsearch.Key, error) {
			return r.adminKeys(ctx, op, `SELECT created_at, id FROM posts WHERE `+where+
				` ORDER BY created_at + interval '0' DESC, id DESC`+limitSQL(take), true, pattern)
		},
	}
	return adminsearch.Posts(ctx, f, q.Page, q.CountUpTo, func(ctx context.Context, ids []int64) ([]domain.Post, error) {
		rows, err := r.q.AdminPostsByIDs(ctx, ids)
		return sqlrepo.Rows(rows, postOf), storeError(op, err)
	})
}
