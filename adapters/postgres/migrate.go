package postgres

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/jackc/pgx/v5"

	schema "github.com/inkwell/inkwell/sql"
)

// migrationsDir is where package schema keeps this engine's migrations.
const migrationsDir = "postgres/migrations"

// migrationLock is the advisory lock key under which migrations run: the
// ASCII of "inkwell", so that it is recognisable in pg_locks.
const migrationLock int64 = 0x696e6b77656c6c

// migrate applies, in file-name order, every migration that
// schema_migrations does not list yet, each in its own transaction together
// with its row in schema_migrations. It holds a session advisory lock on one
// dedicated connection throughout, so replicas that start at once apply each
// migration exactly once: the first does the work, the others wait and then
// find nothing left to do. cfg must reach the server without a
// transaction-pooling pooler, which would not keep the lock's session.
func migrate(ctx context.Context, cfg *pgx.ConnConfig) error {
	files, err := migrationFiles()
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.Copy())
	if err != nil {
		return storeError("migrate: connect", err)
	}
	// Closing the session also releases the advisory lock, whatever state an
	// error left it in.
	defer conn.Close(context.WithoutCancel(ctx))

	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return storeError("migrate: lock", err)
	}
	defer func() {
		_, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	}()

	const createTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    text        PRIMARY KEY,
	applied_at timestamptz NOT NULL DEFAULT now()
)`
	if _, err := conn.Exec(ctx, createTable); err != nil {
		return storeError("migrate: create schema_migrations", err)
	}
	rows, _ := conn.Query(ctx, "SELECT version FROM schema_migrations")
	versions, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return storeError("migrate: read schema_migrations", err)
	}
	applied := make(map[string]bool, len(versions))
	for _, v := range versions {
		applied[v] = true
	}

	for _, f := range files {
		if applied[f.version] {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			// Exec without arguments uses the simple protocol, which runs
			// a file of several statements in one round trip.
			if _, err := tx.Exec(ctx, f.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version) VALUES ($1)", f.version)
			return err
		})
		if err != nil {
			return storeError("migrate: apply "+f.version, err)
		}
	}
	return nil
}

// migration is one embedded migration file; version is its name without
// the .sql extension.
type migration struct {
	version string
	sql     string
}

// migrationFiles reads the embedded migrations in file-name order.
func migrationFiles() ([]migration, error) {
	entries, err := fs.ReadDir(schema.Postgres, migrationsDir)
	if err != nil {
		return nil, fmt.Errorf("migrate: read migrations: %w", err)
	}
	var files []migration
	for _, e := range entries { // fs.ReadDir sorts by name
		if e.IsDir() || path.Ext(e.Name()) != ".sql" {
			continue
		}
		b, err := fs.ReadFile(schema.Postgres, path.Join(migrationsDir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("migrate: read %s: %w", e.Name(), err)
		}
		files = append(files, migration{version: strings.TrimSuffix(e.Name(), ".sql"), sql: string(b)})
	}
	return files, nil
}
