// Package sqlitetest gives each SQLite test a migrated database file of its
// own, a copy of one that the test binary migrates once.
//
// Running the migrations is most of what opening an empty store costs: under
// the race detector about a second a store, where writing a copy of the
// migrated file costs a few milliseconds. Suites that open a store per test
// (the contract suite, the HTTP and console suites on every store) spend
// minutes on it otherwise.
package sqlitetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/inkwell/inkwell/adapters/sqlite"
)

// migrated holds, once built, the files of a database to which every
// migration has been applied.
var migrated struct {
	once  sync.Once
	files map[string][]byte // name suffix after "inkwell.db" ("", "-wal") → contents
	err   error
}

// Path returns the path of a migrated database of tb's own, inkwell.db in
// dir (tb's temporary folder when dir is ""). sqlite.Open on it finds every
// migration recorded and applies none, so the store it opens is the one it
// would make of an empty file.
func Path(tb testing.TB, dir string) string {
	tb.Helper()
	migrated.once.Do(func() { migrated.files, migrated.err = migrate() })
	if migrated.err != nil {
		tb.Fatalf("sqlitetest: migrate the template database: %v", migrated.err)
	}
	if dir == "" {
		dir = tb.TempDir()
	} else if err := os.MkdirAll(dir, 0o750); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, "inkwell.db")
	for suffix, b := range migrated.files {
		if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// migrate migrates a database in a folder of its own, closes it and reads
// its files. Closing the last connection checkpoints the WAL into the
// database file; a WAL left beside it is kept too, the shared-memory index
// SQLite rebuilds.
func migrate() (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "sqlitetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "inkwell.db")
	_, closeStore, err := sqlite.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	closeStore()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range entries {
		suffix, ok := strings.CutPrefix(e.Name(), "inkwell.db")
		if !ok || suffix == "-shm" {
			continue
		}
		if files[suffix], err = os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
			return nil, err
		}
	}
	return files, nil
}
