package portstest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// A store may read a title search's page in more than one way, chosen from
// how many posts match against how many are published: walking the list
// in order and testing each title while matches are dense, or finding
// every match through an index and sorting them while they are few (on
// PostgreSQL, a walk passing up to 8 posts a match, so that the split lies
// near a match in 90 posts for a page of 15 and in 600 for a page of 2; on
// SQLite, 14 entries a match). testPostSearchEitherWay holds every such
// page to what a plain scan gives, on a list whose words are spread so that
// each way serves some of them: a word in every other title, one in 1
// title in 20, whose pages of 2 are walked and of 15 read by their matches
// there, one in 4 titles, and phrases of several words, found in a few
// titles, that run across words, end inside one or hold words of fewer
// than three letters, beside decoys that hold pieces of a phrase but not
// the phrase, or the phrase's letters with other characters, or none,
// where its words meet. Each search runs as v1 pages at several offsets, with
// their totals, and as cursor pages to the end, for an anonymous caller and
// for one whose drafts match.

// wayPosts is the number of published posts of testPostSearchEitherWay.
const wayPosts = 480

// waySearches are its searches.
var waySearches = []string{
	"dense",            // every other title
	"DENSE ROW",        // the same posts, two words
	"medium",           // 1 title in 20
	"sparse",           // 4 titles, the oldest
	"lazy snapshot of", // 2 titles
	"graceful worker",  // 3 titles, one in another case
	"ful wor",          // the same, pieces of both words
	"e row 4",          // across words, ending in a number
	"of a",             // short words only
	"graceful, worker", // across words with punctuation between them
	"graceful  worker", // two spaces between them
	"ful—wor",          // a dash that is not ASCII between them
	"é üb",             // across words, letters that are not ASCII
	"CAFÉ ÜBER",        // the same, in another case
	"cache test debug", // 1 title, beside its words glued otherwise
	"nowhere",          // no title
}

func testPostSearchEitherWay(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	err := st.InTx(ctx, func(r ports.Repos) error {
		for i := range wayPosts {
			words := []string{"Row", fmt.Sprint(i)}
			if i%2 == 0 {
				words = append([]string{"Dense"}, words...)
			}
			if i%20 == 7 {
				words = append(words, "medium")
			}
			switch i {
			case 3, 5, 8, 11:
				words = append(words, "sparse")
			case 40, 300:
				words = append(words, "a lazy snapshot of it")
			case 41, 200, 470:
				words = append(words, []string{"graceful worker", "Graceful Worker", "GRACEFUL worker"}[i%3])
			case 100:
				words = append(words, "out of a hat")
			// Decoys: titles that hold every third trigram of a phrase,
			// in another order or with other words between them, but not
			// the phrase.
			case 42, 43:
				words = append(words, "graceful and worker")
			case 301:
				words = append(words, "a lazy snapshot one of")
			// Titles that hold the same letters as "graceful worker"
			// with something else, or nothing, where the words meet.
			case 60:
				words = append(words, "graceful, worker")
			case 61:
				words = append(words, "Graceful  Worker")
			case 62:
				words = append(words, "graceful—worker")
			case 63:
				words = append(words, "gracefulworker")
			case 64:
				words = append(words, "graceful_worker")
			case 120:
				words = append(words, "cache test debug")
			case 121, 122:
				words = append(words, []string{"cachetest debug", "cache testdebug"}[i%2])
			case 150, 151:
				words = append(words, []string{"Café Über alles", "café-über"}[i%2])
			}
			status := domain.StatusPublished
			author := bob.ID
			// Some of Ann's drafts match, and take places among the rest.
			if i%37 == 0 {
				status, author = domain.StatusDraft, ann.ID
			}
			p := newPost(t, author, strings.Join(words, " "), status, at(time.Duration(i)*time.Minute))
			if err := r.Posts.Create(ctx, &p); err != nil {
				return fmt.Errorf("Posts.Create(%q): %w", p.Title(), err)
			}
		}
		return nil
	})
	must(t, "creating the posts", err)

	for _, viewer := range []int64{0, ann.ID} {
		all, _, err := r.PostViews.ListViews(ctx, ports.PostFilter{Viewer: viewer}, ports.Page{Limit: 2 * wayPosts})
		must(t, "the plain list", err)
		for _, search := range waySearches {
			var want []int64
			for _, v := range all {
				if strings.Contains(strings.ToLower(v.Post.Title()), strings.ToLower(search)) {
					want = append(want, v.Post.ID())
				}
			}
			f := ports.PostFilter{Viewer: viewer, Search: search}
			for _, page := range []ports.Page{{Limit: 2}, {Limit: 15}, {Offset: 2, Limit: 2}, {Offset: 10, Limit: 15},
				{Offset: len(want) / 2, Limit: 15}, {Offset: max(len(want)-1, 0), Limit: 2}, {Offset: len(want), Limit: 15},
				// Past the newest stretch a store may look in alone.
				{Offset: 60, Limit: 15}} {
				// Twice: a store may keep the total the first one counted.
				for range 2 {
					what := fmt.Sprintf("PostViews.ListViews(%+v, %+v)", f, page)
					views, total, err := r.PostViews.ListViews(ctx, f, page)
					if !checkErr(t, what, err, nil) {
						continue
					}
					check(t, what+": total", total, len(want))
					from, to := min(page.Offset, len(want)), min(page.Offset+page.Limit, len(want))
					check(t, what+": ids", postIDs(postsOf(views)), append([]int64{}, want[from:to]...))
				}
			}
			for _, limit := range []int{2, 15} {
				var got []int64
				var cursor *ports.PostCursor
				for range len(want)/limit + 2 {
					views, err := r.PostViews.ListViewsAfter(ctx, f, cursor, limit)
					if !checkErr(t, fmt.Sprintf("PostViews.ListViewsAfter(%+v, %+v, %d)", f, cursor, limit), err, nil) || len(views) == 0 {
						break
					}
					got = append(got, postIDs(postsOf(views))...)
					last := views[len(views)-1].Post
					cursor = &ports.PostCursor{CreatedAt: last.CreatedAt().UnixMicro(), ID: last.ID()}
				}
				check(t, fmt.Sprintf("cursor pages of %d of %+v", limit, f), got, want)
			}
		}
	}
}
