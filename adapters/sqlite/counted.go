package sqlite

import (
	"context"
	"database/sql"
	"sync/atomic"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
)

// counted is the db.DBTX every repository statement passes through: it adds
// one to n per statement and hands the statement on. Preparing is not
// counted, since it runs nothing; the generated code never asks for it, and
// the reader pool's own preparing happens below this layer.
type counted struct {
	conn db.DBTX
	n    *atomic.Int64
}

func (c counted) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	c.n.Add(1)
	return c.conn.ExecContext(ctx, query, args...)
}

func (c counted) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return c.conn.PrepareContext(ctx, query)
}

func (c counted) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	c.n.Add(1)
	return c.conn.QueryContext(ctx, query, args...)
}

func (c counted) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	c.n.Add(1)
	return c.conn.QueryRowContext(ctx, query, args...)
}
