package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// people is ports.PersonRepository.
type people struct{ c conns }

func (r people) Create(ctx context.Context, p *domain.Person) error {
	address, err := encodeAddress(p.Address)
	if err != nil {
		return fmt.Errorf("sqlite: create person: %w", err)
	}
	id, err := r.c.write.CreatePerson(ctx, db.CreatePersonParams{
		Name:      p.Name,
		Email:     p.Email,
		EmailKey:  domain.EmailKey(p.Email),
		Age:       nullInt(p.Age),
		Address:   address,
		CreatedAt: micros(p.CreatedAt),
		UpdatedAt: micros(p.UpdatedAt),
	})
	if err != nil {
		return wrap("create person", err)
	}
	p.ID = id
	return nil
}

func (r people) Get(ctx context.Context, id int64) (domain.Person, error) {
	row, err := r.c.read.GetPerson(ctx, id)
	if err != nil {
		return domain.Person{}, wrap(fmt.Sprintf("get person %d", id), err)
	}
	return personFromRow(row)
}

// Lock reads the record. Inside InTx no more is needed: the transaction
// began IMMEDIATE and holds SQLite's single write lock.
func (r people) Lock(ctx context.Context, id int64) (domain.Person, error) {
	return r.Get(ctx, id)
}

func (r people) Update(ctx context.Context, p domain.Person) error {
	address, err := encodeAddress(p.Address)
	if err != nil {
		return fmt.Errorf("sqlite: update person %d: %w", p.ID, err)
	}
	n, err := r.c.write.UpdatePerson(ctx, db.UpdatePersonParams{
		Name:      p.Name,
		Email:     p.Email,
		EmailKey:  domain.EmailKey(p.Email),
		Age:       nullInt(p.Age),
		Address:   address,
		UpdatedAt: micros(p.UpdatedAt),
		ID:        p.ID,
	})
	if err != nil {
		return wrap(fmt.Sprintf("update person %d", p.ID), err)
	}
	if n == 0 {
		return notFound(fmt.Sprintf("update person %d", p.ID))
	}
	return nil
}

func (r people) Delete(ctx context.Context, id int64) error {
	n, err := r.c.write.DeletePerson(ctx, id)
	if err != nil {
		return wrap(fmt.Sprintf("delete person %d", id), err)
	}
	if n == 0 {
		return notFound(fmt.Sprintf("delete person %d", id))
	}
	return nil
}

// personColumns maps each field of ports.PersonFields to its column. Only
// these names ever reach the ORDER BY that List builds.
var personColumns = map[string]string{
	"id":         "id",
	"name":       "name",
	"email":      "email",
	"age":        "age",
	"created_at": "created_at",
	"updated_at": "updated_at",
}

// peopleFilter is CountPeople's WHERE clause (sql/sqlite/queries/people.sql),
// repeated for the list, whose ORDER BY varies and so is not generated. ?1 is
// the search text. instr takes it literally, so % and _ need no escaping;
// lower() folds ASCII letters only, so the search ignores the case of ASCII
// letters, as strings.ToLower would, while other letters must match in case.
const peopleFilter = `?1 = ''
   OR instr(lower(name), lower(?1)) > 0
   OR instr(lower(email), lower(?1)) > 0`

// List pages through the people matching q.Search in the order q.Sort asks,
// id ascending breaking ties. A NULL age sorts after every age ascending and
// before them descending, as in PostgreSQL, so every store orders alike.
func (r people) List(ctx context.Context, q ports.PersonQuery) ([]domain.Person, int, error) {
	order, err := personOrder(q.Sort)
	if err != nil {
		return nil, 0, err
	}
	limit, offset := limitOffset(q.Page)
	query := `SELECT id, name, email, email_key, age, address, created_at, updated_at
FROM people
WHERE ` + peopleFilter + `
ORDER BY ` + order + `
LIMIT ?2 OFFSET ?3`

	rows, err := r.c.readDB.QueryContext(ctx, query, q.Search, limit, offset)
	if err != nil {
		return nil, 0, wrap("list people", err)
	}
	defer rows.Close()
	var list []domain.Person
	for rows.Next() {
		var row db.Person
		if err := rows.Scan(&row.ID, &row.Name, &row.Email, &row.EmailKey, &row.Age, &row.Address,
			&row.CreatedAt, &row.UpdatedAt); err != nil {
			return nil, 0, wrap("list people", err)
		}
		p, err := personFromRow(row)
		if err != nil {
			return nil, 0, err
		}
		list = append(list, p)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, wrap("list people", err)
	}
	if list == nil {
		list = []domain.Person{}
	}

	total, err := r.c.read.CountPeople(ctx, q.Search)
	if err != nil {
		return nil, 0, wrap("count people", err)
	}
	return list, int(total), nil
}

// personOrder renders keys as an ORDER BY list of whitelisted columns, ending
// with id. An unknown field is refused rather than ignored.
func personOrder(keys []ports.SortKey) (string, error) {
	terms := make([]string, 0, len(keys)+1)
	seen := make(map[string]bool, len(keys)+1)
	for _, k := range keys {
		col, ok := personColumns[k.Field]
		if !ok {
			return "", fmt.Errorf("sqlite: list people: %w",
				domain.InvalidField("sort", fmt.Sprintf("The sort field %q is not supported.", k.Field)))
		}
		if seen[col] {
			continue // a later key on the same column can no longer change the order
		}
		seen[col] = true
		dir := " ASC"
		if k.Desc {
			dir = " DESC"
		}
		term := col + dir
		if col == "age" {
			if k.Desc {
				term += " NULLS FIRST"
			} else {
				term += " NULLS LAST"
			}
		}
		terms = append(terms, term)
	}
	if !seen["id"] {
		terms = append(terms, "id ASC")
	}
	return strings.Join(terms, ", "), nil
}

func personFromRow(row db.Person) (domain.Person, error) {
	p := domain.Person{
		ID:        row.ID,
		Name:      row.Name,
		Email:     row.Email,
		CreatedAt: fromMicros(row.CreatedAt),
		UpdatedAt: fromMicros(row.UpdatedAt),
	}
	if row.Age.Valid {
		age := int(row.Age.Int64)
		p.Age = &age
	}
	if row.Address.Valid {
		var a domain.Address
		if err := json.Unmarshal([]byte(row.Address.String), &a); err != nil {
			return domain.Person{}, fmt.Errorf("sqlite: person %d: decode address: %w", row.ID, err)
		}
		p.Address = &a
	}
	return p, nil
}

// encodeAddress keeps the address as JSON text, and no address as NULL.
func encodeAddress(a *domain.Address) (sql.NullString, error) {
	if a == nil {
		return sql.NullString{}, nil
	}
	b, err := json.Marshal(a)
	if err != nil {
		return sql.NullString{}, fmt.Errorf("encode address: %w", err)
	}
	return sql.NullString{String: string(b), Valid: true}, nil
}

func nullInt(n *int) sql.NullInt64 {
	if n == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(*n), Valid: true}
}
