package sqlite

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/domain"
)

// values are the conversions below as the rows and parameters that sqlrepo
// converts once for both stores take them; a boolean is an INTEGER, 0 or 1.
var values = sqlrepo.Values[int64, sql.NullInt64, int64]{
	Time: timeOf, TimePtr: timePtrOf, DBTime: dbTime, NullTime: nullTime,
	Bool: func(b int64) bool { return b != 0 }, DBBool: dbBool,
}

// The helpers below convert between domain values and the column types
// sqlc generates for database/sql, with the names the PostgreSQL adapter
// gives the same conversions: dbTime and nullTime write a time, timeOf and
// timePtrOf read one. The schema keeps times as INTEGER microseconds since
// the Unix epoch, UTC: the precision the production clock and PostgreSQL
// keep, so a time written reads back equal, and a plain integer index
// orders it.

func dbTime(t time.Time) int64 {
	return t.UnixMicro()
}

func timeOf(us int64) time.Time {
	return time.UnixMicro(us).UTC()
}

func nullTime(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMicro(), Valid: true}
}

func timePtrOf(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := timeOf(n.Int64)
	return &t
}

func nullText(s *string) sql.NullString {
	if s == nil {
		return sql.NullString{}
	}
	return sql.NullString{String: *s, Valid: true}
}

func nullInt(n *int) sql.NullInt64 {
	if n == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(*n), Valid: true}
}

// addressDocument is how the address column spells an address: JSON with
// lower-case keys, and only the fields the address has.
type addressDocument struct {
	Street  string `json:"street,omitempty"`
	City    string `json:"city,omitempty"`
	Zip     string `json:"zip,omitempty"`
	Country string `json:"country,omitempty"`
}

// addressJSON keeps the address as JSON text, and no address as NULL.
func addressJSON(a *domain.Address) (sql.NullString, error) {
	if a == nil {
		return sql.NullString{}, nil
	}
	b, err := json.Marshal(addressDocument(*a))
	if err != nil {
		return sql.NullString{}, fmt.Errorf("encode address: %w", err)
	}
	return sql.NullString{String: string(b), Valid: true}, nil
}
