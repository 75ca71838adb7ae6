package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// TestStatementCache runs kept statements the ways the store's code can:
// again and again, after a failure, while rows of the same text are still
// open, inside a transaction, and past the cache's bound.
func TestStatementCache(t *testing.T) {
	ctx := context.Background()
	pool, err := openPool(filepath.Join(t.TempDir(), "cache.db"), connParams)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	pool.SetMaxOpenConns(1) // one connection, so every statement meets its cache
	exec := func(query string, args ...any) error {
		_, err := pool.ExecContext(ctx, query, args...)
		return err
	}
	if err := exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`); err != nil {
		t.Fatal(err)
	}
	const insert = `INSERT INTO t (name) VALUES (?)`
	for i := range 5 {
		if err := exec(insert, fmt.Sprint("n", i)); err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
	}
	if err := exec(insert, "n1"); err == nil {
		t.Fatal("insert of a taken name: got no error")
	}
	if err := exec(insert, "n5"); err != nil {
		t.Fatalf("insert after a refused one: %v", err)
	}

	const byID = `SELECT name FROM t WHERE id >= ? ORDER BY id`
	for range 3 {
		rows, err := pool.QueryContext(ctx, byID, 1)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		if len(names) != 6 || names[5] != "n5" {
			t.Errorf("names: got %q, want n0 to n5", names)
		}
	}

	// Inside a transaction, the same text while its rows are still open
	// runs on a statement of its own.

	err = withTx(ctx, pool, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, byID, 5)
		if err != nil {
			return err
		}
		defer rows.Close()
		if !rows.Next() {
			return fmt.Errorf("no first row")
		}
		// Nested in the open rows: the kept statement is busy.
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM (`+byID+`)`, 1).Scan(&n); err != nil {
			return err
		}
		again, err := tx.QueryContext(ctx, byID, 6)
		if err != nil {
			return err
		}
		var got []string
		for again.Next() {
			var name string
			if err := again.Scan(&name); err != nil {
				return err
			}
			got = append(got, name)
		}
		if err := again.Close(); err != nil {
			return err
		}
		if n != 6 || len(got) != 1 || got[0] != "n5" {
			return fmt.Errorf("nested reads: got %d and %q, want 6 and [n5]", n, got)
		}
		var first string
		if err := rows.Scan(&first); err != nil || first != "n4" {
			return fmt.Errorf("the outer rows after the nested reads: got %q, %v, want n4", first, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// Past the bound, texts run uncached and still right.
	for i := range maxCachedStatements + 10 {
		var n int
		if err := pool.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) + %d FROM t", i)).Scan(&n); err != nil || n != 6+i {
			t.Fatalf("query %d: got %d, %v, want %d", i, n, err, 6+i)
		}
	}
}

func withTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
