package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/ports"
	"github.com/inkwell/inkwell/ports/portstest"
)

// newStore opens a fresh database file of the test's own and closes it when
// the test ends.
func newStore(tb testing.TB) ports.Store {
	tb.Helper()
	st, cleanup, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "inkwell.db"))
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
