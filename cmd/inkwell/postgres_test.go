package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
)

// TestOneServerWithPostgreSQL follows the README's "One server with
// PostgreSQL": DATABASE_URL, APP_ENV and APP_KEY kept in .env, then
// inkwell migrate and a command on the store. Each names the store on its
// first line with the password hidden, and nothing is made on the local
// disk.
func TestOneServerWithPostgreSQL(t *testing.T) {
	raw := pgtest.URL(t)
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		t.Skipf("TEST_DATABASE_URL %q is no URL with a user", raw)
	}
	// Under trust authentication a password is never asked for, so one the
	// URL carries only has to stay out of the log.
	password, ok := u.User.Password()
	if !ok {
		password = "readme-secret"
		u.User = url.UserPassword(u.User.Username(), password)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".env"), fmt.Sprintf("DATABASE_URL=%s\nAPP_ENV=production\nAPP_KEY=%s\nBCRYPT_COST=4\n", u, newAppKey()))

	for _, args := range [][]string{{"migrate"}, {"admin", "list"}} {
		got := runInkwell(t, dir, nil, args...)
		if got.code != 0 {
			t.Fatalf("inkwell %s: exit %d, stderr %q", strings.Join(args, " "), got.code, got.stderr)
		}
		// Production logs JSON; the first line names the store all the same.
		first, _, _ := strings.Cut(got.stderr, "\n")
		named := fmt.Sprintf(`"store":"postgres://%s@%s/`, u.User.Username(), u.Host)
		if !strings.Contains(first, named) || strings.Contains(got.stderr, password) {
			t.Errorf("inkwell %s: stderr %q; want a first line with %s and no password", strings.Join(args, " "), got.stderr, named)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != ".env" {
			t.Errorf("%s made on the local disk", e.Name())
		}
	}
}
