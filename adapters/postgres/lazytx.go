package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// lazyTx is the transaction Store.InTx runs a use case in. It saves a
// round trip by sending BEGIN, whose answer nothing waits for, in one batch
// with the transaction's first statement (as pgx's Batch.BeginTx does), so
// that a transaction of n statements costs n + 1 round trips with its
// COMMIT rather than n + 2. Through a pooler every round trip also costs a
// pass through it.
//
// The statements keep their order and their transaction, and an error of
// BEGIN is the error of the statement it went with. A transaction that
// sends nothing sends neither BEGIN nor COMMIT. It implements db.DBTX, like
// pgx.Tx.
type lazyTx struct {
	conn *pgxpool.Conn
	// pending holds BEGIN until it is sent; begun says whether it was.
	pending []*pgx.QueuedQuery
	begun   bool
}

func beginLazy(conn *pgxpool.Conn) *lazyTx {
	t := &lazyTx{conn: conn}
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	t.pending = b.QueuedQueries
	return t
}

// send sends BEGIN, then b's statements, in one batch, and reads BEGIN's
// result; b's are left to the caller.
func (t *lazyTx) send(ctx context.Context, b *pgx.Batch) (pgx.BatchResults, error) {
	n := len(t.pending)
	all := &pgx.Batch{QueuedQueries: append(t.pending, b.QueuedQueries...)}
	t.pending = nil
	t.begun = true
	br := t.conn.SendBatch(ctx, all)
	for _, q := range all.QueuedQueries[:n] {
		var err error
		if q.Fn != nil {
			err = q.Fn(br)
		} else {
			_, err = br.Exec()
		}
		if err != nil {
			_ = br.Close()
			return nil, err
		}
	}
	return br, nil
}

func (t *lazyTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if len(t.pending) == 0 {
		return t.conn.Exec(ctx, sql, args...)
	}
	b := &pgx.Batch{}
	b.Queue(sql, args...)
	br, err := t.send(ctx, b)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	tag, err := br.Exec()
	if closeErr := br.Close(); err == nil {
		err = closeErr
	}
	return tag, err
}

func (t *lazyTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if len(t.pending) == 0 {
		return t.conn.Query(ctx, sql, args...)
	}
	b := &pgx.Batch{}
	b.Queue(sql, args...)
	br, err := t.send(ctx, b)
	if err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		_ = br.Close()
		return nil, err
	}
	return &batchRows{Rows: rows, br: br}, nil
}

func (t *lazyTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if len(t.pending) == 0 {
		return t.conn.QueryRow(ctx, sql, args...)
	}
	rows, err := t.Query(ctx, sql, args...)
	return lazyRow{rows: rows, err: err}
}

// commit sends COMMIT; a transaction that never sent BEGIN has nothing to
// commit. Like pgx.Tx's Commit, it fails
// with pgx.ErrTxCommitRollback when PostgreSQL rolled the transaction back
// instead, after an error.
func (t *lazyTx) commit(ctx context.Context) error {
	if !t.begun && len(t.pending) == 1 {
		t.pending = nil
		return nil
	}
	b := &pgx.Batch{}
	var tag pgconn.CommandTag
	b.Queue("COMMIT").Exec(func(ct pgconn.CommandTag) error {
		tag = ct
		return nil
	})
	br, err := t.send(ctx, b)
	if err != nil {
		return err
	}
	if err := br.Close(); err != nil {
		return err
	}
	if tag.String() == "ROLLBACK" {
		return pgx.ErrTxCommitRollback
	}
	return nil
}

// rollback ends a transaction that BEGIN started.
func (t *lazyTx) rollback(ctx context.Context) error {
	t.pending = nil
	if !t.begun {
		return nil
	}
	_, err := t.conn.Exec(ctx, "ROLLBACK")
	return err
}

// batchRows are the rows of a batch's last statement: closing them reads
// the batch to its end, and an error there is theirs.
type batchRows struct {
	pgx.Rows
	br     pgx.BatchResults
	err    error
	closed bool
}

func (r *batchRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Close()
	return false
}

func (r *batchRows) Close() {
	if r.closed {
		return
	}
	r.closed = true
	r.Rows.Close()
	if err := r.br.Close(); err != nil && r.err == nil {
		r.err = err
	}
}

func (r *batchRows) Err() error {
	if err := r.Rows.Err(); err != nil {
		return err
	}
	return r.err
}

// lazyRow is QueryRow's answer from a batch, scanned as pgx's own is: the
// first row, pgx.ErrNoRows when there is none.
type lazyRow struct {
	rows pgx.Rows
	err  error
}

func (r lazyRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	r.rows.Close()
	return r.rows.Err()
}
