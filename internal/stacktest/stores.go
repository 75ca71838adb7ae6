// Package stacktest holds what the tests of several packages need to run the
// service's stack: the stores to run against and a headless browser. It is
// linked only into tests, which is why it may import every store adapter. It
// is no adapter, so it lives under internal, where the tests of app and of
// every adapter can import it and nothing outside the module can.
package stacktest

import (
	"context"
	"testing"

	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgbouncertest"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/adapters/sqlite/sqlitetest"
	"github.com/inkwell/inkwell/ports"
)

// Store is one store implementation a test can run against.
type Store struct {
	// Name names the store in subtest names.
	Name string
	// Open returns an empty store of its own for tb and closes it when tb
	// ends; PostgreSQL skips tb unless pgtest finds a server.
	Open func(tb testing.TB) ports.Store
}

// Stores returns every store the service can run on, memory first: their
// transactions, types and errors differ, so code above the store is tried on
// each of them. Tests that need just one cheap store take the first.
func Stores() []Store {
	return []Store{
		{"memory", func(testing.TB) ports.Store { return memory.New() }},
		{"sqlite", func(tb testing.TB) ports.Store {
			s, cleanup, err := sqlite.Open(context.Background(), sqlitetest.Path(tb, ""))
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(cleanup)
			return s
		}},
		{"postgres", func(tb testing.TB) ports.Store {
			s, cleanup, err := postgres.Open(context.Background(), pgtest.URL(tb))
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(cleanup)
			return s
		}},
		// The same database through PgBouncer in transaction pooling, as
		// replicas reach it: whatever relies on a session's state fails
		// here. It skips where pgtest or pgbouncertest skip.
		{"postgres-pgbouncer", func(tb testing.TB) ports.Store {
			direct := pgtest.URL(tb)
			s, cleanup, err := postgres.OpenPooled(context.Background(), pgbouncertest.URL(tb, direct), direct)
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(cleanup)
			return s
		}},
	}
}
