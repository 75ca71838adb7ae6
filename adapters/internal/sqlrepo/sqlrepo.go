// Package sqlrepo holds the repositories both SQL stores implement alike:
// users and their tokens, comments, webhooks and their deliveries, the
// mail outbox, the event outbox, sessions, password resets, rate limits
// and idempotency keys. The flow of each method is written here once:
// which operation an error names, an update or delete that matched no row
// answering domain.ErrNotFound, the JSON a column keeps a list or payload
// in.
//
// Each store supplies the rest, which is its own: the statements, as a
// small interface in domain terms over its sqlc queries (its column types,
// and for SQLite whether a statement runs on the reader or the writer),
// and how its driver's errors cross its border (Border). Like every
// package under adapters/internal, this one imports only ports, domain and
// the standard library: no sqlc package and no driver.
package sqlrepo

// Border is how one store translates its driver's errors.
type Border struct {
	// Err translates err of operation op at the store's border (a unique
	// violation to the conflict it stands for, no rows to
	// domain.ErrNotFound, …); a nil err stays nil.
	Err func(op string, err error) error
	// NotFound is the error of an update or delete of op that matched no
	// row.
	NotFound func(op string) error
	// NoRows reports whether err is the driver's "no rows in result set".
	NoRows func(err error) bool
}

// Affected is the error of an update or delete of op that affected n rows:
// err translated, or domain.ErrNotFound when no row matched.
func (b Border) Affected(op string, n int64, err error) error {
	if err != nil {
		return b.Err(op, err)
	}
	if n == 0 {
		return b.NotFound(op)
	}
	return nil
}

// Stored is a row read as its domain value but for the JSON a column keeps
// part of it in (a webhook's events, a delivery's event, an event's
// payload), which the repositories here decode.
type Stored[T any] struct {
	Value T
	JSON  []byte
}

// Rows converts the rows a query read with of.
func Rows[R, T any](rows []R, of func(R) T) []T {
	out := make([]T, len(rows))
	for i, row := range rows {
		out[i] = of(row)
	}
	return out
}

// Scanner is a result set of a statement run by hand, as database/sql's
// rows and pgx's both read it.
type Scanner interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Scan reads every row of rows into fields and appends of() for each: of
// reads the record that fields point into. Like append, it returns nil
// when there is no row. The caller closes rows.
func Scan[T any](rows Scanner, fields []any, of func() (T, error)) ([]T, error) {
	var list []T
	for rows.Next() {
		if err := rows.Scan(fields...); err != nil {
			return nil, err
		}
		v, err := of()
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return list, nil
}

// First is the first of the rows a read of op found, or op's
// domain.ErrNotFound when it found none; a failed read's err is returned
// as it is.
func First[T any](b Border, op string, rows []T, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if len(rows) == 0 {
		return zero, b.NotFound(op)
	}
	return rows[0], nil
}
