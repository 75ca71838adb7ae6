package passwords

import (
	"os"
	"strconv"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

func TestBcrypt(t *testing.T) {
	h := NewBcrypt(Config{Cost: bcrypt.MinCost})
	hash, err := h.Hash("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		password string
		want     bool
	}{
		{"correct horse", true},
		{"correct horsf", false},
		{"", false},
	} {
		got, err := h.Check(hash, tc.password)
		if err != nil || got != tc.want {
			t.Errorf("Check(%q) = %v, %v; want %v, nil", tc.password, got, err, tc.want)
		}
	}
	if _, err := h.Check("not a hash", "x"); err == nil {
		t.Error("Check of a malformed hash: got nil error, want one")
	}
	if h.NeedsRehash(hash) {
		t.Error("NeedsRehash at the same cost: got true")
	}
	if !NewBcrypt(Config{Cost: bcrypt.MinCost + 1}).NeedsRehash(hash) {
		t.Error("NeedsRehash at another cost: got false")
	}
}

// benchCost is the cost the benchmarks hash at: BCRYPT_COST when it is set,
// as the server reads it, otherwise the server's default of 12, so that the
// figures describe what a login costs in the configuration being measured.
func benchCost(b *testing.B) int {
	v := os.Getenv("BCRYPT_COST")
	if v == "" {
		return 12
	}
	cost, err := strconv.Atoi(v)
	if err != nil || cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
		b.Fatalf("BCRYPT_COST=%q is not a cost within %d-%d", v, bcrypt.MinCost, bcrypt.MaxCost)
	}
	return cost
}

// benchHash returns a hasher at benchCost and the hash of "password" it made.
func benchHash(b *testing.B) (*Bcrypt, string) {
	h := NewBcrypt(Config{Cost: benchCost(b)})
	hash, err := h.Hash("password")
	if err != nil {
		b.Fatal(err)
	}
	return h, hash
}

// BenchmarkCheck measures one successful password check on one core: the
// bcrypt work of a login. A login ceiling follows from it as cores divided
// by the time per check, which make bench reports beside the measured
// login rate.
func BenchmarkCheck(b *testing.B) {
	h, hash := benchHash(b)
	for b.Loop() {
		if ok, err := h.Check(hash, "password"); !ok || err != nil {
			b.Fatalf("Check = %v, %v; want true, nil", ok, err)
		}
	}
}

// BenchmarkCheckParallel runs checks on every core at once, as concurrent
// logins do; its time per operation is the wall time per check of the whole
// machine, which is what the cores-divided-by-time estimate assumes.
func BenchmarkCheckParallel(b *testing.B) {
	h, hash := benchHash(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if ok, err := h.Check(hash, "password"); !ok || err != nil {
				b.Errorf("Check = %v, %v; want true, nil", ok, err)
				return
			}
		}
	})
}
