package sqlite

import (
	"context"
	"database/sql"
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
func applyMigration(ctx context.Context, conn *sql.DB, name string) error {
	body, err := fs.ReadFile(schema.SQLite, path.Join(migrationsDir, name))
	if err != nil {
		return err
	}
	version := strings.TrimSuffix(name, ".sql")

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
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`,
		version, time.Now().UnixMicro()); err != nil {
		return err
	}
	return tx.Commit()
}
