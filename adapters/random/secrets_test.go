package random

import (
	"regexp"
	"testing"
)

func TestTokenEntropy(t *testing.T) {
	valid := regexp.MustCompile(`^[A-Za-z0-9]{40}$`)
	seen := map[string]bool{}
	for range 1000 {
		s := Secrets{}.TokenEntropy()
		if !valid.MatchString(s) {
			t.Fatalf("got %q, want 40 characters of [A-Za-z0-9]", s)
		}
		if seen[s] {
			t.Fatalf("got %q twice", s)
		}
		seen[s] = true
	}
}
