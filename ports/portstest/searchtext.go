package portstest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// testPostSearchAnyText holds a title search's pages, order and totals to
// what a plain scan of the list gives, for searches of every length and
// kind a user may type: one and two characters, which no trigram index
// holds and whose totals a store may keep apart; fragments that run across
// a word join; whole phrases; letters that are not ASCII in either case
// (accents, CJK, emoji), and the characters a store's own syntax may give
// a meaning to: %, _, backslashes, quotes and control characters. Titles
// change between the checks (created, retitled, unpublished, published,
// deleted), so that a total a store keeps must follow every write.

// textTitles are the titles of testPostSearchAnyText beside its plain
// rows.
var textTitles = []string{
	"Café Über alles",
	"CAFÉ ÜBER",
	"naïve résumé",
	"Straße am See",
	"日本語のタイトル",
	"東京 日本",
	"emoji 🎉 party 🎉🎉",
	"👩\u200d💻 coder",
	"100% sure",
	"50%_off",
	"under_score",
	`back\slash \\ double`,
	"tab\there",
	"bell\x07ring",
	"a\x01b",
	`quote "it" '`,
	"ΣΊΣΥΦΟΣ",
	"graceful worker",
	"a long cart",
	"Long Carts",
}

// textSearches are its searches.
var textSearches = []string{
	"e", "E", "er", "ro", "w 1", "ow 1", "row",
	"%", "_", "%_", "0%", `\`, `\\`, `\s`, "\t", "\th", "\x07", "\x01", `"`, `"it"`, "'",
	"é", "É", "ü", "Ü", "üb", "é ü", "ß", "sse", "σ", "Σ", "ΣΥ",
	"日", "日本", "本語", "京 日", "🎉", "🎉🎉", "👩", "\u200d",
	"ng ca", "g c", "ng carts", "graceful worker", "ul wo",
	"café über alles", "nowhere", "zz",
}

func testPostSearchAnyText(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	var posts []domain.Post
	n := 0
	create := func(r ports.Repos, author int64, title string, status domain.PostStatus) (domain.Post, error) {
		n++
		// Titles repeat, and some have no letter a slug keeps.
		p := newPost(t, author, title, status, at(time.Duration(n)*time.Minute)).WithSlugSuffix(n + 1)
		err := r.Posts.Create(ctx, &p)
		return p, err
	}
	err := st.InTx(ctx, func(r ports.Repos) error {
		for i := range 120 {
			title := fmt.Sprintf("Row %d", i)
			if i%4 == 1 {
				title = textTitles[(i/4)%len(textTitles)]
			}
			status, author := domain.StatusPublished, bob.ID
			// Some of Ann's drafts match, and take places among the rest.
			if i%9 == 5 {
				status, author = domain.StatusDraft, ann.ID
			}
			p, err := create(r, author, title, status)
			if err != nil {
				return fmt.Errorf("Posts.Create(%q): %w", title, err)
			}
			posts = append(posts, p)
		}
		return nil
	})
	must(t, "creating the posts", err)

	checkSearches := func(step string) {
		t.Helper()
		for _, viewer := range []int64{0, ann.ID} {
			all, _, err := r.PostViews.ListViews(ctx, ports.PostFilter{Viewer: viewer}, ports.Page{Limit: 1000})
			must(t, step+": the plain list", err)
			for _, search := range textSearches {
				var want []int64
				for _, v := range all {
					if strings.Contains(strings.ToLower(v.Post.Title()), strings.ToLower(search)) {
						want = append(want, v.Post.ID())
					}
				}
				f := ports.PostFilter{Viewer: viewer, Search: search}
				for _, page := range []ports.Page{{Limit: 15}, {Offset: 3, Limit: 4}, {Offset: max(len(want)-2, 0), Limit: 15},
					{Offset: len(want), Limit: 15}} {
					// Twice: a store may keep the total the first one counted.
					for range 2 {
						what := fmt.Sprintf("%s: PostViews.ListViews(%+v, %+v)", step, f, page)
						views, total, err := r.PostViews.ListViews(ctx, f, page)
						if !checkErr(t, what, err, nil) {
							continue
						}
						check(t, what+": total", total, len(want))
						from, to := min(page.Offset, len(want)), min(page.Offset+page.Limit, len(want))
						check(t, what+": ids", postIDs(postsOf(views)), append([]int64{}, want[from:to]...))
					}
				}
				var got []int64
				var cursor *ports.PostCursor
				for range len(want)/7 + 2 {
					views, err := r.PostViews.ListViewsAfter(ctx, f, cursor, 7)
					if !checkErr(t, fmt.Sprintf("%s: PostViews.ListViewsAfter(%+v, %+v, 7)", step, f, cursor), err, nil) || len(views) == 0 {
						break
					}
					got = append(got, postIDs(postsOf(views))...)
					last := views[len(views)-1].Post
					cursor = &ports.PostCursor{CreatedAt: last.CreatedAt().UnixMicro(), ID: last.ID()}
				}
				check(t, fmt.Sprintf("%s: cursor pages of %+v", step, f), got, want)
			}
		}
	}
	checkSearches("at the start")

	// posts[1], [5], [9], [13] and [17] hold titles of textTitles; [5]
	// is Ann's draft.
	change := func(p domain.Post, fn func(*domain.Post) error) domain.Post {
		t.Helper()
		return updatePost(t, r, p, fn)
	}
	posts[1] = change(posts[1], func(p *domain.Post) error { return p.Retitle("日本 🎉 100%_\\ É", at(time.Hour)) })
	posts[17] = change(posts[17], func(p *domain.Post) error { return p.SetStatus(domain.StatusDraft, at(time.Hour)) })
	posts[5] = change(posts[5], func(p *domain.Post) error { return p.SetStatus(domain.StatusPublished, at(time.Hour)) })
	posts[9] = change(posts[9], func(p *domain.Post) error { return p.Rewrite("<p>Another body</p>", at(time.Hour)) })
	must(t, "Posts.Delete", r.Posts.Delete(ctx, posts[13].ID()))
	_, err = create(r, bob.ID, "Éé ÉÉ 🎉 new \x07", domain.StatusPublished)
	must(t, "Posts.Create", err)
	checkSearches("after writes")
}
