package postgres

import (
	"strings"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// The statements written by hand (the views of posts read as unions, the
// lists of posts and of people) name the columns of a row type with its
// columns list and scan them with its fields function, which holds the
// pointers to the matching fields of sqlc's record, in the same order. Each
// list is written once, in the order of the record's fields, so that a
// column added to a table is added here and nowhere else by hand; a join
// scans into the fields of each of its records, one after the other.

// postColumns are the columns of db.Post, the table aliased p.
const postColumns = `p.id, p.author_id, p.title, p.slug, p.excerpt, p.body, p.status,
       p.image_path, p.published_at, p.created_at, p.updated_at`

func postFields(p *db.Post) []any {
	return []any{&p.ID, &p.AuthorID, &p.Title, &p.Slug, &p.Excerpt, &p.Body, &p.Status,
		&p.ImagePath, &p.PublishedAt, &p.CreatedAt, &p.UpdatedAt}
}

// authorColumns are the columns of domain.Author in the table users,
// aliased u: what a view of a post or a comment shows of its author, and
// no more of the account.
const authorColumns = `u.id, u.name, u.avatar_path`

func authorFields(a *domain.Author) []any {
	return []any{&a.ID, &a.Name, &a.AvatarPath}
}

// tagColumns are the columns of db.Tag, the table aliased t.
const tagColumns = `t.id, t.name, t.name_key, t.slug, t.created_at, t.updated_at`

func tagFields(t *db.Tag) []any {
	return []any{&t.ID, &t.Name, &t.NameKey, &t.Slug, &t.CreatedAt, &t.UpdatedAt}
}

// commentColumns are the columns of db.Comment, the table aliased c.
const commentColumns = `c.id, c.post_id, c.user_id, c.body, c.created_at, c.updated_at`

func commentFields(c *db.Comment) []any {
	return []any{&c.ID, &c.PostID, &c.UserID, &c.Body, &c.CreatedAt, &c.UpdatedAt}
}

// personColumns are the columns of db.Person; the lists of people read one
// table and name it not.
const personColumns = `id, name, email, email_key, age, address, created_at, updated_at`

func personFields(p *db.Person) []any {
	return []any{&p.ID, &p.Name, &p.Email, &p.EmailKey, &p.Age, &p.Address, &p.CreatedAt, &p.UpdatedAt}
}

// A union whose parts fill different records (viewSQL, pageUnionSQL)
// gives each part the columns of all of them, NULL where a part has no
// record: the widths of the lists, and the SQL types of those the first
// part leaves NULL, since a union takes its column types from its first
// part. Its rows are scanned in two passes (unionDest): the part, then the
// part's records, skipping the other columns.
var (
	postWidth    = len(postFields(&db.Post{}))
	authorWidth  = len(authorFields(&domain.Author{}))
	tagTypes     = []string{"bigint", "text", "text", "text", "timestamptz", "timestamptz"}
	commentTypes = []string{"bigint", "bigint", "bigint", "text", "timestamptz", "timestamptz"}
	countTypes   = []string{"bigint", "bigint", "bigint"} // countsSQL's
)

// unionDest lays out the destinations of a row of a union, one group of
// columns after the other; a nil destination skips its column (skip).
func unionDest(groups ...[]any) []any {
	var dest []any
	for _, g := range groups {
		dest = append(dest, g...)
	}
	return dest
}

// skip is n columns a scan skips.
func skip(n int) []any { return make([]any, n) }

// nulls is n NULL columns.
func nulls(n int) string {
	return strings.TrimSuffix(strings.Repeat("NULL, ", n), ", ")
}

// typedNulls is a NULL column of each of types.
func typedNulls(types []string) string {
	return "NULL::" + strings.Join(types, ", NULL::")
}
