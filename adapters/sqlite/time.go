package sqlite

import (
	"database/sql"
	"time"
)

// The schema keeps times as INTEGER microseconds since the Unix epoch, UTC:
// the precision the production clock and PostgreSQL keep, so a time written
// reads back equal, and a plain integer index orders it.

func micros(t time.Time) int64 {
	return t.UnixMicro()
}

func fromMicros(us int64) time.Time {
	return time.UnixMicro(us).UTC()
}

func nullMicros(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMicro(), Valid: true}
}

func fromNullMicros(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := fromMicros(n.Int64)
	return &t
}
