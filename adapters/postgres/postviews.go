package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/inkwell/inkwell/adapters/internal/postcount"
	"github.com/inkwell/inkwell/adapters/internal/searchtotal"
	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The reads of what the post routes show cost one statement each where
// they can: a round trip costs more than these statements themselves,
// since both ends make system calls and PostgreSQL's backend wakes up for
// each message, and through PgBouncer each prepared statement costs a pass
// of its own (the pooler sends each statement's Bind to the server in a
// write of its own). Each reads several kinds of rows as a union of plain
// rows, told apart by a part column; arrays of records were tried instead
// and cost PostgreSQL more than the statements they saved.
//
//   - View: the post with its author, its tags and its first comments with
//     their authors, which depend on the post's id alone (viewSQL).
//   - ListViews: the page with its authors, its posts' tags and the total
//     from the counters (pageUnionSQL in postlist.go). A page that must be
//     planned per call (perCall in postlist.go) goes alone, since the union
//     runs prepared, and its tags and total after it.
//   - ListViewsAfter: the same without the total.
//
// sqlc generates none of these unions, so their texts are here; the tags
// and comments are those of ListTagsOfPosts and ListCommentsByPost, and
// countsSQL serves count as well.

// viewSQL reads a post's view in one statement: the union of three look-ups
// by the post's id, a row each, told apart by the column part (viewPart),
// with its own columns filled and the others NULL:
//
//	part  posts     users          tags   comments
//	0     the post  its author     -      -
//	1     -         -              a tag  -
//	2     -         the commenter  -      a comment
//
// $2 is the number of comments wanted. Each part is the index look-up it
// would be alone. The rows come in no particular order; View sorts the
// tags and the comments.
var viewSQL = `SELECT 0, ` + postColumns + `,
       ` + authorColumns + `,
       ` + typedNulls(tagTypes) + `,
       ` + typedNulls(commentTypes) + `
FROM posts p
JOIN users u ON u.id = p.author_id
WHERE p.id = $1
UNION ALL
SELECT 1, ` + nulls(postWidth+authorWidth) + `,
       ` + tagColumns + `,
       ` + nulls(len(commentTypes)) + `
FROM post_tags pt
JOIN tags t ON t.id = pt.tag_id
WHERE pt.post_id = $1
UNION ALL
(SELECT 2, ` + nulls(postWidth) + `,
       ` + authorColumns + `,
       ` + nulls(len(tagTypes)) + `,
       ` + commentColumns + `
FROM comments c
JOIN users u ON u.id = c.user_id
WHERE c.post_id = $1
ORDER BY c.created_at, c.id
LIMIT $2)`

// viewPart is the part of a post's view a row of viewSQL holds.
type viewPart int32

const (
	viewPost viewPart = iota
	viewTag
	viewComment
)

// countsSQL reads the counters that migration 0006 keeps: every published
// post, summed over the shards, and the published posts and drafts of the
// author $1, zero for an author without posts (or 0).
var countsSQL = countsOf("$1")

// countsOf is countsSQL with the author's placeholder author, for a
// statement that reads the counts among other rows (pageUnionSQL).
func countsOf(author string) string {
	return `SELECT (SELECT coalesce(sum(published), 0) FROM post_counts)::bigint,
       coalesce(a.published, 0)::bigint, coalesce(a.drafts, 0)::bigint
FROM (SELECT ` + author + `::bigint AS id) AS v
LEFT JOIN author_post_counts a ON a.author_id = v.id`
}

// scanCounts reads a row of countsSQL into the number t adds up to.
func scanCounts(row pgx.Row, t postcount.Tally) (int, error) {
	var published, authorPublished, authorDrafts int64
	if err := row.Scan(&published, &authorPublished, &authorDrafts); err != nil {
		return 0, err
	}
	return int(t.Sum(published, authorPublished, authorDrafts)), nil
}

// postViews implements ports.PostViews. conn is the connection or
// transaction that q runs on, for the batches and the lists built in
// postlist.go; totals, nil in a transaction, keeps the totals of title
// searches (searchTotal). reads, nil in a transaction, chooses the
// database each read outside one runs on (on): the standby for a context
// that tolerates staleness, while it is fresh.
type postViews struct {
	q      *db.Queries
	conn   db.DBTX
	totals *searchtotal.Cache
	reads  *reads
}

