// Package pgtest gives each PostgreSQL test a database of its own, migrated
// and dropped when the test ends.
//
// The server is named by TEST_DATABASE_URL, for example
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable, whose role
// must be allowed to create databases. Without it the tests skip, unless
// REQUIRE_POSTGRES=1 (as CI sets), which makes them fail instead.
package pgtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/inkwell/inkwell/adapters/postgres"
	schema "github.com/inkwell/inkwell/sql"
)

// templateLock is the advisory lock key under which test binaries build the
// template database: the ASCII of "inkwtpl".
const templateLock int64 = 0x696e6b7774706c

var (
	mu        sync.Mutex
	templates = map[string]string{} // admin URL → template database built
)

// URL returns the URL of a fresh database for this test, created from a
// template that holds every migration, and drops the database when the test
// and its cleanups end. It skips the test when TEST_DATABASE_URL is unset
// (fails it under REQUIRE_POSTGRES=1) and fails it when the server cannot be
// reached.
func URL(tb testing.TB) string {
	tb.Helper()
	admin := os.Getenv("TEST_DATABASE_URL")
	if admin == "" {
		if os.Getenv("REQUIRE_POSTGRES") == "1" {
			tb.Fatal("pgtest: REQUIRE_POSTGRES=1 but TEST_DATABASE_URL is not set")
		}
		tb.Skip("pgtest: TEST_DATABASE_URL is not set; set it (e.g. postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable) to run PostgreSQL tests")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	tpl, err := template(ctx, admin)
	if err != nil {
		tb.Fatalf("pgtest: prepare template database: %v", err)
	}
	name := "inkwell_test_" + randomHex(8)
	if err := adminExec(ctx, admin, "CREATE DATABASE "+ident(name)+" TEMPLATE "+ident(tpl)); err != nil {
		tb.Fatalf("pgtest: create test database: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// FORCE ends the sessions of a store the test did not close.
		if err := adminExec(ctx, admin, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: drop test database %s: %v", name, err)
		}
	})
	u, err := withDatabase(admin, name)
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	return u
}

// template returns the name of the template database for the current
// migrations, building it once per server and role. The name carries a hash
// of the role and the migrations, so a changed schema gets a new template
// rather than a stale one.
func template(ctx context.Context, admin string) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if tpl, ok := templates[admin]; ok {
		return tpl, nil
	}
	tpl, err := buildTemplate(ctx, admin)
	if err != nil {
		return "", err
	}
	templates[admin] = tpl
	return tpl, nil
}

// buildTemplate creates the template database of the connecting role unless
// it exists, and returns its name. Test binaries of several packages run at
// once, so the check and the build happen under an advisory lock. The build
// happens under another name and is renamed when complete: a binary killed
// halfway leaves no template that looks finished.
func buildTemplate(ctx context.Context, admin string) (string, error) {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("connect to TEST_DATABASE_URL: %w", err)
	}
	// Closing the session releases the lock too.
	defer conn.Close(context.WithoutCancel(ctx))
	var role string
	if err := conn.QueryRow(ctx, "SELECT current_user").Scan(&role); err != nil {
		return "", fmt.Errorf("read role: %w", err)
	}
	tpl, err := templateName(role)
	if err != nil {
		return "", err
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLock); err != nil {
		return "", fmt.Errorf("lock: %w", err)
	}
	defer func() {
		_, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", templateLock)
	}()

	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", tpl).Scan(&exists); err != nil {
		return "", fmt.Errorf("look for %s: %w", tpl, err)
	}
	if exists {
		return tpl, nil
	}

	building := tpl + "_build"
	for _, stmt := range []string{
		"DROP DATABASE IF EXISTS " + ident(building) + " WITH (FORCE)",
		// template0 accepts no connections, so cloning it never fails for
		// want of exclusive access, as template1 can.
		"CREATE DATABASE " + ident(building) + " TEMPLATE template0",
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			return "", err
		}
	}
	u, err := withDatabase(admin, building)
	if err != nil {
		return "", err
	}
	_, closeStore, err := postgres.Open(ctx, u)
	if err != nil {
		return "", fmt.Errorf("migrate %s: %w", building, err)
	}
	closeStore()
	// A database cannot be renamed or cloned while anyone is connected to
	// it, and the server ends a closed session's backend a moment after the
	// client has gone.
	if err := waitForNoSessions(ctx, conn, building); err != nil {
		return "", err
	}
	for _, stmt := range []string{
		// No connections from now on keeps every clone possible.
		"ALTER DATABASE " + ident(building) + " WITH IS_TEMPLATE true ALLOW_CONNECTIONS false",
		"ALTER DATABASE " + ident(building) + " RENAME TO " + ident(tpl),
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			return "", err
		}
	}
	return tpl, nil
}

func waitForNoSessions(ctx context.Context, conn *pgx.Conn, database string) error {
	for {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE datname = $1", database).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sessions on %s did not end: %w", database, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// templateName is inkwell_tpl_ and the first 8 hex digits of a hash of the
// role and of the migrations' names and contents. A clone keeps the owners of
// its template's tables, so each role needs templates of its own: tables of
// another role's template would be out of the test's reach.
func templateName(role string) (string, error) {
	const dir = "postgres/migrations"
	entries, err := fs.ReadDir(schema.Postgres, dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", role)
	for _, e := range entries {
		b, err := fs.ReadFile(schema.Postgres, path.Join(dir, e.Name()))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", e.Name(), len(b))
		h.Write(b)
	}
	return "inkwell_tpl_" + hex.EncodeToString(h.Sum(nil))[:8], nil
}

// adminExec runs one statement on a connection of its own: CREATE and DROP
// DATABASE cannot run inside a transaction, and tests call this in parallel.
func adminExec(ctx context.Context, admin, stmt string) error {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return fmt.Errorf("connect to TEST_DATABASE_URL: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	_, err = conn.Exec(ctx, stmt)
	return err
}

// withDatabase returns admin with its database replaced by name, for both
// forms of connection string pgx accepts.
func withDatabase(admin, name string) (string, error) {
	if !strings.Contains(admin, "://") {
		// Keyword/value form: a later dbname overrides an earlier one.
		return admin + " dbname=" + name, nil
	}
	u, err := url.Parse(admin)
	if err != nil {
		return "", errors.New("TEST_DATABASE_URL is not a valid URL")
	}
	u.Path = "/" + name
	u.RawPath = ""
	return u.String(), nil
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)
}
