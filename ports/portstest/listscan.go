package portstest

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The SQL stores find a deep page of the published posts by skipping
// entries of an index from its nearer end, and a search of three characters
// or more through a trigram index, falling back to reading titles for
// shorter ones. testPostListMatchesScan checks every such path against the
// answer a plain scan of the posts gives, on random posts: titles of mixed
// case with Unicode letters, %, _ and quotes, random statuses, authors,
// tags and times that tie; deep pages on either side of the middle; and
// searches of one character to several. Newest of all comes a run of posts
// written in order, as a live site writes them, their ids growing with
// their times; a word found only at the top of that run and in the oldest
// posts (clusterWord) leaves a long stretch of the list without a match,
// which a store that walks the list looking for matches must cross or
// avoid. Cursor pages of two posts and past the last match, and the
// viewer's own drafts among the matches, are read as well.

// scanPosts is the number of posts of the random list, enough for pages
// past the offsets from which the stores walk an index.
const scanPosts = 1500

// titleParts are what the random titles are made of: letters whose
// lower-case forms differ from SQL's ASCII folding, LIKE's wildcards, a
// quote, which FTS5 phrases must escape, and spaces.
var titleParts = []string{"ab", "Ab", "AB", "x", "é", "É", "ÉTÉ", "ß", "ẞ", "Σ", "σς", "ω", "%", "_", "%_", `"`, " ", "Ink", "well", "İ", "ǅ"}

// runPosts are written after the random posts, newest of all and in time
// order. clusterWord is in the titles of the newest clusterNewest of them
// and of the oldest clusterOldest posts of all, and in no other; every
// fourth of those is a draft of Ann's.
const (
	runPosts      = 400
	clusterWord   = "Quill"
	clusterNewest = 4
	clusterOldest = 30
)

// scanSearches are fixed searches beside the random ones: wildcards and a
// quote alone, short ones, folding, one that matches nothing, and the
// clustered word.
var scanSearches = []string{"%", "_", `"`, "a", "É", "ab", "AB", "%_", "ß", "ẞ", "σς", "ΣΣ", "éTé", "inkwell", "İ", "ǆ", "zzz", `" a`, "quill", "QUIL"}