// on runs read on the database r.reads chooses for ctx, with one database
// for the whole read, so that its statements see one store; in a
// transaction, on the transaction.
func (r postViews) on(ctx context.Context, read func(postViews) error) error {
	if r.reads == nil {
		return read(r)
	}
	return r.reads.run(ctx, func(t target) error {
		return read(postViews{q: t.q, conn: t.conn, totals: t.totals})
	})
}

var _ ports.PostViews = postViews{}

func (r postViews) View(ctx context.Context, id int64, maxComments int) (view ports.PostView, err error) {
	err = r.on(ctx, func(r postViews) error {
		view, err = r.view(ctx, id, maxComments)
		return err
	})
	return view, err
}

func (r postViews) view(ctx context.Context, id int64, maxComments int) (ports.PostView, error) {
	op := fmt.Sprintf("view post %d", id)
	rows, err := r.conn.Query(ctx, viewSQL, id, int64(maxComments))
	if err != nil {
		return ports.PostView{}, storeError(op, err)
	}
	var (
		part viewPart
		p    db.Post
		u    domain.Author
		t    db.Tag
		c    db.Comment
	)
	partDest := unionDest([]any{&part}, skip(postWidth+authorWidth+len(tagTypes)+len(commentTypes)))
	postDest := unionDest(skip(1), postFields(&p), authorFields(&u), skip(len(tagTypes)+len(commentTypes)))
	tagDest := unionDest(skip(1+postWidth+authorWidth), tagFields(&t), skip(len(commentTypes)))
	commentDest := unionDest(skip(1+postWidth), authorFields(&u), skip(len(tagTypes)), commentFields(&c))
	found := false
	view := ports.PostView{Tags: []domain.Tag{}}
	if maxComments > 0 {
		view.Comments = []ports.CommentView{}
	}
	for rows.Next() {
		if err := rows.Scan(partDest...); err != nil {
			break
		}
		switch part {
		case viewPost:
			if rows.Scan(postDest...) == nil {
				found = true
				view.Post, view.Author = postOf(p), u
			}
		case viewTag:
			if rows.Scan(tagDest...) == nil {
				view.Tags = append(view.Tags, tagOf(t))
			}
		case viewComment:
			if rows.Scan(commentDest...) == nil {
				view.Comments = append(view.Comments, ports.CommentView{Comment: commentOf(c), Author: u})
			}
		}
	}
	rows.Close() // a failed Scan closes rows with its error, which Err returns
	if err := rows.Err(); err != nil {
		return ports.PostView{}, storeError(op, err)
	}
	if !found {
		return ports.PostView{}, notFound(op)
	}
	slices.SortFunc(view.Tags, ports.TagOrder)
	slices.SortFunc(view.Comments, commentOrder)
	return view, nil
}

// commentOrder is the order of a post's comments: oldest first, then by id.
func commentOrder(a, b ports.CommentView) int {
	return cmp.Or(a.Comment.CreatedAt.Compare(b.Comment.CreatedAt), cmp.Compare(a.Comment.ID, b.Comment.ID))
}

func (r postViews) ListViews(ctx context.Context, f ports.PostFilter, page ports.Page) (views []ports.PostView, total int, err error) {
	err = r.on(ctx, func(r postViews) error {
		views, total, err = r.listViews(ctx, f, page)
		return err
	})
	return views, total, err
}

func (r postViews) listViews(ctx context.Context, f ports.PostFilter, page ports.Page) ([]ports.PostView, int, error) {
	const op = "list posts with their authors"
	q := postFilter(f)
	bounds := q.pageSQL(page.Limit, page.Offset)
	t, tallied := postcount.Of(f)
	if tallied && t == (postcount.Tally{Published: true}) && page.Limit > 0 && page.Offset >= deepOffset {
		return r.deepViews(ctx, t, page)
	}
	if f.Search != "" && page.Limit > 0 {
		c, ok, err := r.searchTotal(ctx, f)
		if err != nil {
			return nil, 0, err
		}
		if ok {
			return r.searchViews(ctx, f, c, page)
		}
	}
	if q.perCall || !tallied {
		views, err := q.views(ctx, r.conn, q.listSQL(bounds))
		if err != nil {
			return nil, 0, storeError(op, err)
		}
		total, err := r.count(ctx, f)
		if err != nil {
			return nil, 0, err
		}
		return views, total, r.attachTags(ctx, views)
	}
	views, total, err := r.page(ctx, q, bounds, t)
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	return views, total, nil
}

