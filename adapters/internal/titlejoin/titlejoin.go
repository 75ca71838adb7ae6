// Package titlejoin is what both SQL stores share about the places where a
// title search runs across words. Each store indexes its titles a second
// time with their spaces taken out (migration 0016: posts_title_joined_trgm
// on PostgreSQL, published_joined_titles on SQLite), so that the trigrams
// where two words meet, "ulw" and "lwo" of "gracefulworker", are in an
// index: they are rare wherever the words themselves are common. A search
// across words asks that index for its Pieces and tests the candidates
// against the search itself, so the answer stays exact.
package titlejoin

import "unicode"

// Pieces returns the pieces of search to look for in a title without its
// spaces, in order: the two letters or digits either side of each place
// where spaces part a letter or digit from another, glued ("ulwo" for
// "graceful worker"), and a stretch whole where such joins come so close
// that their pieces would overlap ("erow4" for "e row 4"). Pieces that
// only touch stay apart ("hete" and "stde" for "cache test debug"): the
// trigrams inside a word ("tes", "est") are common and would cost the
// index their posting lists. A title that holds search holds every
// piece once its spaces are gone, in this order. A join next to
// punctuation gives no piece: the trigram indexes cut there too. Pieces of
// fewer than three characters hold no trigram; ok is false when none has
// three, and when search runs across no words.
func Pieces(search string) (pieces []string, ok bool) {
	var joined []rune
	var joins []int
	spaces := false
	for _, r := range search {
		if r == ' ' {
			spaces = len(joined) > 0
			continue
		}
		if spaces && word(r) && word(joined[len(joined)-1]) {
			joins = append(joins, len(joined))
		}
		spaces = false
		joined = append(joined, r)
	}
	for i := 0; i < len(joins); {
		from, to := joins[i], joins[i]
		for ; i < len(joins) && joins[i] < to+4; i++ {
			to = joins[i]
		}
		for n := 0; n < 2 && from > 0 && word(joined[from-1]); n++ {
			from--
		}
		for n := 0; n < 2 && to < len(joined) && word(joined[to]); n++ {
			to++
		}
		pieces = append(pieces, string(joined[from:to]))
		ok = ok || to-from >= 3
	}
	return pieces, ok
}

func word(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
