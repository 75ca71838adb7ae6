package sqlite_test

import (
	"context"
	"testing"

	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/adapters/sqlite/sqlitetest"
	"github.com/inkwell/inkwell/ports"
	"github.com/inkwell/inkwell/ports/portstest"
)

// newStore opens a fresh database file of the test's own, a copy of a
// migrated one, and closes it when the test ends. TestOpen* migrate empty
// files themselves.
func newStore(tb testing.TB) ports.Store {
	tb.Helper()
	st, cleanup, err := sqlite.Open(context.Background(), sqlitetest.Path(tb, ""))
	if err != nil {
		tb.Fatalf("open sqlite store: %v", err)
	}
	tb.Cleanup(cleanup)
	return st
}

func TestStore(t *testing.T) {
	portstest.RunStore(t, newStore)
}

func BenchmarkAuthenticate(b *testing.B) {
	portstest.BenchAuthenticate(b, newStore)
}

func BenchmarkCreatePost(b *testing.B) {
	portstest.BenchCreatePost(b, newStore)
}
