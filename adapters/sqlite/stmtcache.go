package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	sqlitedrv "modernc.org/sqlite"
)

// The driver prepares, runs and finalizes every statement handed to a
// connection's ExecContext or QueryContext, and inside a transaction
// database/sql can hand it nothing else: preparing a statement on the pool
// would need a free connection, and the writer's only one is the
// transaction's. Preparing was most of the cost of the small statements a
// write is made of: of the 370 µs a post with two tags took to create (on
// 100,000 posts), the check of two tags took 40 µs, most of it parsing and
// planning. So each connection keeps the statements it has run prepared,
// keyed by their text, and runs them again from there: the driver resets a
// prepared statement after each use, ready for the next. The service's texts
// are a fixed set (the generated queries and the lists' combinations of
// fragments), which maxCachedStatements bounds all the same.

// maxCachedStatements is how many statements one connection keeps prepared;
// texts beyond it run as the driver runs them, prepared each time. The
// generated queries are about 60, those with a list of ids once per length
// of the list in use (a page's authors and tags), and the post lists'
// combinations in use a few dozen; the people lists' sort orders could make
// many more, and each kept statement holds its compiled program (a few
// kilobytes) for the life of the connection.
const maxCachedStatements = 256

// maxCachedText is the longest text kept prepared: the migrations, scripts
// of many statements run once, are longer, and gain nothing from it.
const maxCachedText = 8 << 10

// cachingConnector opens the driver's connections wrapped in stmtCacheConn.
type cachingConnector struct{ driver.Connector }

// newConnector returns a connector for the database/sql pool on dsn. It goes
// through the driver registered as "sqlite", which holds the functions this
// package registers (inkwell_lower).
func newConnector(dsn string) (driver.Connector, error) {
	base, err := sqlitedrv.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	return cachingConnector{base}, nil
}

func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	inner, ok := conn.(driverConn)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("sqlite: the driver's connection %T lacks a method the statement cache needs", conn)
	}
	return &stmtCacheConn{driverConn: inner, stmts: make(map[string]*cachedStmt)}, nil
}

// driverConn is what database/sql asks of the driver's connections; the
// wrapper passes every method on but the two it caches for.
type driverConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// driverStmt is what the driver's prepared statements offer.
type driverStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// driverRows is what the driver's rows offer.
type driverRows interface {
	driver.Rows
	driver.RowsColumnTypeDatabaseTypeName
	driver.RowsColumnTypeLength
	driver.RowsColumnTypeNullable
	driver.RowsColumnTypePrecisionScale
	driver.RowsColumnTypeScanType
}

// stmtCacheConn is a connection that keeps its statements prepared. Like
// every driver connection it is used by one goroutine at a time, so its map
// needs no lock.
type stmtCacheConn struct {
	driverConn
	stmts map[string]*cachedStmt
}

// cachedStmt is a prepared statement and whether rows read from it are
// still open: until they close, the statement is not free to run again.
type cachedStmt struct {
	stmt driverStmt
	busy bool
}

// take returns the prepared statement of query, preparing it on first use,
// or nil when query is not to be kept (too long, the cache is full) or its
// statement is busy; the caller then runs query as the driver would.
func (c *stmtCacheConn) take(ctx context.Context, query string) (*cachedStmt, error) {
	if s, ok := c.stmts[query]; ok {
		if s.busy {
			return nil, nil
		}
		return s, nil
	}
	if len(query) > maxCachedText || len(c.stmts) >= maxCachedStatements {
		return nil, nil
	}
	st, err := c.driverConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	ds, ok := st.(driverStmt)
	if !ok {
		st.Close()
		return nil, nil
	}
	s := &cachedStmt{stmt: ds}
	c.stmts[query] = s
	return s, nil
}

func (c *stmtCacheConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.driverConn.ExecContext(ctx, query, args)
	}
	return s.stmt.ExecContext(ctx, args)
}

func (c *stmtCacheConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.driverConn.QueryContext(ctx, query, args)
	}
	rows, err := s.stmt.QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	r, ok := rows.(driverRows)
	if !ok {
		rows.Close()
		return nil, errors.New("sqlite: the driver's rows lack a method the statement cache passes on")
	}
	s.busy = true
	return &cachedRows{driverRows: r, stmt: s}, nil
}

// Close finalizes the kept statements before the connection closes.
func (c *stmtCacheConn) Close() error {
	var errs []error
	for query, s := range c.stmts {
		errs = append(errs, s.stmt.Close())
		delete(c.stmts, query)
	}
	errs = append(errs, c.driverConn.Close())
	return errors.Join(errs...)
}

// cachedRows frees its statement for the next run when it closes; the
// driver has reset the statement by then.
type cachedRows struct {
	driverRows
	stmt *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.driverRows.Close()
	r.stmt.busy = false
	return err
}
