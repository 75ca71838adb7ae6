package titlejoin

import (
	"slices"
	"testing"
)

// Pieces glues the two letters or digits either side of each join of
// words by spaces, keeps close joins in one stretch, and leaves joins next
// to punctuation alone.
func TestPieces(t *testing.T) {
	for _, c := range []struct {
		search string
		want   []string
		ok     bool
	}{
		{"graceful worker", []string{"ulwo"}, true},
		{"Graceful  Worker", []string{"ulWo"}, true},
		{"lazy snapshot of", []string{"zysn", "otof"}, true},
		{"e row 4", []string{"erow4"}, true},
		{"graceful worker pool restarts", []string{"ulwo", "erpo", "olre"}, true},
		{"cache test debug", []string{"hete", "stde"}, true},
		{"cache tes debug", []string{"hetesde"}, true},
		{"graceful, worker", nil, false},
		{"a b", []string{"ab"}, false},
		{"a b c", []string{"abc"}, true},
		{"é üb", []string{"éüb"}, true},
		{" worker ", nil, false},
		{"inkwell", nil, false},
	} {
		got, ok := Pieces(c.search)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("Pieces(%q) = %q, %v; want %q, %v", c.search, got, ok, c.want, c.ok)
		}
	}
}
