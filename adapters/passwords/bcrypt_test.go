package passwords

import (
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
