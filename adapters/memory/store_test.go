package memory_test

import (
	"testing"

	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/ports"
	"github.com/inkwell/inkwell/ports/portstest"
)

func newStore(testing.TB) ports.Store { return memory.New() }

func TestStore(t *testing.T) {
	portstest.RunStore(t, newStore)
}

func BenchmarkAuthenticate(b *testing.B) {
	portstest.BenchAuthenticate(b, newStore)
}
