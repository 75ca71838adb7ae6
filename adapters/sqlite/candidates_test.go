package sqlite

import "testing"

// A phrase known to match few titles is asked of published_titles by its
// first and last trigrams and those that run across words, or, with no
// such, by trigrams that cover it, the three likeliest to be rare of them
// where there are more; shorter needles keep their phrase.
func TestCandidateQuery(t *testing.T) {
	for _, c := range []struct {
		needle, want string
		ok           bool
	}{
		{"graceful worker", `"gra" AND "l w" AND "ker"`, true},
		{"lazy snapshot of", `"laz" AND "y s" AND " of"`, true},
		{"inkwell", `"ink" AND "wel" AND "ell"`, true},
		{"journey", `"jou" AND "rne" AND "ney"`, true},
		{"quills", `"qui" AND "lls" AND "lls"`, true},
		{`a "b" c`, `"a """ AND "b"" " AND """ c"`, true},
		{"été à", `"été" AND "é à"`, false},
		{"ful wo", `"ful" AND "l w" AND " wo"`, true},
		{"short", "", false},
	} {
		got, ok := candidateQuery(c.needle)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("candidateQuery(%q) = %q, %v; want %q, %v", c.needle, got, ok, c.want, c.ok)
		}
	}
}

// A phrase across words is asked of published_joined_titles by the
// phrases of its joins' pieces of three characters or more, and of its
// first and last three characters without spaces where no piece holds
// them.
func TestJoinQuery(t *testing.T) {
	for _, c := range []struct {
		needle, want string
		ok           bool
	}{
		{"graceful worker", `"ulwo" AND "gra" AND "ker"`, true},
		{"lazy snapshot of", `"zysn" AND "otof" AND "laz"`, true},
		{"a b, graceful worker", `"ulwo" AND "ab," AND "ker"`, true},
		{"ful wor", `"ulwo" AND "ful" AND "wor"`, true},
		{"before o", `"reo" AND "bef"`, true},
		// Of nine terms, the three likeliest to be rare, in order.
		{"transaction context again first query and test page", `"xtag" AND "infi" AND "stqu"`, true},
		{"graceful, worker", "", false},
		{"a b", "", false},
		{"inkwell", "", false},
	} {
		got, ok := joinQuery(c.needle)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("joinQuery(%q) = %q, %v; want %q, %v", c.needle, got, ok, c.want, c.ok)
		}
	}
}