func testPostListMatchesScan(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	rnd := rand.New(rand.NewPCG(1, 2))
	authors := []domain.User{
		createUser(t, r, newUser("Ann", "ann@example.com")),
		createUser(t, r, newUser("Bob", "bob@example.com")),
		createUser(t, r, newUser("Cid", "cid@example.com")),
	}
	// Two tags of one slug: a post carrying both is listed once.
	tags := []domain.Tag{createTag(t, r, "C", base), createTag(t, r, "c ", base), createTag(t, r, "Go", base)}
	posts := make([]domain.Post, 0, scanPosts)
	tagsOf := make(map[int64][]string)
	err := st.InTx(ctx, func(r ports.Repos) error {
		for i := range scanPosts {
			var title strings.Builder
			for range 1 + rnd.IntN(5) {
				title.WriteString(titleParts[rnd.IntN(len(titleParts))])
			}
			// The number keeps slugs apart.
			title.WriteString(" " + strconv.Itoa(i))
			status := domain.StatusPublished
			if rnd.IntN(5) == 0 {
				status = domain.StatusDraft
			}
			// Few distinct times, so that many posts tie on created_at.
			created := at(time.Duration(rnd.IntN(scanPosts/4)) * time.Minute)
			p := newPost(t, authors[rnd.IntN(len(authors))].ID, title.String(), status, created)
			if err := r.Posts.Create(ctx, &p); err != nil {
				return fmt.Errorf("Posts.Create(%q): %w", p.Title(), err)
			}
			var ids []int64
			for _, tag := range tags {
				if rnd.IntN(3) == 0 {
					ids = append(ids, tag.ID)
					tagsOf[p.ID()] = append(tagsOf[p.ID()], tag.Slug)
				}
			}
			if err := r.Posts.SetTags(ctx, p.ID(), ids); err != nil {
				return fmt.Errorf("Posts.SetTags: %w", err)
			}
			posts = append(posts, p)
		}
		// The run, then the oldest posts.
		for i := range runPosts + clusterOldest {
			created := at(time.Duration(scanPosts/4+i) * time.Minute)
			title, cluster := fmt.Sprintf("Run %d", i), i >= runPosts-clusterNewest
			if i >= runPosts {
				created = at(-time.Duration(i) * time.Minute)
			}
			if cluster {
				title = fmt.Sprintf("%s %d", clusterWord, i)
			}
			status, author := domain.StatusPublished, authors[i%2]
			if cluster && i%4 == 3 {
				status, author = domain.StatusDraft, authors[0]
			}
			p := newPost(t, author.ID, title, status, created)
			if err := r.Posts.Create(ctx, &p); err != nil {
				return fmt.Errorf("Posts.Create(%q): %w", p.Title(), err)
			}
			posts = append(posts, p)
		}
		return nil
	})
	must(t, "creating the random posts", err)
	slices.SortFunc(posts, func(a, b domain.Post) int {
		return cmp.Or(b.CreatedAt().Compare(a.CreatedAt()), cmp.Compare(b.ID(), a.ID()))
	})

	// The fixed searches are read by every viewer with every status; each
	// piece of a title by one of them, drawn at random.
	searches := append([]string{""}, scanSearches...)
	ann, bob := authors[0].ID, authors[1].ID
	var scopes, filters []ports.PostFilter
	for _, viewer := range []int64{0, ann} {
		for _, status := range []domain.PostStatus{"", domain.StatusPublished, domain.StatusDraft} {
			scopes = append(scopes, ports.PostFilter{Viewer: viewer, Status: status})
			for _, s := range searches {
				filters = append(filters, ports.PostFilter{Viewer: viewer, Status: status, Search: s})
			}
		}
	}
	for range 40 {
		// A piece of a title in another case, of one to six characters.
		title := []rune(posts[rnd.IntN(len(posts))].Title())
		from := rnd.IntN(len(title))
		piece := string(title[from:min(len(title), from+1+rnd.IntN(6))])
		if rnd.IntN(2) == 0 {
			piece = strings.ToUpper(piece)
		}
		searches = append(searches, piece)
		f := scopes[rnd.IntN(len(scopes))]
		f.Search = piece
		filters = append(filters, f)
	}
	for _, viewer := range []int64{0, ann} {
		filters = append(filters,
			ports.PostFilter{Viewer: viewer, AuthorID: bob, Search: searches[1+rnd.IntN(len(searches)-1)]},
			ports.PostFilter{Viewer: viewer, AuthorID: ann, Search: "ab"},
			ports.PostFilter{Viewer: viewer, TagSlug: "c", Search: searches[1+rnd.IntN(len(searches)-1)]},
			ports.PostFilter{Viewer: viewer, TagSlug: "go"})
	}

	for _, f := range filters {
		want := scanList(posts, tagsOf, f)
		total := len(want)
		offsets := []int{0, 15, total / 2, total/2 + 1, total - 15, total - 1, total, total + 5}
		if total > 1000 {
			offsets = append(offsets, 1000, 1001, total-1000, rnd.IntN(total))
		}
		// A short list names some offsets twice, and below zero.
		slices.Sort(offsets)
		offsets = slices.Compact(offsets)
		offsets = slices.DeleteFunc(offsets, func(o int) bool { return o < 0 })
		for _, limit := range []int{15, 7} {
			for _, offset := range offsets {
				what := fmt.Sprintf("PostViews.ListViews(%+v, offset %d, limit %d)", f, offset, limit)
				views, n, err := r.PostViews.ListViews(ctx, f, ports.Page{Offset: offset, Limit: limit})
				if !checkErr(t, what, err, nil) {
					continue
				}
				check(t, what+": total", n, total)
				check(t, what+": ids", postIDs(postsOf(views)), postIDs(want[min(offset, total):min(offset+limit, total)]))
			}
		}
		// A cursor walk of a few pages, of 16 posts and of 2, from the
		// start, from a random post and from the last one.
		starts := []*ports.PostCursor{nil}
		if total > 0 {
			for _, p := range []domain.Post{want[rnd.IntN(total)], want[total-1]} {
				starts = append(starts, &ports.PostCursor{CreatedAt: p.CreatedAt().UnixMicro(), ID: p.ID()})
			}
		}
		for _, limit := range []int{16, 2} {
			for _, start := range starts {
				cursor, from := start, 0
				if cursor != nil {
					from = slices.IndexFunc(want, func(p domain.Post) bool { return p.ID() == cursor.ID }) + 1
				}
				for page := 0; page < 3 && from <= total; page++ {
					what := fmt.Sprintf("PostViews.ListViewsAfter(%+v, %+v, %d)", f, cursor, limit)
					got, err := listPostsAfter(ctx, r, f, cursor, limit)
					if !checkErr(t, what, err, nil) {
						break
					}
					wantPage := want[from:min(from+limit, total)]
					if !check(t, what, postIDs(got), postIDs(wantPage)) || len(got) == 0 {
						break
					}
					last := got[len(got)-1]
					cursor = &ports.PostCursor{CreatedAt: last.CreatedAt().UnixMicro(), ID: last.ID()}
					from += len(got)
				}
			}
		}
	}
}

// scanList is what a list of posts filtered by f holds, newest first, found
// by reading every post: posts is in that order, and tagsOf holds the slugs
// of each post's tags.
func scanList(posts []domain.Post, tagsOf map[int64][]string, f ports.PostFilter) []domain.Post {
	needle := strings.ToLower(f.Search)
	list := []domain.Post{}
	for _, p := range posts {
		switch {
		case p.Status() != domain.StatusPublished && (f.Viewer == 0 || p.AuthorID() != f.Viewer):
		case f.Status != "" && p.Status() != f.Status:
		case f.AuthorID != 0 && p.AuthorID() != f.AuthorID:
		case f.TagSlug != "" && !slices.Contains(tagsOf[p.ID()], f.TagSlug):
		case !strings.Contains(strings.ToLower(p.Title()), needle):
		default:
			list = append(list, p)
		}
	}
	return list
}

// postIDs returns the ids of posts, in order.
func postIDs(posts []domain.Post) []int64 {
	ids := make([]int64, len(posts))
	for i, p := range posts {
		ids[i] = p.ID()
	}
	return ids
}
