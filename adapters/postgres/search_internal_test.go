package postgres

import "testing"

// The contract suite's SearchEitherWay counts on these choices to read
// some of its pages each way; the figures at a million posts are those of
// the seeded data (849,979 published posts).
func TestPlanSearch(t *testing.T) {
	for _, c := range []struct {
		name               string
		matched, published int64
		reach              int
		want               searchPlan
	}{
		{"every other title", 240, 480, 15, walkSearch},
		{"1 in 20, a page of 2", 24, 480, 2, walkSearch},
		{"1 in 20, a page of 15", 24, 480, 15, matchSearch},
		{"4 titles", 4, 480, 2, matchSearch},
		{"nothing", 0, 480, 15, matchSearch},
		{"inkwell at 1M", 8469, 849979, 15, walkSearch},
		{"journey at 1M", 36736, 849979, 15, walkSearch},
		{"inkwell at 1M, page 1,000", 8469, 849979, 15000, matchSearch},
		{"graceful worker at 1M", 222, 849979, 15, matchSearch},
		{"a phrase in 1 title at 1M", 1, 849979, 15, matchSearch},
		{"more matches than published (the viewer's own)", 5, 3, 15, walkSearch},
	} {
		if got := planSearch(c.matched, c.published, c.reach); got != c.want {
			t.Errorf("%s: planSearch(%d, %d, %d) = %d, want %d", c.name, c.matched, c.published, c.reach, got, c.want)
		}
	}
}

// posts_title_trgm is asked about the first and last three characters of
// a search's words, and about the search itself when it has no word of
// three.
func TestIndexPattern(t *testing.T) {
	for _, c := range []struct {
		search, want string
		ok           bool
	}{
		{"inkwell", "%ink%ell%", true},
		{"lazy", "%laz%", true},
		{"ink", "", false},
		{"lazy snapshot of", "%laz%sna%hot%", true},
		{"graceful worker", "%gra%ful%wor%ker%", true},
		{"ful wor", "%ful%wor%", true},
		{"of a", "", false},
		{"e row 4", "%row%", true},
		{"100%_off", "%100%off%", true},
		{"été à Paris", "%été%Par%", true},
	} {
		got, ok := indexPattern(c.search)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("indexPattern(%q) = %q, %v; want %q, %v", c.search, got, ok, c.want, c.ok)
		}
	}
}

// posts_title_joined_trgm is asked about ten characters of the search
// with its spaces taken out, about its first join, when it runs across
// words, and not about a search within one word, with punctuation at its
// joins, or whose joins give no trigram.
func TestJoinPattern(t *testing.T) {
	for _, c := range []struct {
		search, want string
		ok           bool
	}{
		{"graceful worker", "%cefulworke%", true},
		{"ful wor", "%fulwor%", true},
		{"lazy snapshot of", "%lazysnapsh%", true},
		{"graceful  worker", "%cefulworke%", true},
		{"graceful,  worker", "", false},
		{"graceful - worker!", "", false},
		{"graceful worker, a 100% pass", "%cefulworke%", true},
		{"e row 4", "%erow4%", true},
		{"a b c", "%abc%", true},
		{"ab cd ef", "%abcdef%", true},
		{"abc def ghi jkl", "%abcdefghij%", true},
		{"graceful worker pool restarts", "%cefulworke%", true},
		{"100%_off", "", false},
		{"100 %_off", "", false},
		{"50_ 1", "", false},
		{"a b_c d", `%ab\_cd%`, true},
		{"a 100% pass", `%a100\%pass%`, true},
		{"été à Paris", "%étéàParis%", true},
		{"naïve—café", "", false},
		{"naïve café", "%naïvecafé%", true},
		{" worker ", "", false},
		{"inkwell", "", false},
		{"a b", "", false},
		{"of a", "%ofa%", true},
		{"", "", false},
	} {
		got, ok := joinPattern(c.search)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("joinPattern(%q) = %q, %v; want %q, %v", c.search, got, ok, c.want, c.ok)
		}
	}
}
