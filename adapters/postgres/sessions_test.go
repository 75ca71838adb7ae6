package postgres_test

import (
	"context"
	"testing"

	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/domain"
)

// TestSessionKindMigration runs migration 0020 on a database that already
// holds sessions, as an upgrade does: each becomes an API session.
func TestSessionKindMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.URL(t)
	pool := openStoreAt(t, url).Pool()
	for _, stmt := range []string{
		`ALTER TABLE sessions DROP COLUMN kind`,
		`DELETE FROM schema_migrations WHERE version = '0020_session_kinds'`,
		`INSERT INTO sessions (id_hash, csrf_token, last_activity, created_at) VALUES ('before 0020', 'c', now(), now())`,
	} {
		if _, err := pool.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	got, err := openStoreAt(t, url).Repos().Sessions.ByHash(ctx, "before 0020")
	if err != nil || got.Kind != domain.SessionAPI {
		t.Errorf("a session stored before 0020: got kind %q, %v; want %q", got.Kind, err, domain.SessionAPI)
	}
}
