package portstest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// testPostSearchThroughWrites holds a title search's pages and totals to
// what the plain list, filtered by title, holds after every kind of write
// that adds a match, removes one or leaves them be: creates, retitles,
// status moves both ways, deletes, an update that keeps title and status,
// a rollback and an author's deletion. A store may keep a search's total
// between writes; each search runs twice, so that the second may be
// answered from what the first kept. The matches are the newest of
// fillerPosts published posts, as on a live site, so that a store may find
// a first page among the newest posts alone.
// fillerPosts are older than the matches of testPostSearchThroughWrites.
const fillerPosts = 800

func testPostSearchThroughWrites(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))

	const word = "quill"
	var (
		posts []domain.Post
		n     time.Duration
	)
	create := func(author int64, title string, status domain.PostStatus) domain.Post {
		t.Helper()
		n++
		return createPost(t, r, newPost(t, author, title, status, at(n*time.Minute)))
	}
	err := st.InTx(ctx, func(r ports.Repos) error {
		for i := range fillerPosts {
			p := newPost(t, bob.ID, fmt.Sprintf("Filler %d", i), domain.StatusPublished, at(-time.Duration(fillerPosts-i)*time.Minute))
			if err := r.Posts.Create(ctx, &p); err != nil {
				return fmt.Errorf("Posts.Create: %w", err)
			}
		}
		return nil
	})
	must(t, "creating the filler posts", err)
	for i := range 6 {
		posts = append(posts, create([]int64{ann.ID, bob.ID}[i%2], fmt.Sprintf("Quill %d", i), domain.StatusPublished))
		posts = append(posts, create(bob.ID, fmt.Sprintf("Ink %d", i), domain.StatusPublished))
	}
	annDraft := create(ann.ID, "A quill draft", domain.StatusDraft)

	// "qu" and "Q" are held by the same titles: searches of one or two
	// characters, whose totals a store may keep apart.
	var searches []ports.PostFilter
	for _, search := range []string{word, "QUILL", "qu", "Q"} {
		searches = append(searches, ports.PostFilter{Search: search}, ports.PostFilter{Viewer: ann.ID, Search: search},
			ports.PostFilter{Viewer: ann.ID, Status: domain.StatusPublished, Search: search})
	}
	checkSearches := func(step string, r ports.Repos) {
		t.Helper()
		for _, f := range searches {
			// What the plain list holds, filtered by title here.
			all, _, err := r.PostViews.ListViews(ctx, ports.PostFilter{Viewer: f.Viewer, Status: f.Status}, ports.Page{Limit: 100})
			must(t, step+": the plain list", err)
			var want []int64
			for _, v := range all {
				if strings.Contains(strings.ToLower(v.Post.Title()), strings.ToLower(f.Search)) {
					want = append(want, v.Post.ID())
				}
			}
			for range 2 {
				for _, page := range []ports.Page{{Limit: 2}, {Offset: 2, Limit: 2}, {Limit: 15}, {Offset: len(want), Limit: 2}} {
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
		}
	}
	checkSearches("at the start", r)

	retitle := func(p domain.Post, title string) domain.Post {
		t.Helper()
		return updatePost(t, r, p, func(p *domain.Post) error { return p.Retitle(title, at(time.Hour)) })
	}
	move := func(p domain.Post, status domain.PostStatus) domain.Post {
		t.Helper()
		return updatePost(t, r, p, func(p *domain.Post) error { return p.SetStatus(status, at(time.Hour)) })
	}

	posts[1] = retitle(posts[1], "Ink and quill")
	checkSearches("after a title gains the word", r)
	posts[0] = retitle(posts[0], "Ink alone")
	checkSearches("after a title loses the word", r)
	posts[2] = move(posts[2], domain.StatusDraft)
	checkSearches("after Ann takes a match back to draft", r)
	move(annDraft, domain.StatusPublished)
	checkSearches("after Ann publishes a matching draft", r)
	posts[4] = updatePost(t, r, posts[4], func(p *domain.Post) error { return p.Rewrite("<p>Another body</p>", at(time.Hour)) })
	checkSearches("after an update that keeps title and status", r)
	must(t, "Posts.Delete", r.Posts.Delete(ctx, posts[6].ID()))
	checkSearches("after a match is deleted", r)
	create(bob.ID, "Quill, new", domain.StatusPublished)
	create(ann.ID, "Quill, Ann's new draft", domain.StatusDraft)
	checkSearches("after creates", r)

	errRollback := errors.New("roll back")
	err = st.InTx(ctx, func(r ports.Repos) error {
		p := newPost(t, bob.ID, "Quill, rolled back", domain.StatusPublished, at(2*time.Hour))
		if err := r.Posts.Create(ctx, &p); err != nil {
			return fmt.Errorf("Posts.Create: %w", err)
		}
		if err := r.Posts.Delete(ctx, posts[8].ID()); err != nil {
			return fmt.Errorf("Posts.Delete: %w", err)
		}
		// The transaction sees its own writes.
		checkSearches("inside a transaction that will roll back", r)
		return errRollback
	})
	checkErr(t, "InTx that rolls back", err, errRollback)
	checkSearches("after a rollback", r)

	must(t, "Users.Delete", r.Users.Delete(ctx, bob.ID))
	checkSearches("after an author's deletion", r)
}
