package postgres

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// personQueries are sqlrepo.PersonQueries. conn is the connection or
// transaction that q runs on, for the one query sqlc cannot express.
type personQueries struct {
	q    *db.Queries
	conn db.DBTX
}

var _ sqlrepo.PersonQueries = personQueries{}

func (r personQueries) CreatePerson(ctx context.Context, p domain.Person) (int64, error) {
	age, address, err := personValues(&p)
	if err != nil {
		return 0, err
	}
	return r.q.CreatePerson(ctx, db.CreatePersonParams{
		Name:      p.Name,
		Email:     p.Email,
		EmailKey:  domain.EmailKey(p.Email),
		Age:       age,
		Address:   address,
		CreatedAt: dbTime(p.CreatedAt),
		UpdatedAt: dbTime(p.UpdatedAt),
	})
}

func (r personQueries) GetPerson(ctx context.Context, id int64) (domain.Person, error) {
	row, err := r.q.GetPerson(ctx, id)
	if err != nil {
		return domain.Person{}, err
	}
	return personOf(row)
}

func (r personQueries) LockPerson(ctx context.Context, id int64) (domain.Person, error) {
	row, err := r.q.LockPerson(ctx, id)
	if err != nil {
		return domain.Person{}, err
	}
	return personOf(row)
}

func (r personQueries) UpdatePerson(ctx context.Context, p domain.Person) (int64, error) {
	age, address, err := personValues(&p)
	if err != nil {
		return 0, err
	}
	return r.q.UpdatePerson(ctx, db.UpdatePersonParams{
		ID:        p.ID,
		Name:      p.Name,
		Email:     p.Email,
		EmailKey:  domain.EmailKey(p.Email),
		Age:       age,
		Address:   address,
		UpdatedAt: dbTime(p.UpdatedAt),
	})
}

func (r personQueries) DeletePerson(ctx context.Context, id int64) (int64, error) {
	return r.q.DeletePerson(ctx, id)
}

// personSortColumns maps each of ports.PersonFields to the ORDER BY term it
// stands for. Only these terms ever reach the SQL text, so a caller's sort
// cannot inject anything. Text is compared by code point (COLLATE "C"), the
// order every store agrees on whatever the database's default collation.
var personSortColumns = map[string]string{
	"id":         "id",
	"name":       `name COLLATE "C"`,
	"email":      `email COLLATE "C"`,
	"age":        "age",
	"created_at": "created_at",
	"updated_at": "updated_at",
}

// personListQuery is the page query without its ORDER BY. Its WHERE clause
// is CountPeople's; count(*) OVER () reads the total in the same snapshot as
// the page.
const personListQuery = `SELECT ` + personColumns + `, count(*) OVER ()
FROM people
WHERE name COLLATE "C" ILIKE $1 ESCAPE '\'
   OR email COLLATE "C" ILIKE $1 ESCAPE '\'
ORDER BY `

func (r personQueries) ListPeople(ctx context.Context, q ports.PersonQuery) ([]domain.Person, int, error) {
	const op = "list people"
	orderBy, err := personOrderBy(q.Sort)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", op, err)
	}
	pattern := "%" + escapeLike(q.Search) + "%"
	limit, offset := pageBounds(q.Page)

	rows, err := r.conn.Query(ctx, personListQuery+orderBy+" LIMIT $2 OFFSET $3", pattern, limit, offset)
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	defer rows.Close()
	var (
		list  []domain.Person
		total int64
	)
	var row db.Person
	fields := append(personFields(&row), &total)
	for rows.Next() {
		if err := rows.Scan(fields...); err != nil {
			return nil, 0, storeError(op, err)
		}
		p, err := personOf(row)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", op, err)
		}
		list = append(list, p)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, storeError(op, err)
	}
	if len(list) == 0 {
		list = []domain.Person{}
		if offset > 0 {
			// A page past the end carries no total; count apart.
			if total, err = r.q.CountPeople(ctx, pattern); err != nil {
				return nil, 0, storeError(op, err)
			}
		}
	}
	return list, int(total), nil
}

// personOrderBy builds the ORDER BY terms of sort from whitelisted columns
// only, ending with id so that equal keys keep one order from page to page.
// NULLs (only age has them) sort after every value ascending and before them
// descending, PostgreSQL's default, spelled out because the other stores
// follow it too.
func personOrderBy(sort []ports.SortKey) (string, error) {
	terms := make([]string, 0, len(sort)+1)
	for _, k := range sort {
		col, ok := personSortColumns[k.Field]
		if !ok {
			return "", domain.InvalidField("sort", domain.RuleOf(domain.RuleIn, ports.PersonFields...))
		}
		dir := " ASC NULLS LAST"
		if k.Desc {
			dir = " DESC NULLS FIRST"
		}
		terms = append(terms, col+dir)
		if k.Field == "id" {
			// id is unique: nothing after it can change the order.
			return strings.Join(terms, ", "), nil
		}
	}
	terms = append(terms, "id ASC")
	return strings.Join(terms, ", "), nil
}

// escapeLike makes s match itself literally inside a LIKE or ILIKE pattern
// whose escape character is a backslash.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// pageBounds turns a page into LIMIT and OFFSET values. A limit of zero or
// less means no limit, so the zero Page lists everything; a negative offset,
// which PostgreSQL refuses, counts as none.
func pageBounds(p ports.Page) (limit, offset int64) {
	limit, offset = int64(p.Limit), int64(p.Offset)
	if limit <= 0 {
		limit = math.MaxInt64
	}
	if offset < 0 {
		offset = 0
	}
	return limit, offset
}

// personValues converts the fields of p whose column types differ.
func personValues(p *domain.Person) (age pgtype.Int4, address []byte, err error) {
	if age, err = nullInt(p.Age); err != nil {
		return age, nil, fmt.Errorf("age: %w", err)
	}
	if address, err = addressJSON(p.Address); err != nil {
		return age, nil, fmt.Errorf("encode address: %w", err)
	}
	return age, address, nil
}

func personOf(row db.Person) (domain.Person, error) {
	address, err := addressOf(row.Address)
	if err != nil {
		return domain.Person{}, fmt.Errorf("decode address of person %d: %w", row.ID, err)
	}
	return domain.Person{
		ID:        row.ID,
		Name:      row.Name,
		Email:     row.Email,
		Age:       intPtrOf(row.Age),
		Address:   address,
		CreatedAt: timeOf(row.CreatedAt),
		UpdatedAt: timeOf(row.UpdatedAt),
	}, nil
}
