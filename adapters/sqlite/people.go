package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// personQueries are sqlrepo.PersonQueries.
type personQueries struct{ c conns }

var _ sqlrepo.PersonQueries = personQueries{}

func (r personQueries) CreatePerson(ctx context.Context, p domain.Person) (int64, error) {
	address, err := addressJSON(p.Address)
	if err != nil {
		return 0, err
	}
	return r.c.write.CreatePerson(ctx, db.CreatePersonParams{
		Name:      p.Name,
		Email:     p.Email,
		EmailKey:  domain.EmailKey(p.Email),
		Age:       nullInt(p.Age),
		Address:   address,
		CreatedAt: dbTime(p.CreatedAt),
		UpdatedAt: dbTime(p.UpdatedAt),
	})
}

func (r personQueries) GetPerson(ctx context.Context, id int64) (domain.Person, error) {
	row, err := r.c.read.GetPerson(ctx, id)
	if err != nil {
		return domain.Person{}, err
	}
	return personOf(row)
}

// LockPerson reads the record. Inside InTx no more is needed: the
// transaction began IMMEDIATE and holds SQLite's single write lock.
func (r personQueries) LockPerson(ctx context.Context, id int64) (domain.Person, error) {
	return r.GetPerson(ctx, id)
}

func (r personQueries) UpdatePerson(ctx context.Context, p domain.Person) (int64, error) {
	address, err := addressJSON(p.Address)
	if err != nil {
		return 0, err
	}
	return r.c.write.UpdatePerson(ctx, db.UpdatePersonParams{
		Name:      p.Name,
		Email:     p.Email,
		EmailKey:  domain.EmailKey(p.Email),
		Age:       nullInt(p.Age),
		Address:   address,
		UpdatedAt: dbTime(p.UpdatedAt),
		ID:        p.ID,
	})
}

func (r personQueries) DeletePerson(ctx context.Context, id int64) (int64, error) {
	return r.c.write.DeletePerson(ctx, id)
}

// personSortColumns maps each field of ports.PersonFields to its column. Only
// these names ever reach the ORDER BY that List builds.
var personSortColumns = map[string]string{
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
func (r personQueries) ListPeople(ctx context.Context, q ports.PersonQuery) ([]domain.Person, int, error) {
	order, err := personOrderBy(q.Sort)
	if err != nil {
		return nil, 0, err
	}
	limit, offset := pageBounds(q.Page)
	query := `SELECT ` + personColumns + `
FROM people
WHERE ` + peopleFilter + `
ORDER BY ` + order + `
LIMIT ?2 OFFSET ?3`

	rows, err := r.c.readDB.QueryContext(ctx, query, q.Search, limit, offset)
	if err != nil {
		return nil, 0, storeError("list people", err)
	}
	defer rows.Close()
	var list []domain.Person
	var row db.Person
	fields := personFields(&row)
	for rows.Next() {
		if err := rows.Scan(fields...); err != nil {
			return nil, 0, storeError("list people", err)
		}
		p, err := personOf(row)
		if err != nil {
			return nil, 0, storeError("list people", err)
		}
		list = append(list, p)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, storeError("list people", err)
	}
	if list == nil {
		list = []domain.Person{}
	}

	total, err := r.c.read.CountPeople(ctx, q.Search)
	if err != nil {
		return nil, 0, storeError("count people", err)
	}
	return list, int(total), nil
}

// personOrderBy renders keys as an ORDER BY list of whitelisted columns, ending
// with id. An unknown field is refused rather than ignored.
func personOrderBy(keys []ports.SortKey) (string, error) {
	terms := make([]string, 0, len(keys)+1)
	seen := make(map[string]bool, len(keys)+1)
	for _, k := range keys {
		col, ok := personSortColumns[k.Field]
		if !ok {
			return "", fmt.Errorf("sqlite: list people: %w",
				domain.InvalidField("sort", domain.RuleOf(domain.RuleIn, ports.PersonFields...)))
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

func personOf(row db.Person) (domain.Person, error) {
	p := domain.Person{
		ID:        row.ID,
		Name:      row.Name,
		Email:     row.Email,
		CreatedAt: timeOf(row.CreatedAt),
		UpdatedAt: timeOf(row.UpdatedAt),
	}
	if row.Age.Valid {
		age := int(row.Age.Int64)
		p.Age = &age
	}
	if row.Address.Valid {
		var doc addressDocument
		if err := json.Unmarshal([]byte(row.Address.String), &doc); err != nil {
			return domain.Person{}, fmt.Errorf("person %d: decode address: %w", row.ID, err)
		}
		a := domain.Address(doc)
		p.Address = &a
	}
	return p, nil
}