// searchViews reads a page of a title search whose counts searchTotal
// read, the way planSearch chooses from them.
func (r postViews) searchViews(ctx context.Context, f ports.PostFilter, c searchCounts, page ports.Page) ([]ports.PostView, int, error) {
	total := c.total()
	if page.Offset >= total {
		return []ports.PostView{}, total, nil
	}
	q := postFilter(f)
	bounds := q.shape(c.plan(page.Offset+page.Limit), page.Limit, page.Offset)
	views, err := q.views(ctx, r.conn, q.listSQL(bounds))
	if err != nil {
		return nil, 0, storeError("list posts by title with their authors", err)
	}
	return views, total, r.attachTags(ctx, views)
}

// searchAfter reads a page of a title search after cursor, the way
// planSearch chooses from the counts searchTotal read, taking the matches
// to be spread alike over the list.
func (r postViews) searchAfter(ctx context.Context, f ports.PostFilter, c searchCounts, cursor *ports.PostCursor, limit int) ([]ports.PostView, error) {
	if c.total() == 0 {
		return []ports.PostView{}, nil
	}
	q := postFilter(f)
	if cursor != nil {
		q.after(*cursor)
	}
	bounds := q.shape(c.plan(limit), limit, 0)
	views, err := q.views(ctx, r.conn, q.listSQL(bounds))
	if err != nil {
		return nil, storeError("list posts by title after cursor with their authors", err)
	}
	return views, r.attachTags(ctx, views)
}

// deepViews reads a page of the published posts at deepOffset or deeper:
// the total first, then the page walked from the nearer end of
// posts_published (walkSQL), then its tags.
func (r postViews) deepViews(ctx context.Context, t postcount.Tally, page ports.Page) ([]ports.PostView, int, error) {
	const op = "list published posts with their authors"
	total, err := r.tallied(ctx, t)
	if err != nil {
		return nil, 0, err
	}
	w, ok := postcount.WalkTo(total, page.Offset, page.Limit)
	if !ok {
		return []ports.PostView{}, total, nil
	}
	rows, err := r.conn.Query(ctx, walkSQL(w), int64(w.Skip))
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	views, err := collectViews(rows)
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	return views, total, r.attachTags(ctx, views)
}

func (r postViews) ListViewsAfter(ctx context.Context, f ports.PostFilter, cursor *ports.PostCursor, limit int) (views []ports.PostView, err error) {
	err = r.on(ctx, func(r postViews) error {
		views, err = r.listViewsAfter(ctx, f, cursor, limit)
		return err
	})
	return views, err
}

func (r postViews) listViewsAfter(ctx context.Context, f ports.PostFilter, cursor *ports.PostCursor, limit int) ([]ports.PostView, error) {
	const op = "list posts after cursor with their authors"
	q := postFilter(f)
	if cursor != nil {
		q.after(*cursor)
	}
	if f.Search != "" && limit > 0 {
		c, ok, err := r.searchTotal(ctx, f)
		if err != nil {
			return nil, err
		}
		if ok {
			return r.searchAfter(ctx, f, c, cursor, limit)
		}
	}
	bounds := q.pageSQL(limit, 0)
	if q.perCall {
		views, err := q.views(ctx, r.conn, q.listSQL(bounds))
		if err != nil {
			return nil, storeError(op, err)
		}
		return views, r.attachTags(ctx, views)
	}
	views, _, err := r.page(ctx, q, bounds, postcount.Tally{})
	if err != nil {
		return nil, storeError(op, err)
	}
	return views, nil
}

