package sqlite

import "github.com/inkwell/inkwell/adapters/sqlite/internal/db"

// The statements written by hand (the lists of posts and of people) name
// the columns of a row type with its columns list and scan them with its
// fields function, which holds the pointers to the matching fields of
// sqlc's record, in the same order. Each list is written once, in the order
// of the record's fields, so that a column added to a table is added here
// and nowhere else by hand.

// postColumns are the columns of db.Post, the table aliased p.
const postColumns = `p.id, p.author_id, p.title, p.slug, p.excerpt, p.body, p.status,
       p.image_path, p.published_at, p.created_at, p.updated_at`

func postFields(p *db.Post) []any {
	return []any{&p.ID, &p.AuthorID, &p.Title, &p.Slug, &p.Excerpt, &p.Body, &p.Status,
		&p.ImagePath, &p.PublishedAt, &p.CreatedAt, &p.UpdatedAt}
}

// personColumns are the columns of db.Person; the lists of people read one
// table and name it not.
const personColumns = `id, name, email, email_key, age, address, created_at, updated_at`

func personFields(p *db.Person) []any {
	return []any{&p.ID, &p.Name, &p.Email, &p.EmailKey, &p.Age, &p.Address, &p.CreatedAt, &p.UpdatedAt}
}
