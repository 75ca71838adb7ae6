package adminsearch

import (
	"context"
	"slices"
	"testing"

	"github.com/inkwell/inkwell/ports"
)

// list is a newest-first list of n rows in which every row whose id is a
// multiple of every matches, and the reads a Finder makes of it, recorded.
type list struct {
	n, every int
	reads    []string
}

func (l *list) matching() []Key {
	var keys []Key
	for id := int64(l.n); id >= 1; id-- {
		if id%int64(l.every) == 0 {
			keys = append(keys, Key{ID: id})
		}
	}
	return keys
}

func (l *list) finder() Finder {
	return Finder{
		Matches: func(_ context.Context, limit int) ([]Key, error) {
			l.reads = append(l.reads, "matches")
			m := l.matching()
			slices.Reverse(m) // in id order, as FTS5 gives them
			return m[:min(limit, len(m))], nil
		},
		Walk: func(_ context.Context, examine, take int) ([]Key, error) {
			l.reads = append(l.reads, "walk")
			var keys []Key
			for id := int64(l.n); id >= 1 && id > int64(l.n-examine) && len(keys) < take; id-- {
				if id%int64(l.every) == 0 {
					keys = append(keys, Key{ID: id})
				}
			}
			return keys, nil
		},
		Sorted: func(_ context.Context, take int) ([]Key, error) {
			l.reads = append(l.reads, "sorted")
			m := l.matching()
			if take >= 0 {
				m = m[:min(take, len(m))]
			}
			return m, nil
		},
	}
}

// Every way through Page gives the page and the bounded total a plain
// scan gives, and the reads taken are the ones its comment promises.
func TestPage(t *testing.T) {
	cases := []struct {
		name       string
		n, every   int
		page       ports.Page
		bound      int
		reads      []string
		indexFirst bool
	}{
		{"common: the walk alone", 100_000, 10, ports.Page{Limit: 50}, 200, []string{"walk"}, false},
		{"rare: walk, then the index", 100_000, 5_000, ports.Page{Limit: 50}, 200, []string{"walk", "matches"}, false},
		{"between: the walk's page, the index's count", 100_000, 150, ports.Page{Limit: 50}, 200, []string{"walk", "matches"}, false},
		{"between, walk short: the index's matches sorted", 100_000, 300, ports.Page{Offset: 150, Limit: 50}, 200, []string{"walk", "matches"}, false},
		{"between, deep: sorted", 1_000_000, 150, ports.Page{Offset: 150, Limit: 50}, 200, []string{"walk", "matches", "sorted"}, false},
		{"deep page of a common word: the walk is bounded", 1_000_000, 100, ports.Page{Offset: 1450, Limit: 50}, 1500, []string{"walk", "matches", "sorted"}, false},
		{"exact", 1_000, 7, ports.Page{Offset: 10, Limit: 5}, 0, []string{"sorted"}, false},
		{"no page size", 1_000, 2, ports.Page{Offset: 10}, 100, []string{"sorted"}, false},
		{"past the end", 1_000, 100, ports.Page{Offset: 20, Limit: 5}, 200, []string{"walk", "matches"}, false},
		{"index first, rare: the index alone", 100_000, 5_000, ports.Page{Limit: 50}, 200, []string{"matches"}, true},
		{"index first, common: then the walk", 100_000, 10, ports.Page{Limit: 50}, 200, []string{"matches", "walk"}, true},
		{"index first, between: the index's matches sorted", 100_000, 300, ports.Page{Offset: 150, Limit: 50}, 200, []string{"matches", "matches"}, true},
		{"index first, deep: sorted", 1_000_000, 150, ports.Page{Offset: 150, Limit: 50}, 200, []string{"matches", "matches", "sorted"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := &list{n: tc.n, every: tc.every}
			f := l.finder()
			f.IndexFirst = tc.indexFirst
			keys, total, err := Page(t.Context(), f, tc.page, tc.bound)
			if err != nil {
				t.Fatal(err)
			}
			all := l.matching()
			from := min(tc.page.Offset, len(all))
			to := len(all)
			if tc.page.Limit > 0 {
				to = min(from+tc.page.Limit, to)
			}
			if want := all[from:to]; !slices.Equal(keys, want) {
				t.Errorf("keys: got %v, want %v", keys, want)
			}
			if want := ports.BoundedTotal(len(all), tc.bound); total != want {
				t.Errorf("total: got %d, want %d", total, want)
			}
			if !slices.Equal(l.reads, tc.reads) {
				t.Errorf("reads: got %v, want %v", l.reads, tc.reads)
			}
		})
	}
}