// page reads the page that bounds delimits, its posts with their authors
// and tags, and the total t adds up to when it is counted, in one statement
// (pageSQL in postlist.go).
func (r postViews) page(ctx context.Context, q *postQuery, bounds string, t postcount.Tally) ([]ports.PostView, int, error) {
	sql := q.pageUnionSQL(bounds, t) // before q.args, to which it adds
	rows, err := r.conn.Query(ctx, sql, q.args...)
	if err != nil {
		return nil, 0, err
	}
	var (
		part                              pagePart
		p                                 db.Post
		u                                 domain.Author
		tagged                            int64 // the post a tag's row is of
		tag                               db.Tag
		published, authorPub, authorDraft int64
	)
	partDest := unionDest([]any{&part}, skip(postWidth+authorWidth+len(tagTypes)+len(countTypes)))
	postDest := unionDest(skip(1), postFields(&p), authorFields(&u), skip(len(tagTypes)+len(countTypes)))
	tagDest := unionDest(skip(1), []any{&tagged}, skip(postWidth-1+authorWidth), tagFields(&tag), skip(len(countTypes)))
	countsDest := unionDest(skip(1+postWidth+authorWidth+len(tagTypes)), []any{&published, &authorPub, &authorDraft})
	views := make([]ports.PostView, 0, viewsPerPage)
	byPost := map[int64][]domain.Tag{}
	total := 0
	for rows.Next() {
		if rows.Scan(partDest...) != nil {
			break
		}
		switch part {
		case pagePost:
			if rows.Scan(postDest...) == nil {
				views = append(views, ports.PostView{Post: postOf(p), Author: u})
			}
		case pageTag:
			if rows.Scan(tagDest...) == nil {
				byPost[tagged] = append(byPost[tagged], tagOf(tag))
			}
		case pageCounts:
			if rows.Scan(countsDest...) == nil {
				total = int(t.Sum(published, authorPub, authorDraft))
			}
		}
	}
	rows.Close() // a failed Scan closes rows with its error, which Err returns
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	slices.SortFunc(views, newestFirst)
	for i := range views {
		tags := byPost[views[i].Post.ID()]
		if tags == nil {
			tags = []domain.Tag{}
		}
		slices.SortFunc(tags, ports.TagOrder)
		views[i].Tags = tags
	}
	return views, total, nil
}

// newestFirst is the order of the lists: newest first, then by id, as
// pageSQL orders them.
func newestFirst(a, b ports.PostView) int {
	return cmp.Or(b.Post.CreatedAt().Compare(a.Post.CreatedAt()), cmp.Compare(b.Post.ID(), a.Post.ID()))
}

// attachTags reads the tags of views' posts with one statement.
func (r postViews) attachTags(ctx context.Context, views []ports.PostView) error {
	if len(views) == 0 {
		return nil
	}
	ids := make([]int64, len(views))
	for i, v := range views {
		ids[i] = v.Post.ID()
	}
	byPost, err := sqlrepo.Tags{Q: tagQueries{q: r.q}, B: border}.OfPosts(ctx, ids)
	if err != nil {
		return err
	}
	for i := range views {
		if views[i].Tags = byPost[ids[i]]; views[i].Tags == nil {
			views[i].Tags = []domain.Tag{}
		}
	}
	return nil
}

// count returns how many posts f matches. It answers from the counters of
// migration 0006 whenever postcount allows, with one small read whatever the number of posts, and counts the
// matching posts otherwise: a search through posts_title_trgm, a tag through
// post_tags_tag_id.
func (r postViews) count(ctx context.Context, f ports.PostFilter) (int, error) {
	if t, ok := postcount.Of(f); ok {
		return r.tallied(ctx, t)
	}
	if c, ok, err := r.searchTotal(ctx, f); ok || err != nil {
		return c.total(), err
	}
	n, err := postFilter(f).count(ctx, r.conn)
	if err != nil {
		return 0, storeError("count posts", err)
	}
	return int(n), nil
}

// tallied adds up the posts t names from the counters, in one statement.
func (r postViews) tallied(ctx context.Context, t postcount.Tally) (int, error) {
	if !t.Counted() {
		return 0, nil
	}
	n, err := scanCounts(r.conn.QueryRow(ctx, countsSQL, t.Author), t)
	if err != nil {
		return 0, storeError("read post counts", err)
	}
	return n, nil
}
