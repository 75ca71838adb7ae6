// Package shorttitle is what both SQL stores share about searches of one or
// two characters. No trigram index can find the titles that hold such a
// substring, and a common one ("er") is held by most titles: its page is
// found by walking the newest posts, and its exact total is kept, for each
// substring of one or two characters of the folded published titles, by
// triggers (migration 0022: short_title_counts on both stores), so that a
// total is a read of a few rows rather than a count of every title.
package shorttitle

import "unicode/utf8"

// MaxRunes is the longest search, in characters, whose total is kept.
const MaxRunes = 2

// Kept reports whether the total of a search for needle, already folded,
// is kept: one or two characters of valid UTF-8 (the stores compare text
// by characters, and an invalid byte is no character).
func Kept(needle string) bool {
	n := utf8.RuneCountInString(needle)
	return n >= 1 && n <= MaxRunes && utf8.ValidString(needle)
}

// Grams returns the distinct substrings of one and two characters of
// title, already folded, in the order they first appear. A byte that is no
// character of UTF-8 is in none: no search whose total is kept holds one.
func Grams(title string) []string {
	seen := make(map[string]struct{}, 2*len(title))
	var grams []string
	add := func(g string) {
		if _, ok := seen[g]; !ok {
			seen[g] = struct{}{}
			grams = append(grams, g)
		}
	}
	prev := -1
	for i := 0; i < len(title); {
		r, w := utf8.DecodeRuneInString(title[i:])
		if r == utf8.RuneError && w == 1 {
			prev = -1
			i++
			continue
		}
		add(title[i : i+w])
		if prev >= 0 {
			add(title[prev : i+w])
		}
		prev = i
		i += w
	}
	return grams
}
