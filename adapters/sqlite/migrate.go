package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	schema "github.com/inkwell/inkwell/sql"
)

// migrationsDir is where schema.SQLite holds the migrations.
const migrationsDir = "sqlite/migrations"

// migrate applies, in file-name order, every embedded migration not yet
// recorded in schema_migrations. The bookkeeping table is not part of the
// migrations that sqlc reads, so these few statements are written by hand.
func migrate(ctx context.Context, conn *sql.DB) error {
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    TEXT PRIMARY KEY,
    applied_at INTEGER
)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	// fs.ReadDir returns the entries sorted by file name.
	entries, err := fs.ReadDir(schema.SQLite, migrationsDir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		if err := applyMigration(ctx, conn, e.Name()); err != nil {
			return fmt.Errorf("%s: %w", e.Name(), err)
		}
	}
	return nil
}

// applyMigration runs one file and records it in the same transaction. The
// transaction is immediate, so when two processes start on one file the second
// waits for the first and then finds the version recorded.
//
// It follows SQLite's procedure for schema changes that ALTER TABLE cannot
// make (https://sqlite.org/lang_altertable.html): foreign keys are off while
// the migration runs, so that a table may be rebuilt (created anew, filled,
// the old one dropped, the new one renamed) without the drop deleting, by
// cascade, the rows that refer to it; and every reference is checked before
// the commit. The pragma has no effect inside a transaction, so it is set
// on the connection before the transaction begins, and set back after.
func applyMigration(ctx context.Context, db *sql.DB, name string) error {
	body, err := fs.ReadFile(schema.SQLite, path.Join(migrationsDir, name))
	if err != nil {
		return err
	}
	version := strings.TrimSuffix(name, ".sql")

	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return err
	}
	// The connection goes back to the pool with foreign keys on, whatever
	// happened; a connection that cannot turn them on again is discarded.
	defer func() {
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`); err != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()

	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()

	var applied int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, version).Scan(&applied); err != nil {
		return err
	}
	if applied > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	if err := checkForeignKeys(ctx, tx); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`,
		version, time.Now().UnixMicro()); err != nil {
		return err
	}
	return tx.Commit()
}

// checkForeignKeys fails when a row refers to a row that does not exist,
// naming the first such row.
func checkForeignKeys(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return err
	}
	defer rows.Close()
	if rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var fk int
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			return err
		}
		return fmt.Errorf("foreign key check: row %d of %s refers to a missing row of %s", rowid.Int64, table, parent)
	}
	return rows.Err()
}
