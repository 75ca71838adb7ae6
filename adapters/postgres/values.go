package postgres

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/domain"
)

// values are the conversions below as the rows and parameters that sqlrepo
// converts once for both stores take them.
var values = sqlrepo.Values[pgtype.Timestamptz, pgtype.Timestamptz, bool]{
	Time: timeOf, TimePtr: timePtrOf, DBTime: dbTime, NullTime: nullTime,
	Bool: func(b bool) bool { return b }, DBBool: func(b bool) bool { return b },
}

// The helpers below convert between domain values and the column types sqlc
// generates for pgx. Times are read back in UTC: pgx decodes timestamptz in
// the local zone, and the domain keeps every time in UTC.

func dbTime(t time.Time) pgtype.Timestamptz {
	return pgtype.Timestamptz{Time: t, Valid: true}
}

func nullTime(t *time.Time) pgtype.Timestamptz {
	if t == nil {
		return pgtype.Timestamptz{}
	}
	return dbTime(*t)
}

func timeOf(ts pgtype.Timestamptz) time.Time {
	return ts.Time.UTC()
}

func timePtrOf(ts pgtype.Timestamptz) *time.Time {
	if !ts.Valid {
		return nil
	}
	t := ts.Time.UTC()
	return &t
}

func nullText(s *string) pgtype.Text {
	if s == nil {
		return pgtype.Text{}
	}
	return pgtype.Text{String: *s, Valid: true}
}

func textPtrOf(t pgtype.Text) *string {
	if !t.Valid {
		return nil
	}
	s := t.String
	return &s
}

// nullInt converts an optional int for an integer column, refusing a value
// the column would not hold rather than letting it wrap around.
func nullInt(n *int) (pgtype.Int4, error) {
	if n == nil {
		return pgtype.Int4{}, nil
	}
	if *n < math.MinInt32 || *n > math.MaxInt32 {
		return pgtype.Int4{}, fmt.Errorf("%d does not fit an integer column", *n)
	}
	return pgtype.Int4{Int32: int32(*n), Valid: true}, nil
}

func intPtrOf(n pgtype.Int4) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int32)
	return &v
}

// addressDocument is how the address column spells an address: lower-case
// keys, and only the fields the address has.
type addressDocument struct {
	Street  string `json:"street,omitempty"`
	City    string `json:"city,omitempty"`
	Zip     string `json:"zip,omitempty"`
	Country string `json:"country,omitempty"`
}

// addressJSON encodes an address for the jsonb column; no address is NULL.
func addressJSON(a *domain.Address) ([]byte, error) {
	if a == nil {
		return nil, nil
	}
	return json.Marshal(addressDocument(*a))
}

func addressOf(b []byte) (*domain.Address, error) {
	if b == nil {
		return nil, nil
	}
	var doc *addressDocument
	if err := json.Unmarshal(b, &doc); err != nil || doc == nil {
		return nil, err
	}
	a := domain.Address(*doc)
	return &a, nil
}
