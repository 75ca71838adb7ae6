package postgres

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

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
// terms its filter needs, every value still travels as a parameter, and
// postListMode has it planned for the values of each call.

// postListMode runs the list statements on PostgreSQL's unnamed statement,
// which is planned at every execution for the values bound to it, after pgx
// has cached the statement's description, so that it still takes one round
// trip. The title pattern and the page size decide the plan: a common word
// is found fastest by walking posts_created_at_id newest first, a rare one
// through posts_title_trgm, and a generic plan has to pick one for both.
// Planning costs a fraction of a millisecond per call.
const postListMode = pgx.QueryExecModeCacheDescribe

// postColumns are the columns of db.Post in the order list scans them.
const postColumns = `p.id, p.author_id, p.title, p.slug, p.excerpt, p.body, p.status,
       p.image_path, p.published_at, p.created_at, p.updated_at`

// postQuery collects the WHERE terms of a list of posts and the arguments
// they refer to by position.
type postQuery struct {
	where []string
	args  []any
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
	case f.Viewer == 0:
		q.where = append(q.where, "p.status = 'published'")
	default:
		q.where = append(q.where, "(p.status = 'published' OR p.author_id = "+q.arg(f.Viewer)+")")
	}
	if f.AuthorID != 0 {
		q.where = append(q.where, "p.author_id = "+q.arg(f.AuthorID))
	}
	if f.Search != "" {
		// lower() on both sides folds case as the port asks, Unicode
		// included, in a UTF-8 database whose character classification
		// (LC_CTYPE) is not plain C; and lower(title) is the expression
		// posts_title_trgm indexes.
		pattern := "%" + escapeLike(f.Search) + "%"
		q.where = append(q.where, `lower(p.title) LIKE lower(`+q.arg(pattern)+`) ESCAPE '\'`)
	}
	if f.TagSlug != "" {
		// EXISTS rather than a join: tag slugs are not unique, and a post
		// carrying two tags of one slug must still be listed once.
		q.where = append(q.where, "EXISTS (SELECT 1 FROM post_tags pt JOIN tags t ON t.id = pt.tag_id"+
			"\n      WHERE pt.post_id = p.id AND t.slug = "+q.arg(f.TagSlug)+")")
	}
	return q
}

// after keeps the posts that come after cursor in the newest-first order.
// The row comparison is one index condition on posts_created_at_id.
func (q *postQuery) after(c ports.PostCursor) {
	q.where = append(q.where, "(p.created_at, p.id) < ("+q.arg(timestamptz(time.UnixMicro(c.CreatedAt)))+", "+q.arg(c.ID)+")")
}

// whereClause joins the terms; there is always at least the visibility one.
func (q *postQuery) whereClause() string {
	return "\nWHERE " + strings.Join(q.where, "\n  AND ")
}

// listSQL is the statement of one page, newest first, which
// posts_created_at_id serves read backwards. A limit of zero or less means
// none, and an offset of zero or less is left out.
func (q *postQuery) listSQL(limit, offset int) string {
	var b strings.Builder
	b.WriteString("SELECT " + postColumns + "\nFROM posts p" + q.whereClause())
	b.WriteString("\nORDER BY p.created_at DESC, p.id DESC")
	if limit > 0 {
		b.WriteString("\nLIMIT " + q.arg(int64(limit)))
	}
	if offset > 0 {
		b.WriteString("\nOFFSET " + q.arg(int64(offset)))
	}
	return b.String()
}

// countSQL is the statement that counts the matching posts.
func (q *postQuery) countSQL() string {
	return "SELECT count(*)\nFROM posts p" + q.whereClause()
}

// list runs a statement built by listSQL on conn.
func (q *postQuery) list(ctx context.Context, conn db.DBTX, sql string) ([]domain.Post, error) {
	rows, err := conn.Query(ctx, sql, append([]any{postListMode}, q.args...)...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Post, error) {
		var p db.Post
		err := row.Scan(&p.ID, &p.AuthorID, &p.Title, &p.Slug, &p.Excerpt, &p.Body, &p.Status,
			&p.ImagePath, &p.PublishedAt, &p.CreatedAt, &p.UpdatedAt)
		return postOf(p), err
	})
}

// count runs the statement built by countSQL on conn.
func (q *postQuery) count(ctx context.Context, conn db.DBTX) (int64, error) {
	var n int64
	err := conn.QueryRow(ctx, q.countSQL(), append([]any{postListMode}, q.args...)...).Scan(&n)
	return n, err
}
