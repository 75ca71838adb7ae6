package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/internal/searchtotal"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// A batch of a title search (batchAfter) finds the first matches of the
// list among the newest entries of posts_published by their bounds. Held
// to the list itself, for every length of batch and of page, after a cursor
// or from the start, on a list whose times repeat (so that a batch may end
// among posts of one time) and on one whose ids do not follow their times:
// when it says it found the page, the page is the list's.
func TestBatchFindsTheFirstMatches(t *testing.T) {
	for _, shuffled := range []bool{false, true} {
		t.Run(fmt.Sprintf("shuffled=%v", shuffled), func(t *testing.T) {
			ctx := context.Background()
			s, cleanup, err := Open(ctx, filepath.Join(t.TempDir(), "inkwell.db"))
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			t.Cleanup(cleanup)
			exec := func(query string, args ...any) {
				t.Helper()
				if _, err := s.writer.ExecContext(ctx, query, args...); err != nil {
					t.Fatalf("%s: %v", query, err)
				}
			}
			exec(`INSERT INTO users (name, email, email_key, password_hash, created_at, updated_at) VALUES ('Ann', 'ann@example.com', 'ann@example.com', 'x', 0, 0)`)
			const posts = 90
			rnd := rand.New(rand.NewPCG(1, 2))
			times := make([]int64, posts)
			for i := range times {
				times[i] = int64(i / 3) // three posts a time
			}
			if shuffled {
				rnd.Shuffle(len(times), func(i, j int) { times[i], times[j] = times[j], times[i] })
			}
			type post struct {
				key     ports.PostCursor
				matches bool
			}
			var list []post
			for i := range posts {
				title, status := "Plain title", "published"
				if rnd.IntN(3) == 0 {
					title = "A Quill for " + fmt.Sprint(i)
				}
				if rnd.IntN(10) == 0 {
					status = "draft"
				}
				exec(`INSERT INTO posts (author_id, title, slug, excerpt, body, status, created_at, updated_at) VALUES (1, ?, ?, 'x', 'x', ?, ?, 0)`,
					title, fmt.Sprint("p-", i), status, times[i])
				if status == "published" {
					list = append(list, post{ports.PostCursor{CreatedAt: times[i], ID: int64(i + 1)}, strings.Contains(strings.ToLower(title), "quill")})
				}
			}
			slices.SortFunc(list, func(a, b post) int { return newerFirst(a.key, b.key) })
			r := postViews{c: conns{read: db.New(s.reader), readDB: s.reader}}
			firstMatches := func(cursor *ports.PostCursor, take int) []ports.PostCursor {
				keys := []ports.PostCursor{}
				for _, p := range list {
					if p.matches && (cursor == nil || newerFirst(*cursor, p.key) < 0) && len(keys) < take {
						keys = append(keys, p.key)
					}
				}
				return keys
			}
			cursors := []*ports.PostCursor{nil, &list[10].key, &list[41].key}
			found := 0
			for _, cursor := range cursors {
				for batch := 1; batch <= len(list)+1; batch++ {
					b, err := r.walkBatch(ctx, cursor, batch)
					if err != nil {
						t.Fatalf("walkBatch: %v", err)
					}
					for take := 1; take <= 6; take++ {
						for _, known := range []int{-1, 10} {
							keys, ok, err := r.batchAfter(ctx, "quill", known, cursor, take, batch, b)
							if err != nil {
								t.Fatalf("batchAfter: %v", err)
							}
							if !ok {
								continue
							}
							found++
							if want := firstMatches(cursor, take); !slices.Equal(keys, want) {
								t.Errorf("after %v, batch %d, take %d, known %d: got %v, want %v", cursor, batch, take, known, keys, want)
							}
						}
					}
				}
			}
			if found == 0 {
				t.Fatal("no batch found a page")
			}
		})
	}
}

// A search whose matches all lie among the oldest posts, though the total
// says they are spread enough for the first batch to hold a page: the
// page is still the list's, found through batches each twice as long as
// the one before (kept at the titles' version) rather than through the
// whole match.
func TestSearchPageDoublesTheBatch(t *testing.T) {
	ctx := context.Background()
	s, cleanup, err := Open(ctx, filepath.Join(t.TempDir(), "inkwell.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(cleanup)
	const posts, matches = 12000, 100
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO users (name, email, email_key, password_hash, created_at, updated_at) VALUES ('Ann', 'ann@example.com', 'ann@example.com', 'x', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	for i := range posts {
		title := "Plain title " + fmt.Sprint(i)
		if i < matches {
			title = "A Quill for " + fmt.Sprint(i)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO posts (author_id, title, slug, excerpt, body, status, created_at, updated_at) VALUES (1, ?, ?, 'x', 'x', 'published', ?, 0)`,
			title, fmt.Sprint("p-", i), i); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	first, ok := batchFor(15, matches, posts)
	if !ok || first*2 > posts {
		t.Fatalf("batchFor(15, %d, %d) = %d, %v: the test wants a first batch of less than half the posts", matches, posts, first, ok)
	}

	r := postViews{c: conns{read: db.New(s.reader), readDB: s.reader, totals: searchtotal.New(), batches: &batchCache{}}}
	var want []int64
	for i := matches; i > matches-15; i-- {
		want = append(want, int64(i)) // ids from 1, newest first
	}
	// The first search counts the whole match; the second knows its total
	// and walks batches.
	for range 2 {
		list, total, err := r.searchPage(ctx, ports.PostFilter{Search: "quill"}, "quill", ports.Page{Limit: 15})
		if err != nil {
			t.Fatalf("searchPage: %v", err)
		}
		ids := make([]int64, len(list))
		for i, p := range list {
			ids[i] = p.ID()
		}
		if total != matches || !slices.Equal(ids, want) {
			t.Fatalf("searchPage: got %v of %d, want %v of %d", ids, total, want, matches)
		}
	}
	var version int64
	if err := s.reader.QueryRowContext(ctx, `SELECT coalesce(sum(title_changes), 0) FROM post_counts`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{first, 2 * first, 4 * first} {
		if _, kept := r.c.batches.Get(batch, version); !kept {
			t.Errorf("no bounds kept for a batch of %d: the search did not walk it", batch)
		}
	}
}
