package postgres_test

import (
	"testing"

	"github.com/inkwell/inkwell/ports"
	"github.com/inkwell/inkwell/ports/portstest"
)

// newStore opens a store on a database of the test's own.
func newStore(tb testing.TB) ports.Store {
	return openStore(tb)
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
