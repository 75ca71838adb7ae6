package portstest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var postTests = []storeTest{
	{"RoundTrip", testPostRoundTrip},
	{"NotFound", testPostNotFound},
	{"SlugTaken", testPostSlugTaken},
	{"Update", testPostUpdate},
	{"Lock", testPostLock},
	{"Delete", testPostDelete},
	{"DeleteAuthor", testPostDeleteAuthor},
	{"NoAliasing", testPostNoAliasing},
	{"OwnWrites", testPostOwnWrites},
	{"LastSlugSuffix", testPostLastSlugSuffix},
	{"SetTags", testPostSetTags},
	{"CreateTagged", testPostCreateTagged},
	{"ListPages", testPostListPages},
	{"ListVisibility", testPostListVisibility},
	{"ListSearch", testPostListSearch},
	{"ListFilters", testPostListFilters},
	{"ListAfter", testPostListAfter},
	{"ListAfterCursor", testPostListAfterCursor},
	{"ListMatchesScan", testPostListMatchesScan},
	{"SearchThroughWrites", testPostSearchThroughWrites},
	{"SearchEitherWay", testPostSearchEitherWay},
	{"SearchAnyText", testPostSearchAnyText},
	{"ImagePathsByAuthor", testPostImagePathsByAuthor},
	{"CountThroughWrites", testPostCountThroughWrites},
	{"CountConcurrentWrites", testPostCountConcurrentWrites},
	{"View", testPostView},
	{"StaleReadsAllowed", testPostStaleReadsAllowed},
}

// listPosts returns the posts of the page that PostViews.ListViews returns.
func listPosts(ctx context.Context, r ports.Repos, f ports.PostFilter, page ports.Page) ([]domain.Post, error) {
	views, _, err := r.PostViews.ListViews(ctx, f, page)
	return postsOf(views), err
}

// countPosts returns the total that PostViews.ListViews returns with a page
// of one post.
func countPosts(ctx context.Context, r ports.Repos, f ports.PostFilter) (int, error) {
	_, n, err := r.PostViews.ListViews(ctx, f, ports.Page{Limit: 1})
	return n, err
}

// listPostsAfter returns the posts that PostViews.ListViewsAfter returns.
func listPostsAfter(ctx context.Context, r ports.Repos, f ports.PostFilter, cursor *ports.PostCursor, limit int) ([]domain.Post, error) {
	views, err := r.PostViews.ListViewsAfter(ctx, f, cursor, limit)
	return postsOf(views), err
}

// postsOf returns the posts of views.
func postsOf(views []ports.PostView) []domain.Post {
	posts := make([]domain.Post, len(views))
	for i, v := range views {
		posts[i] = v.Post
	}
	return posts
}

func testPostRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	cases := []struct {
		name  string
		state domain.PostState
	}{
		{"published, every field set", domain.PostState{
			AuthorID:    ann.ID,
			Title:       "Zoë’s “Ångström” notes",
			Slug:        "zoes-angstrom-notes",
			Excerpt:     "Notes on units, with ünïcode and 😀...",
			Body:        "<p>Notes on <em>units</em>,\n\twith ünïcode and 😀</p>",
			Status:      domain.StatusPublished,
			ImagePath:   "posts/3f9c2a7d.webp",
			PublishedAt: ptr(at(time.Hour + time.Microsecond)),
			CreatedAt:   base,
			UpdatedAt:   at(2*time.Second + 654321*time.Microsecond),
		}},
		{"draft, optional fields empty", domain.PostState{
			AuthorID:  ann.ID,
			Title:     "Bare",
			Slug:      "bare",
			Status:    domain.StatusDraft,
			CreatedAt: at(time.Minute),
			UpdatedAt: at(time.Minute),
		}},
	}
	seen := map[int64]string{}
	var wants []domain.Post
	for _, tc := range cases {
		p := domain.RestorePost(tc.state)
		if err := r.Posts.Create(ctx, &p); err != nil {
			t.Fatalf("%s: Posts.Create: %v", tc.name, err)
		}
		if p.ID() <= 0 {
			t.Errorf("%s: Posts.Create set ID %d, want a positive id", tc.name, p.ID())
		}
		if other, ok := seen[p.ID()]; ok {
			t.Errorf("%s: Posts.Create set ID %d, already given to %s", tc.name, p.ID(), other)
		}
		seen[p.ID()] = tc.name
		want := tc.state
		want.ID = p.ID()
		check(t, tc.name+": the created post (Create sets only the ID)", p.State(), want)
		wants = append([]domain.Post{domain.RestorePost(want)}, wants...)

		got, err := r.Posts.Get(ctx, p.ID())
		if checkErr(t, tc.name+": Posts.Get", err, nil) {
			check(t, tc.name+": Posts.Get", got.State(), want)
		}
		for _, w := range bothPlaces {
			what := fmt.Sprintf("%s: PostViews.View %s", tc.name, w.name)
			var view ports.PostView
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				view, err = r.PostViews.View(ctx, p.ID(), 0)
				return err
			})
			if checkErr(t, what, err, nil) {
				check(t, what+": the post", view.Post.State(), want)
				check(t, what+": the author", view.Author, ann.Author())
				check(t, what+": the tags", view.Tags, []domain.Tag{})
				check(t, what+": the comments", view.Comments, nil)
			}
		}
		err = st.InTx(ctx, func(r ports.Repos) error {
			got, err := r.Posts.Lock(ctx, p.ID())
			if checkErr(t, tc.name+": Posts.Lock", err, nil) {
				check(t, tc.name+": Posts.Lock", got.State(), want)
			}
			return nil
		})
		must(t, "InTx", err)
	}
	// The lists carry every field too, the body included.
	f := ports.PostFilter{Viewer: ann.ID}
	got, err := listPosts(ctx, r, f, ports.Page{Limit: 10})
	if checkErr(t, "PostViews.ListViews", err, nil) {
		checkPosts(t, "PostViews.ListViews", got, wants)
	}
	got, err = listPostsAfter(ctx, r, f, nil, 10)
	if checkErr(t, "PostViews.ListViewsAfter", err, nil) {
		checkPosts(t, "PostViews.ListViewsAfter", got, wants)
	}
}

func testPostNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	existing := createPost(t, r, newPost(t, ann.ID, "Existing", domain.StatusPublished, base))
	orphan := newPost(t, missingID, "Orphan", domain.StatusPublished, base)
	calls := []struct {
		name string
		call func(r ports.Repos) error
	}{
		{"Create by a missing author", func(r ports.Repos) error { p := orphan; return r.Posts.Create(ctx, &p) }},
		{"Get", func(r ports.Repos) error { _, err := r.Posts.Get(ctx, missingID); return err }},
		{"View", func(r ports.Repos) error { _, err := r.PostViews.View(ctx, missingID, ports.ShowComments); return err }},
		{"Lock", func(r ports.Repos) error { _, err := r.Posts.Lock(ctx, missingID); return err }},
		{"Update", func(r ports.Repos) error {
			s := existing.State()
			s.ID, s.Title = missingID, "Changed"
			return r.Posts.Update(ctx, domain.RestorePost(s))
		}},
		{"Delete", func(r ports.Repos) error { return r.Posts.Delete(ctx, missingID) }},
	}
	for _, c := range calls {
		for _, w := range bothPlaces {
			checkErr(t, fmt.Sprintf("Posts.%s %s", c.name, w.name), w.run(ctx, st, c.call), domain.ErrNotFound)
		}
	}
	got, err := r.Posts.Get(ctx, existing.ID())
	if checkErr(t, "Posts.Get of the existing post", err, nil) {
		check(t, "existing post after the failed calls", got.State(), existing.State())
	}
	n, err := r.Posts.LastSlugSuffix(ctx, "orphan")
	if checkErr(t, "Posts.LastSlugSuffix of the refused post's slug", err, nil) && n != 0 {
		t.Errorf("Posts.LastSlugSuffix of the refused post's slug: got %d, want 0", n)
	}
}

func testPostSlugTaken(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	first := createPost(t, r, newPost(t, ann.ID, "Hello World", domain.StatusPublished, base))

	same := newPost(t, bob.ID, "Hello, world!", domain.StatusPublished, at(time.Hour))
	restored := domain.RestorePost(domain.PostState{
		AuthorID: ann.ID, Title: "Another title", Slug: "hello-world", Body: "b", Excerpt: "b",
		Status: domain.StatusDraft, CreatedAt: at(time.Hour), UpdatedAt: at(time.Hour),
	})
	dups := []struct {
		name string
		post domain.Post
	}{
		{"another author's post of the same title", same},
		{"a post of another title with the same slug", restored},
	}
	for _, d := range dups {
		for _, w := range bothPlaces {
			err := w.run(ctx, st, func(r ports.Repos) error { p := d.post; return r.Posts.Create(ctx, &p) })
			checkErr(t, fmt.Sprintf("Posts.Create of %s %s", d.name, w.name), err, domain.ErrSlugTaken)
		}
	}
	for _, viewer := range []int64{ann.ID, bob.ID} {
		got, err := listPosts(ctx, r, ports.PostFilter{Viewer: viewer}, ports.Page{Limit: 10})
		if checkErr(t, "PostViews.ListViews after the refused creates", err, nil) {
			checkPosts(t, fmt.Sprintf("PostViews.ListViews(Viewer %d) after the refused creates", viewer), got, []domain.Post{first})
		}
	}
	suffixed := same.WithSlugSuffix(2)
	if checkErr(t, "Posts.Create with the suffixed slug", r.Posts.Create(ctx, &suffixed), nil) {
		got, err := r.Posts.Get(ctx, suffixed.ID())
		if checkErr(t, "Posts.Get of the suffixed post", err, nil) && got.Slug() != "hello-world-2" {
			t.Errorf("Posts.Get of the suffixed post: got slug %q, want %q", got.Slug(), "hello-world-2")
		}
	}
}

func testPostUpdate(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	origPost := newPost(t, ann.ID, "Original Title", domain.StatusDraft, base)
	origPost.SetImage("posts/original.png", base)
	orig := createPost(t, r, origPost).State()
	other := createPost(t, r, newPost(t, bob.ID, "Other", domain.StatusPublished, base))

	steps := []struct {
		name  string
		state domain.PostState
	}{
		{"every field changed, draft to published", domain.PostState{
			ID:          orig.ID,
			AuthorID:    bob.ID, // must be ignored
			Title:       "New Title",
			Slug:        "hijacked", // must be ignored
			Excerpt:     "New body",
			Body:        "<b>New</b> body",
			Status:      domain.StatusPublished,
			ImagePath:   "posts/new.webp",
			PublishedAt: ptr(at(2*time.Hour + time.Microsecond)),
			CreatedAt:   at(100 * time.Hour), // must be ignored
			UpdatedAt:   at(2*time.Hour + time.Microsecond),
		}},
		{"back to draft, optional fields cleared", domain.PostState{
			ID:        orig.ID,
			AuthorID:  missingID, // must be ignored, not refused
			Title:     "Plain",
			Slug:      "plain",
			Status:    domain.StatusDraft,
			UpdatedAt: at(3 * time.Hour),
		}},
	}
	for _, s := range steps {
		if err := r.Posts.Update(ctx, domain.RestorePost(s.state)); err != nil {
			t.Fatalf("%s: Posts.Update: %v", s.name, err)
		}
		want := s.state
		want.AuthorID, want.Slug, want.CreatedAt = orig.AuthorID, orig.Slug, orig.CreatedAt
		got, err := r.Posts.Get(ctx, orig.ID)
		if checkErr(t, s.name+": Posts.Get", err, nil) {
			check(t, s.name+": Posts.Get (Update writes every field but ID, author, slug and CreatedAt)", got.State(), want)
		}
	}
	n, err := r.Posts.LastSlugSuffix(ctx, "original-title")
	if checkErr(t, "Posts.LastSlugSuffix of the kept slug", err, nil) && n != 1 {
		t.Errorf("Posts.LastSlugSuffix of the kept slug: got %d, want 1", n)
	}
	for _, slug := range []string{"hijacked", "plain"} {
		n, err := r.Posts.LastSlugSuffix(ctx, slug)
		if checkErr(t, "Posts.LastSlugSuffix of a slug Update was handed", err, nil) && n != 0 {
			t.Errorf("Posts.LastSlugSuffix(%q), a slug Update was handed: got %d, want 0", slug, n)
		}
	}
	got, err := r.Posts.Get(ctx, other.ID())
	if checkErr(t, "Posts.Get of the other post", err, nil) {
		check(t, "the other post after the updates", got.State(), other.State())
	}
}

func testPostLock(t *testing.T, st ports.Store) {
	ctx := t.Context()
	ann := createUser(t, st.Repos(), newUser("Ann", "ann@example.com"))
	p := createPost(t, st.Repos(), newPost(t, ann.ID, "Locked", domain.StatusDraft, base))
	changed := p
	changed.Retitle("Locked and changed", at(time.Hour))
	err := st.InTx(ctx, func(r ports.Repos) error {
		got, err := r.Posts.Lock(ctx, p.ID())
		if err != nil {
			return fmt.Errorf("Posts.Lock: %w", err)
		}
		check(t, "Posts.Lock", got.State(), p.State())
		return r.Posts.Update(ctx, changed)
	})
	checkErr(t, "InTx locking and updating a post", err, nil)
	got, err := st.Repos().Posts.Get(ctx, p.ID())
	if checkErr(t, "Posts.Get", err, nil) {
		check(t, "post updated after Lock", got.State(), changed.State())
	}
}

func testPostDelete(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	golang := createTag(t, r, "Go", base)
	sql := createTag(t, r, "SQL", base)
	doomed := createPost(t, r, newPost(t, ann.ID, "Doomed", domain.StatusPublished, base))
	kept := createPost(t, r, newPost(t, ann.ID, "Kept", domain.StatusPublished, at(time.Hour)))
	setTags(t, r, doomed, golang, sql)
	setTags(t, r, kept, golang)
	doomedComments := []domain.Comment{
		createComment(t, r, newComment(doomed.ID(), bob.ID, "first", at(time.Minute))),
		createComment(t, r, newComment(doomed.ID(), ann.ID, "second", at(2*time.Minute))),
	}
	keptComment := createComment(t, r, newComment(kept.ID(), bob.ID, "stays", at(time.Minute)))

	if err := r.Posts.Delete(ctx, doomed.ID()); err != nil {
		t.Fatalf("Posts.Delete: %v", err)
	}
	_, err := r.Posts.Get(ctx, doomed.ID())
	checkErr(t, "Posts.Get of a deleted post", err, domain.ErrNotFound)
	for _, c := range doomedComments {
		_, err := r.Comments.Get(ctx, c.ID)
		checkErr(t, fmt.Sprintf("Comments.Get(%q) of a deleted post", c.Body), err, domain.ErrNotFound)
	}
	list, total, err := r.Comments.ListByPost(ctx, doomed.ID(), ports.Page{Limit: 100})
	if checkErr(t, "Comments.ListByPost of a deleted post", err, nil) && (len(list) != 0 || total != 0) {
		t.Errorf("Comments.ListByPost of a deleted post: got %d comments of %d, want none", len(list), total)
	}
	tags, err := r.Tags.OfPosts(ctx, []int64{doomed.ID(), kept.ID()})
	if checkErr(t, "Tags.OfPosts", err, nil) {
		checkTagMap(t, "Tags.OfPosts of a deleted and a kept post", tags, map[int64][]domain.Tag{kept.ID(): {golang}})
	}
	checkErr(t, "Posts.Delete of a deleted post", r.Posts.Delete(ctx, doomed.ID()), domain.ErrNotFound)

	got, err := r.Posts.Get(ctx, kept.ID())
	if checkErr(t, "Posts.Get of the kept post", err, nil) {
		check(t, "the kept post", got.State(), kept.State())
	}
	list, total, err = r.Comments.ListByPost(ctx, kept.ID(), ports.Page{Limit: 100})
	if checkErr(t, "Comments.ListByPost of the kept post", err, nil) {
		if total != 1 {
			t.Errorf("Comments.ListByPost of the kept post: got total %d, want 1", total)
		}
		check(t, "Comments.ListByPost of the kept post", list, withAuthors(t, []domain.Comment{keptComment}, bob))
	}
	allTags, err := r.Tags.List(ctx)
	if checkErr(t, "Tags.List", err, nil) {
		check(t, "Tags.List after deleting a tagged post (tags stay)", allTags, []domain.Tag{golang, sql})
	}
	again := newPost(t, bob.ID, "Doomed", domain.StatusPublished, at(2*time.Hour))
	checkErr(t, "Posts.Create with a deleted post's slug", r.Posts.Create(ctx, &again), nil)
}

// testPostDeleteAuthor checks what goes with a user: the user's posts, the
// comments on them, and the user's comments on other posts.
func testPostDeleteAuthor(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	golang := createTag(t, r, "Go", base)
	annPost := createPost(t, r, newPost(t, ann.ID, "Ann's post", domain.StatusPublished, base))
	annDraft := createPost(t, r, newPost(t, ann.ID, "Ann's draft", domain.StatusDraft, at(time.Minute)))
	bobPost := createPost(t, r, newPost(t, bob.ID, "Bob's post", domain.StatusPublished, at(time.Hour)))
	setTags(t, r, annPost, golang)
	setTags(t, r, bobPost, golang)
	gone := []domain.Comment{
		createComment(t, r, newComment(annPost.ID(), bob.ID, "Bob on Ann's post", at(time.Minute))),
		createComment(t, r, newComment(annDraft.ID(), ann.ID, "Ann on her draft", at(time.Minute))),
		createComment(t, r, newComment(bobPost.ID(), ann.ID, "Ann on Bob's post", at(time.Minute))),
	}
	stays := createComment(t, r, newComment(bobPost.ID(), bob.ID, "Bob on his post", at(2*time.Minute)))

	if err := r.Users.Delete(ctx, ann.ID); err != nil {
		t.Fatalf("Users.Delete: %v", err)
	}
	for _, p := range []domain.Post{annPost, annDraft} {
		_, err := r.Posts.Get(ctx, p.ID())
		checkErr(t, fmt.Sprintf("Posts.Get(%q) of a deleted user", p.Title()), err, domain.ErrNotFound)
		_, err = r.PostViews.View(ctx, p.ID(), ports.ShowComments)
		checkErr(t, fmt.Sprintf("PostViews.View(%q) of a deleted user", p.Title()), err, domain.ErrNotFound)
	}
	view, err := r.PostViews.View(ctx, bobPost.ID(), ports.ShowComments)
	if checkErr(t, "PostViews.View of the other user's post", err, nil) {
		checkView(t, "PostViews.View of the other user's post", view, bobPost, bob.Author(), []domain.Tag{golang}, withAuthors(t, []domain.Comment{stays}, bob))
	}
	for _, c := range gone {
		_, err := r.Comments.Get(ctx, c.ID)
		checkErr(t, fmt.Sprintf("Comments.Get(%q) after deleting Ann", c.Body), err, domain.ErrNotFound)
	}
	list, total, err := r.Comments.ListByPost(ctx, bobPost.ID(), ports.Page{Limit: 100})
	if checkErr(t, "Comments.ListByPost of the other user's post", err, nil) {
		if total != 1 {
			t.Errorf("Comments.ListByPost of the other user's post: got total %d, want 1", total)
		}
		check(t, "Comments.ListByPost of the other user's post", list, withAuthors(t, []domain.Comment{stays}, bob))
	}
	tags, err := r.Tags.OfPosts(ctx, []int64{annPost.ID(), bobPost.ID()})
	if checkErr(t, "Tags.OfPosts", err, nil) {
		checkTagMap(t, "Tags.OfPosts after deleting Ann", tags, map[int64][]domain.Tag{bobPost.ID(): {golang}})
	}
	posts, err := listPosts(ctx, r, ports.PostFilter{Viewer: ann.ID}, ports.Page{Limit: 10})
	if checkErr(t, "PostViews.ListViews", err, nil) {
		checkPosts(t, "PostViews.ListViews after deleting Ann", posts, []domain.Post{bobPost})
	}
	n, err := countPosts(ctx, r, ports.PostFilter{Viewer: ann.ID, AuthorID: ann.ID})
	if checkErr(t, "the total of PostViews.ListViews", err, nil) && n != 0 {
		t.Errorf("the total of PostViews.ListViews of a deleted user's posts: got %d, want 0", n)
	}
	again := createUser(t, r, newUser("Ann Again", "ann@example.com"))
	p := newPost(t, again.ID, "Ann's post", domain.StatusPublished, at(2*time.Hour))
	checkErr(t, "Posts.Create with a deleted user's slug", r.Posts.Create(ctx, &p), nil)
}

// testPostNoAliasing checks that the store keeps no reference to the
// published_at a caller hands in or gets back, nor to the tag slices it
// returns.
func testPostNoAliasing(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	in := domain.RestorePost(domain.PostState{
		AuthorID: ann.ID, Title: "Pointers", Slug: "pointers", Body: "b", Excerpt: "b",
		Status: domain.StatusPublished, PublishedAt: ptr(base), CreatedAt: base, UpdatedAt: base,
	})
	must(t, "Posts.Create", r.Posts.Create(ctx, &in))
	want := in.State()
	want.PublishedAt = ptr(base)
	*in.PublishedAt() = at(time.Hour)
	got, err := r.Posts.Get(ctx, in.ID())
	must(t, "Posts.Get", err)
	check(t, "post after changing the created value's published_at", got.State(), want)
	*got.PublishedAt() = at(2 * time.Hour)
	list, err := listPosts(ctx, r, ports.PostFilter{}, ports.Page{Limit: 10})
	must(t, "PostViews.ListViews", err)
	checkPosts(t, "posts after changing a read value's published_at", list, []domain.Post{domain.RestorePost(want)})
	if len(list) == 1 {
		*list[0].PublishedAt() = at(3 * time.Hour)
	}
	list, err = listPostsAfter(ctx, r, ports.PostFilter{}, nil, 10)
	must(t, "PostViews.ListViewsAfter", err)
	checkPosts(t, "posts after changing a listed value's published_at", list, []domain.Post{domain.RestorePost(want)})
	if len(list) == 1 {
		*list[0].PublishedAt() = at(4 * time.Hour)
	}
	upd := want
	upd.Title, upd.PublishedAt = "Pointers again", ptr(at(5*time.Hour))
	updated := domain.RestorePost(upd)
	must(t, "Posts.Update", r.Posts.Update(ctx, updated))
	*updated.PublishedAt() = at(6 * time.Hour)
	got, err = r.Posts.Get(ctx, in.ID())
	must(t, "Posts.Get", err)
	upd.PublishedAt = ptr(at(5 * time.Hour))
	check(t, "post after changing listed values and the updated value's published_at", got.State(), upd)

	tag := createTag(t, r, "Go", base)
	setTags(t, r, in, tag)
	tags, err := r.Tags.OfPosts(ctx, []int64{in.ID()})
	must(t, "Tags.OfPosts", err)
	for _, ts := range tags {
		ts[0].Name = "Changed"
	}
	tags, err = r.Tags.OfPosts(ctx, []int64{in.ID()})
	must(t, "Tags.OfPosts", err)
	checkTagMap(t, "Tags.OfPosts after changing a returned tag", tags, map[int64][]domain.Tag{in.ID(): {tag}})
}

// testPostOwnWrites checks that the repositories of a transaction read the
// posts, tags and comments the transaction wrote before it commits.
func testPostOwnWrites(t *testing.T, st ports.Store) {
	ctx := t.Context()
	ann := createUser(t, st.Repos(), newUser("Ann", "ann@example.com"))
	older := createPost(t, st.Repos(), newPost(t, ann.ID, "Older", domain.StatusPublished, base))
	err := st.InTx(ctx, func(r ports.Repos) error {
		p := newPost(t, ann.ID, "Fresh", domain.StatusDraft, at(time.Hour))
		if err := r.Posts.Create(ctx, &p); err != nil {
			return fmt.Errorf("Posts.Create: %w", err)
		}
		if got, err := r.Posts.Get(ctx, p.ID()); checkErr(t, "Posts.Get of a post created in the transaction", err, nil) {
			check(t, "Posts.Get of a post created in the transaction", got.State(), p.State())
		}
		if got, err := r.Posts.Lock(ctx, p.ID()); checkErr(t, "Posts.Lock of a post created in the transaction", err, nil) {
			check(t, "Posts.Lock of a post created in the transaction", got.State(), p.State())
		}
		if n, err := r.Posts.LastSlugSuffix(ctx, "fresh"); checkErr(t, "Posts.LastSlugSuffix in the transaction", err, nil) && n != 1 {
			t.Errorf("Posts.LastSlugSuffix of a slug taken in the transaction: got %d, want 1", n)
		}
		f := ports.PostFilter{Viewer: ann.ID}
		if got, err := listPosts(ctx, r, f, ports.Page{Limit: 10}); checkErr(t, "PostViews.ListViews in the transaction", err, nil) {
			checkPosts(t, "PostViews.ListViews in the transaction", got, []domain.Post{p, older})
		}
		if got, err := listPostsAfter(ctx, r, f, nil, 10); checkErr(t, "PostViews.ListViewsAfter in the transaction", err, nil) {
			checkPosts(t, "PostViews.ListViewsAfter in the transaction", got, []domain.Post{p, older})
		}
		if n, err := countPosts(ctx, r, f); checkErr(t, "the total of PostViews.ListViews in the transaction", err, nil) && n != 2 {
			t.Errorf("the total of PostViews.ListViews in the transaction: got %d, want 2", n)
		}
		want := []ports.PostView{{Post: p, Author: ann.Author(), Tags: []domain.Tag{}}, {Post: older, Author: ann.Author(), Tags: []domain.Tag{}}}
		if got, n, err := r.PostViews.ListViews(ctx, f, ports.Page{Limit: 10}); checkErr(t, "PostViews.ListViews in the transaction", err, nil) {
			checkPostViews(t, "PostViews.ListViews in the transaction", got, want)
			if n != 2 {
				t.Errorf("PostViews.ListViews in the transaction: got total %d, want 2", n)
			}
		}
		if got, err := r.PostViews.ListViewsAfter(ctx, f, nil, 10); checkErr(t, "PostViews.ListViewsAfter in the transaction", err, nil) {
			checkPostViews(t, "PostViews.ListViewsAfter in the transaction", got, want)
		}

		tag := newTag(t, "Go", base)
		if err := r.Tags.Create(ctx, &tag); err != nil {
			return fmt.Errorf("Tags.Create: %w", err)
		}
		if got, err := r.Tags.List(ctx); checkErr(t, "Tags.List in the transaction", err, nil) {
			check(t, "Tags.List in the transaction", got, []domain.Tag{tag})
		}
		if got, err := r.Tags.ByIDs(ctx, []int64{tag.ID}); checkErr(t, "Tags.ByIDs in the transaction", err, nil) {
			check(t, "Tags.ByIDs in the transaction", got, []domain.Tag{tag})
		}
		if err := r.Posts.SetTags(ctx, p.ID(), []int64{tag.ID}); err != nil {
			return fmt.Errorf("Posts.SetTags: %w", err)
		}
		if got, err := r.Tags.OfPosts(ctx, []int64{p.ID(), older.ID()}); checkErr(t, "Tags.OfPosts in the transaction", err, nil) {
			checkTagMap(t, "Tags.OfPosts in the transaction", got, map[int64][]domain.Tag{p.ID(): {tag}})
		}
		tagged := ports.PostFilter{Viewer: ann.ID, TagSlug: "go"}
		if got, err := listPosts(ctx, r, tagged, ports.Page{Limit: 10}); checkErr(t, "PostViews.ListViews by tag in the transaction", err, nil) {
			checkPosts(t, "PostViews.ListViews by a tag set in the transaction", got, []domain.Post{p})
		}

		c := newComment(p.ID(), ann.ID, "fresh comment", at(2*time.Hour))
		if err := r.Comments.Create(ctx, &c); err != nil {
			return fmt.Errorf("Comments.Create: %w", err)
		}
		if got, err := r.Comments.Get(ctx, c.ID); checkErr(t, "Comments.Get in the transaction", err, nil) {
			check(t, "Comments.Get of a comment created in the transaction", got, c)
		}
		c.Body, c.UpdatedAt = "edited", at(3*time.Hour)
		if err := r.Comments.Update(ctx, c); err != nil {
			return fmt.Errorf("Comments.Update: %w", err)
		}
		if got, total, err := r.Comments.ListByPost(ctx, p.ID(), ports.Page{Limit: 10}); checkErr(t, "Comments.ListByPost in the transaction", err, nil) {
			if total != 1 {
				t.Errorf("Comments.ListByPost in the transaction: got total %d, want 1", total)
			}
			check(t, "Comments.ListByPost of a comment updated in the transaction", got, withAuthors(t, []domain.Comment{c}, ann))
		}

		p.Retitle("Fresh and changed", at(4*time.Hour))
		if err := r.Posts.Update(ctx, p); err != nil {
			return fmt.Errorf("Posts.Update: %w", err)
		}
		if got, err := r.Posts.Get(ctx, p.ID()); checkErr(t, "Posts.Get of a post updated in the transaction", err, nil) {
			check(t, "Posts.Get of a post updated in the transaction", got.State(), p.State())
		}
		if err := r.Posts.Delete(ctx, p.ID()); err != nil {
			return fmt.Errorf("Posts.Delete: %w", err)
		}
		_, err := r.Posts.Get(ctx, p.ID())
		checkErr(t, "Posts.Get of a post deleted in the transaction", err, domain.ErrNotFound)
		_, err = r.Comments.Get(ctx, c.ID)
		checkErr(t, "Comments.Get of a comment whose post was deleted in the transaction", err, domain.ErrNotFound)
		return nil
	})
	checkErr(t, "InTx", err, nil)
}

func testPostLastSlugSuffix(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	// Slugs are written as they are, through RestorePost, since a title
	// never slugifies to some of them.
	take := func(slug string) {
		t.Helper()
		createPost(t, r, domain.RestorePost(domain.PostState{
			AuthorID: ann.ID, Title: slug, Slug: slug, Body: "b", Excerpt: "b",
			Status: domain.StatusDraft, CreatedAt: base, UpdatedAt: base,
		}))
	}
	expect := func(what, slugBase string, want int) {
		t.Helper()
		for _, w := range bothPlaces {
			var got int
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				got, err = r.Posts.LastSlugSuffix(ctx, slugBase)
				return err
			})
			if checkErr(t, fmt.Sprintf("Posts.LastSlugSuffix(%q) %s", slugBase, w.name), err, nil) && got != want {
				t.Errorf("Posts.LastSlugSuffix(%q) %s, %s: got %d, want %d", slugBase, w.name, what, got, want)
			}
		}
	}
	expect("nothing taken", "base", 0)
	take("base")
	expect("only the base taken", "base", 1)
	take("base-2")
	expect("base and base-2 taken", "base", 2)
	take("base-10")
	expect("base-2 and base-10 taken: the number counts, not the text", "base", 10)
	take("base-9")
	// Near misses, each with a number that would win if it counted.
	for _, slug := range []string{"base-x", "base-20a", "base-30-2", "basement-40", "xbase-50", "base-", "base-60.5", "base- 70", "Base-80", "base-+90"} {
		take(slug)
	}
	expect("near misses present", "base", 10)
	expect("a taken base-n as a base", "base-10", 1)
	expect("a base that is a prefix of taken slugs", "bas", 0)
	expect("a near miss of one base is a match of another", "basement", 40)

	// LIKE's wildcards in a base match themselves only.
	take("axb")
	take("axb-7")
	take("a_b-3")
	expect("a base with an underscore", "a_b", 3)
	take("c%d")
	take("cxyzd-8")
	take("c%d-x")
	expect("a base with a percent sign", "c%d", 1)
	take(`e\f-4`)
	take("e-5")
	take("ef-9")
	take(`e\\f-6`)
	expect("a base with a backslash", `e\f`, 4)
}

func testPostSetTags(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	// Names sort alike in byte order and in every common collation.
	rust := createTag(t, r, "Rust", base)
	golang := createTag(t, r, "Go", at(time.Second))
	sql := createTag(t, r, "SQL", at(2*time.Second+654321*time.Microsecond))
	p := createPost(t, r, newPost(t, ann.ID, "Tagged", domain.StatusPublished, base))
	q := createPost(t, r, newPost(t, ann.ID, "Also tagged", domain.StatusDraft, base))
	bare := createPost(t, r, newPost(t, ann.ID, "Bare", domain.StatusPublished, base))
	ofPosts := func(what string, want map[int64][]domain.Tag) {
		t.Helper()
		got, err := r.Tags.OfPosts(ctx, []int64{p.ID(), q.ID(), bare.ID(), missingID})
		if checkErr(t, "Tags.OfPosts "+what, err, nil) {
			checkTagMap(t, "Tags.OfPosts "+what, got, want)
		}
	}
	ofPosts("before any SetTags", map[int64][]domain.Tag{})

	steps := []struct {
		name string
		ids  []int64
		want []domain.Tag // nil: p absent from OfPosts
	}{
		{"three tags", []int64{sql.ID, rust.ID, golang.ID}, []domain.Tag{golang, rust, sql}},
		{"a smaller set replaces them", []int64{rust.ID}, []domain.Tag{rust}},
		{"another set replaces that", []int64{sql.ID, golang.ID}, []domain.Tag{golang, sql}},
		{"an id given twice counts once", []int64{rust.ID, sql.ID, rust.ID}, []domain.Tag{rust, sql}},
		{"the same set again", []int64{sql.ID, rust.ID}, []domain.Tag{rust, sql}},
		{"an empty list clears them", []int64{}, nil},
		{"a set after clearing", []int64{golang.ID}, []domain.Tag{golang}},
		{"a nil list clears them", nil, nil},
		{"the last set", []int64{rust.ID, golang.ID}, []domain.Tag{golang, rust}},
	}
	qTags := []domain.Tag{sql}
	setTags(t, r, q, sql)
	for _, s := range steps {
		if !checkErr(t, "Posts.SetTags, "+s.name, r.Posts.SetTags(ctx, p.ID(), s.ids), nil) {
			continue
		}
		want := map[int64][]domain.Tag{q.ID(): qTags}
		if s.want != nil {
			want[p.ID()] = s.want
		}
		ofPosts("after SetTags, "+s.name, want)
	}

	refused := []struct {
		name string
		call func(r ports.Repos) error
	}{
		{"with an unknown tag", func(r ports.Repos) error { return r.Posts.SetTags(ctx, p.ID(), []int64{sql.ID, missingID}) }},
		{"with only an unknown tag", func(r ports.Repos) error { return r.Posts.SetTags(ctx, p.ID(), []int64{missingID}) }},
		{"of an unknown post", func(r ports.Repos) error { return r.Posts.SetTags(ctx, missingID, []int64{sql.ID}) }},
		{"of an unknown post, clearing", func(r ports.Repos) error { return r.Posts.SetTags(ctx, missingID, nil) }},
	}
	for _, c := range refused {
		for _, w := range bothPlaces {
			checkErr(t, fmt.Sprintf("Posts.SetTags %s %s", c.name, w.name), w.run(ctx, st, c.call), domain.ErrNotFound)
		}
	}
	// A refused SetTags changes nothing, outside a transaction too.
	ofPosts("after the refused calls", map[int64][]domain.Tag{p.ID(): {golang, rust}, q.ID(): qTags})

	for _, ids := range [][]int64{nil, {}, {missingID}, {bare.ID()}} {
		got, err := r.Tags.OfPosts(ctx, ids)
		if checkErr(t, fmt.Sprintf("Tags.OfPosts(%v)", ids), err, nil) && len(got) != 0 {
			t.Errorf("Tags.OfPosts(%v): got %d posts, want none", ids, len(got))
		}
	}
}

func testPostCreateTagged(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	rust := createTag(t, r, "Rust", base)
	golang := createTag(t, r, "Go", at(time.Second))
	sql := createTag(t, r, "SQL", at(2*time.Second+654321*time.Microsecond))
	published := func(what string, want int) {
		t.Helper()
		n, err := countPosts(ctx, r, ports.PostFilter{Status: domain.StatusPublished})
		if checkErr(t, "the total of PostViews.ListViews "+what, err, nil) && n != want {
			t.Errorf("the total of PostViews.ListViews %s: got %d, want %d", what, n, want)
		}
	}

	made := 0
	for _, w := range bothPlaces {
		for _, c := range []struct {
			name string
			ids  []int64
			want []domain.Tag
		}{
			{"three tags, one twice", []int64{sql.ID, rust.ID, golang.ID, sql.ID}, []domain.Tag{golang, rust, sql}},
			{"one tag", []int64{rust.ID}, []domain.Tag{rust}},
			{"no tags", []int64{}, []domain.Tag{}},
			{"nil tags", nil, []domain.Tag{}},
		} {
			what := fmt.Sprintf("Posts.CreateTagged with %s %s", c.name, w.name)
			p := newPost(t, ann.ID, what, domain.StatusPublished, at(time.Duration(made)*time.Second))
			var tags []domain.Tag
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				tags, err = r.Posts.CreateTagged(ctx, &p, c.ids)
				return err
			})
			if !checkErr(t, what, err, nil) {
				continue
			}
			made++
			if p.ID() == 0 {
				t.Errorf("%s: the post has no ID", what)
			}
			check(t, what+": the tags", tags, c.want)
			view, err := r.PostViews.View(ctx, p.ID(), 0)
			if checkErr(t, what+": PostViews.View", err, nil) {
				checkView(t, what+": PostViews.View", view, p, ann.Author(), c.want, nil)
			}
		}
	}
	published("after the creates", made)

	taken := newPost(t, ann.ID, "Taken", domain.StatusPublished, base)
	if _, err := r.Posts.CreateTagged(ctx, &taken, []int64{rust.ID}); !checkErr(t, "Posts.CreateTagged", err, nil) {
		return
	}
	made++
	refused := []struct {
		name string
		post domain.Post
		ids  []int64
		want error
	}{
		{"with an unknown tag", newPost(t, ann.ID, "Unknown tag", domain.StatusPublished, base), []int64{sql.ID, missingID}, domain.ErrNotFound},
		{"with only an unknown tag", newPost(t, ann.ID, "Only unknown", domain.StatusPublished, base), []int64{missingID}, domain.ErrNotFound},
		{"by an unknown author", newPost(t, missingID, "Orphan", domain.StatusPublished, base), []int64{rust.ID}, domain.ErrNotFound},
		{"by an unknown author, no tags", newPost(t, missingID, "Orphan bare", domain.StatusPublished, base), nil, domain.ErrNotFound},
		{"of a taken slug", newPost(t, ann.ID, "Taken", domain.StatusPublished, base), []int64{golang.ID}, domain.ErrSlugTaken},
	}
	for _, c := range refused {
		for _, w := range bothPlaces {
			p := c.post
			err := w.run(ctx, st, func(r ports.Repos) error { _, err := r.Posts.CreateTagged(ctx, &p, c.ids); return err })
			checkErr(t, fmt.Sprintf("Posts.CreateTagged %s %s", c.name, w.name), err, c.want)
		}
	}
	// A refused create stores nothing: no post, so no count and no slug.
	published("after the refused creates", made)
	for _, c := range refused[:2] {
		p := c.post
		if _, err := r.Posts.CreateTagged(ctx, &p, nil); !checkErr(t, "Posts.CreateTagged after "+c.name, err, nil) {
			continue
		}
		made++
	}
	published("after creating the refused slugs", made)

	// A rolled-back transaction takes the post and its links back.
	rolled := newPost(t, ann.ID, "Rolled back", domain.StatusPublished, base)
	err := st.InTx(ctx, func(r ports.Repos) error {
		if _, err := r.Posts.CreateTagged(ctx, &rolled, []int64{rust.ID}); err != nil {
			return err
		}
		return errRollback
	})
	checkErr(t, "Posts.CreateTagged in a rolled-back transaction", err, errRollback)
	published("after the rollback", made)
	if _, err := r.PostViews.View(ctx, rolled.ID(), 0); rolled.ID() != 0 {
		checkErr(t, "PostViews.View of the rolled-back post", err, domain.ErrNotFound)
	}
}

// library is a set of posts for the list checks. Its creation order, the
// order of ids, differs from the order of created_at, and some posts share a
// created_at, so that both keys of the newest-first order show.
type library struct {
	ann, bob    domain.User
	golang, sql domain.Tag
	posts       []domain.Post
}

// libraryPosts are the library's posts in creation order. Newest first, they
// come as 8, 1, 4, 6, 5, 2, 0, 9, 3, 7.
var libraryPosts = []struct {
	author  int // 0 for Ann, 1 for Bob
	title   string
	status  domain.PostStatus
	created time.Duration
}{
	{0, "Hello World", domain.StatusPublished, 2 * time.Hour},  // 0
	{0, "Draft of Ann", domain.StatusDraft, 5 * time.Hour},     // 1
	{1, "hello again", domain.StatusPublished, 2 * time.Hour},  // 2, as old as 0
	{1, "Bob's draft", domain.StatusDraft, 1 * time.Hour},      // 3
	{0, "CAFÉ culture", domain.StatusPublished, 4 * time.Hour}, // 4
	{1, "50% off", domain.StatusPublished, 3 * time.Hour},      // 5
	{1, "500 off", domain.StatusPublished, 3 * time.Hour},      // 6, as old as 5
	{0, "a_b notes", domain.StatusPublished, 0},                // 7
	{1, "axb notes", domain.StatusPublished, 6 * time.Hour},    // 8
	{0, `Back\slash`, domain.StatusPublished, 1 * time.Hour},   // 9, as old as 3
}

// The library's tags: "Go Lang" (slug go-lang) on 0, 1, 2 and 8, "SQL" on
// 0, 4 and 5.
var (
	libraryGo  = []int{0, 1, 2, 8}
	librarySQL = []int{0, 4, 5}
)

// The library in newest-first order as each viewer sees it.
var (
	seenByAnyone = []int{8, 4, 6, 5, 2, 0, 9, 7}
	seenByAnn    = []int{8, 1, 4, 6, 5, 2, 0, 9, 7}
	seenByBob    = []int{8, 4, 6, 5, 2, 0, 9, 3, 7}
)

func seedLibrary(t *testing.T, st ports.Store) library {
	t.Helper()
	r := st.Repos()
	var l library
	l.ann = createUser(t, r, newUser("Ann", "ann@example.com"))
	l.bob = createUser(t, r, newUser("Bob", "bob@example.com"))
	authors := []int64{l.ann.ID, l.bob.ID}
	for i, lp := range libraryPosts {
		p := createPost(t, r, newPost(t, authors[lp.author], lp.title, lp.status, at(lp.created)))
		if i > 0 && p.ID() <= l.posts[i-1].ID() {
			t.Fatalf("Posts.Create gave id %d after id %d; want ids growing with creation", p.ID(), l.posts[i-1].ID())
		}
		l.posts = append(l.posts, p)
	}
	l.golang = createTag(t, r, "Go Lang", base)
	l.sql = createTag(t, r, "SQL", base)
	tags := map[int][]domain.Tag{}
	for _, i := range libraryGo {
		tags[i] = append(tags[i], l.golang)
	}
	for _, i := range librarySQL {
		tags[i] = append(tags[i], l.sql)
	}
	for i, ts := range tags {
		setTags(t, r, l.posts[i], ts...)
	}
	return l
}

func (l library) pick(idx ...int) []domain.Post {
	out := make([]domain.Post, len(idx))
	for i, j := range idx {
		out[i] = l.posts[j]
	}
	return out
}

// checkList checks List and Count of one filter against the expected
// library posts.
func (l library) checkList(t *testing.T, r ports.Repos, what string, f ports.PostFilter, page ports.Page, want []int) {
	t.Helper()
	ctx := t.Context()
	what = fmt.Sprintf("%s (%+v, %+v)", what, f, page)
	got, err := listPosts(ctx, r, f, page)
	if checkErr(t, "PostViews.ListViews "+what, err, nil) {
		checkPosts(t, "PostViews.ListViews "+what, got, l.pick(want...))
	}
}

// tagsOf returns the library post i's tags in ports.TagOrder ("Go Lang"
// before "SQL").
func (l library) tagsOf(i int) []domain.Tag {
	tags := []domain.Tag{}
	if slices.Contains(libraryGo, i) {
		tags = append(tags, l.golang)
	}
	if slices.Contains(librarySQL, i) {
		tags = append(tags, l.sql)
	}
	return tags
}

// views returns the library posts idx with their authors and tags, as the
// list views show them.
func (l library) views(idx ...int) []ports.PostView {
	out := make([]ports.PostView, len(idx))
	for i, j := range idx {
		author := []domain.User{l.ann, l.bob}[libraryPosts[j].author]
		out[i] = ports.PostView{Post: l.posts[j], Author: author.Author(), Tags: l.tagsOf(j)}
	}
	return out
}

// checkPostViews compares list views post by post.
func checkPostViews(t *testing.T, what string, got, want []ports.PostView) {
	t.Helper()
	if g, w := viewTitles(got), viewTitles(want); !slices.Equal(g, w) {
		t.Errorf("%s: got %q, want %q", what, g, w)
		return
	}
	for i := range got {
		checkView(t, fmt.Sprintf("%s: item %d", what, i), got[i], want[i].Post, want[i].Author, want[i].Tags, nil)
	}
}

func viewTitles(views []ports.PostView) []string {
	out := make([]string, len(views))
	for i, v := range views {
		out[i] = v.Post.Title()
	}
	return out
}

// checkViews checks ListViews of one filter and page: the posts of List,
// each with its author and tags, and the filter's total.
func (l library) checkViews(t *testing.T, r ports.Repos, what string, f ports.PostFilter, page ports.Page, want []int, total int) {
	t.Helper()
	what = fmt.Sprintf("PostViews.ListViews %s (%+v, %+v)", what, f, page)
	got, n, err := r.PostViews.ListViews(t.Context(), f, page)
	if !checkErr(t, what, err, nil) {
		return
	}
	if n != total {
		t.Errorf("%s: got total %d, want %d", what, n, total)
	}
	checkPostViews(t, what, got, l.views(want...))
}

func (l library) checkCount(t *testing.T, r ports.Repos, what string, f ports.PostFilter, want int) {
	t.Helper()
	n, err := countPosts(t.Context(), r, f)
	if checkErr(t, fmt.Sprintf("the total of PostViews.ListViews %s (%+v)", what, f), err, nil) && n != want {
		t.Errorf("the total of PostViews.ListViews %s (%+v): got %d, want %d", what, f, n, want)
	}
}

func testPostListPages(t *testing.T, st ports.Store) {
	l := seedLibrary(t, st)
	r := st.Repos()
	cases := []struct {
		page ports.Page
		want []int
	}{
		{ports.Page{Offset: 0, Limit: 3}, []int{8, 4, 6}},
		{ports.Page{Offset: 3, Limit: 3}, []int{5, 2, 0}},
		{ports.Page{Offset: 6, Limit: 3}, []int{9, 7}},
		{ports.Page{Offset: 8, Limit: 3}, nil},
		{ports.Page{Offset: 50, Limit: 3}, nil},
		{ports.Page{Offset: 2, Limit: 100}, []int{6, 5, 2, 0, 9, 7}},
		{ports.Page{Offset: 0, Limit: 1}, []int{8}},
		{ports.Page{Offset: 0, Limit: 0}, seenByAnyone}, // no limit
	}
	for _, tc := range cases {
		l.checkList(t, r, "a page, newest first", ports.PostFilter{}, tc.page, tc.want)
		l.checkViews(t, r, "a page, newest first", ports.PostFilter{}, tc.page, tc.want, len(seenByAnyone))
	}
	l.checkCount(t, r, "of every published post", ports.PostFilter{}, len(seenByAnyone))
	l.checkList(t, r, "a page of a filter", ports.PostFilter{Viewer: l.ann.ID, TagSlug: "go-lang"}, ports.Page{Offset: 1, Limit: 2}, []int{1, 2})
	l.checkCount(t, r, "of a filter, not of a page", ports.PostFilter{Viewer: l.ann.ID, TagSlug: "go-lang"}, 4)
}

func testPostListVisibility(t *testing.T, st ports.Store) {
	l := seedLibrary(t, st)
	r := st.Repos()
	cases := []struct {
		name string
		f    ports.PostFilter
		want []int
	}{
		{"anonymous: published posts only", ports.PostFilter{}, seenByAnyone},
		{"Ann: published posts and her drafts", ports.PostFilter{Viewer: l.ann.ID}, seenByAnn},
		{"Bob: published posts and his drafts", ports.PostFilter{Viewer: l.bob.ID}, seenByBob},
		{"a viewer without posts", ports.PostFilter{Viewer: missingID}, seenByAnyone},
		{"anonymous, drafts", ports.PostFilter{Status: domain.StatusDraft}, nil},
		{"anonymous, published", ports.PostFilter{Status: domain.StatusPublished}, seenByAnyone},
		{"Ann, drafts", ports.PostFilter{Viewer: l.ann.ID, Status: domain.StatusDraft}, []int{1}},
		{"Bob, drafts", ports.PostFilter{Viewer: l.bob.ID, Status: domain.StatusDraft}, []int{3}},
		{"Ann, published", ports.PostFilter{Viewer: l.ann.ID, Status: domain.StatusPublished}, seenByAnyone},
	}
	for _, tc := range cases {
		l.checkList(t, r, tc.name, tc.f, ports.Page{Limit: 100}, tc.want)
		l.checkCount(t, r, tc.name, tc.f, len(tc.want))
		l.checkViews(t, r, tc.name, tc.f, ports.Page{Limit: 100}, tc.want, len(tc.want))
	}
}

func testPostListSearch(t *testing.T, st ports.Store) {
	l := seedLibrary(t, st)
	r := st.Repos()
	cases := []struct {
		search string
		viewer int64
		want   []int
	}{
		{"", 0, seenByAnyone},
		{"HeLLo", 0, []int{2, 0}}, // any case
		{"WORLD", 0, []int{0}},    // anywhere in the title
		{"é", 0, []int{4}},        // Unicode letters fold too, as strings.ToLower folds them
		{"É", 0, []int{4}},
		{"café", 0, []int{4}},
		{"cafe", 0, nil},     // but accents stay
		{"50%", 0, []int{5}}, // % is literal, not "anything"
		{"%", 0, []int{5}},
		{"500", 0, []int{6}},   // not "50%"
		{"0 off", 0, []int{6}}, // blanks are part of the text
		{"a_b", 0, []int{7}},   // _ is literal, not "any one character"
		{"_", 0, []int{7}},
		{`\`, 0, []int{9}},   // an escape character is literal too
		{`k\s`, 0, []int{9}}, // and escapes nothing
		{"notes", 0, []int{8, 7}},
		{"o", 0, []int{8, 6, 5, 2, 0, 7}},
		{"draft", 0, nil}, // drafts stay hidden from a search
		{"DRAFT", l.ann.ID, []int{1}},
		{"draft", l.bob.ID, []int{3}},
		{"zzz", 0, nil},
	}
	for _, tc := range cases {
		f := ports.PostFilter{Viewer: tc.viewer, Search: tc.search}
		what := fmt.Sprintf("searching %q", tc.search)
		l.checkList(t, r, what, f, ports.Page{Limit: 100}, tc.want)
		l.checkCount(t, r, what, f, len(tc.want))
		l.checkViews(t, r, what, f, ports.Page{Limit: 100}, tc.want, len(tc.want))
	}
}

func testPostListFilters(t *testing.T, st ports.Store) {
	l := seedLibrary(t, st)
	r := st.Repos()
	ann, bob := l.ann.ID, l.bob.ID
	cases := []struct {
		name string
		f    ports.PostFilter
		want []int
	}{
		{"Bob's posts, anonymous", ports.PostFilter{AuthorID: bob}, []int{8, 6, 5, 2}},
		{"Bob's posts, Bob", ports.PostFilter{Viewer: bob, AuthorID: bob}, []int{8, 6, 5, 2, 3}},
		{"Bob's posts, Ann", ports.PostFilter{Viewer: ann, AuthorID: bob}, []int{8, 6, 5, 2}},
		{"Ann's posts, Ann", ports.PostFilter{Viewer: ann, AuthorID: ann}, []int{1, 4, 0, 9, 7}},
		{"a missing author's posts", ports.PostFilter{Viewer: ann, AuthorID: missingID}, nil},
		{"tag go-lang, anonymous", ports.PostFilter{TagSlug: "go-lang"}, []int{8, 2, 0}},
		{"tag go-lang, Ann", ports.PostFilter{Viewer: ann, TagSlug: "go-lang"}, []int{8, 1, 2, 0}},
		{"tag sql", ports.PostFilter{TagSlug: "sql"}, []int{4, 5, 0}},
		{"a tag's name is not its slug", ports.PostFilter{TagSlug: "Go Lang"}, nil},
		{"an unknown tag", ports.PostFilter{TagSlug: "nope"}, nil},
		{"tag and author", ports.PostFilter{Viewer: ann, AuthorID: ann, TagSlug: "go-lang"}, []int{1, 0}},
		{"tag, author and status", ports.PostFilter{Viewer: ann, AuthorID: ann, TagSlug: "go-lang", Status: domain.StatusPublished}, []int{0}},
		{"tag and search", ports.PostFilter{TagSlug: "go-lang", Search: "HELLO"}, []int{2, 0}},
		{"another tag and search", ports.PostFilter{TagSlug: "sql", Search: "off"}, []int{5}},
		{"search and author", ports.PostFilter{Search: "off", AuthorID: ann}, nil},
		{"search, status and author", ports.PostFilter{Viewer: bob, Search: "notes", Status: domain.StatusPublished, AuthorID: bob}, []int{8}},
		{"status, tag and another author's draft", ports.PostFilter{Viewer: bob, Status: domain.StatusDraft, TagSlug: "go-lang"}, nil},
		{"every filter", ports.PostFilter{Viewer: ann, Search: "draft", Status: domain.StatusDraft, AuthorID: ann, TagSlug: "go-lang"}, []int{1}},
	}
	for _, tc := range cases {
		l.checkList(t, r, tc.name, tc.f, ports.Page{Limit: 100}, tc.want)
		l.checkCount(t, r, tc.name, tc.f, len(tc.want))
		l.checkViews(t, r, tc.name, tc.f, ports.Page{Limit: 100}, tc.want, len(tc.want))
	}
}

// testPostListAfter walks each filter's posts with cursors, two at a time,
// as the version 2 index does: every post comes once, in the order of List.
func testPostListAfter(t *testing.T, st ports.Store) {
	ctx := t.Context()
	l := seedLibrary(t, st)
	r := st.Repos()
	ann, bob := l.ann.ID, l.bob.ID
	cases := []struct {
		name string
		f    ports.PostFilter
		want []int
	}{
		{"anonymous", ports.PostFilter{}, seenByAnyone},
		{"Ann", ports.PostFilter{Viewer: ann}, seenByAnn},
		{"Bob", ports.PostFilter{Viewer: bob}, seenByBob},
		{"Bob's posts, Bob", ports.PostFilter{Viewer: bob, AuthorID: bob}, []int{8, 6, 5, 2, 3}},
		{"tag go-lang, Ann", ports.PostFilter{Viewer: ann, TagSlug: "go-lang"}, []int{8, 1, 2, 0}},
		{"search", ports.PostFilter{Search: "OFF"}, []int{6, 5}},
		{"drafts, Ann", ports.PostFilter{Viewer: ann, Status: domain.StatusDraft}, []int{1}},
		{"nothing", ports.PostFilter{TagSlug: "nope"}, nil},
	}
	for _, tc := range cases {
		for _, limit := range []int{2, 3} {
			what := fmt.Sprintf("PostViews.ListViewsAfter, %s, %d at a time", tc.name, limit)
			var got []domain.Post
			var views []ports.PostView
			var cursor *ports.PostCursor
			for range len(l.posts) + 1 {
				page, err := listPostsAfter(ctx, r, tc.f, cursor, limit)
				if !checkErr(t, what, err, nil) {
					break
				}
				if len(page) > limit {
					t.Errorf("%s: got a page of %d posts, want at most %d", what, len(page), limit)
				}
				pageViews, err := r.PostViews.ListViewsAfter(ctx, tc.f, cursor, limit)
				if checkErr(t, what+": PostViews.ListViewsAfter", err, nil) {
					views = append(views, pageViews...)
				}
				got = append(got, page...)
				if len(page) < limit {
					break
				}
				last := page[len(page)-1]
				cursor = &ports.PostCursor{CreatedAt: last.CreatedAt().UnixMicro(), ID: last.ID()}
			}
			checkPosts(t, what, got, l.pick(tc.want...))
			checkPostViews(t, what+": PostViews.ListViewsAfter", views, l.views(tc.want...))
		}
	}
}

// testPostListAfterCursor checks cursors one by one, including cursors that
// no post has, which the order must place between the posts.
func testPostListAfterCursor(t *testing.T, st ports.Store) {
	ctx := t.Context()
	l := seedLibrary(t, st)
	r := st.Repos()
	cursorOf := func(i int) *ports.PostCursor {
		p := l.posts[i]
		return &ports.PostCursor{CreatedAt: p.CreatedAt().UnixMicro(), ID: p.ID()}
	}
	cases := []struct {
		name   string
		f      ports.PostFilter
		cursor *ports.PostCursor
		limit  int
		want   []int
	}{
		{"no cursor starts at the newest", ports.PostFilter{}, nil, 3, []int{8, 4, 6}},
		{"after the first of two posts of one time", ports.PostFilter{}, cursorOf(6), 100, []int{5, 2, 0, 9, 7}},
		{"after the second of two posts of one time", ports.PostFilter{}, cursorOf(5), 2, []int{2, 0}},
		{"after a hidden draft", ports.PostFilter{}, cursorOf(1), 100, []int{4, 6, 5, 2, 0, 9, 7}},
		{"after the oldest", ports.PostFilter{}, cursorOf(7), 100, nil},
		{"a time with an id below its posts'", ports.PostFilter{}, &ports.PostCursor{CreatedAt: at(3 * time.Hour).UnixMicro(), ID: 0}, 100, []int{2, 0, 9, 7}},
		{"a time with an id above its posts'", ports.PostFilter{}, &ports.PostCursor{CreatedAt: at(3 * time.Hour).UnixMicro(), ID: missingID}, 100, []int{6, 5, 2, 0, 9, 7}},
		{"a microsecond later", ports.PostFilter{}, &ports.PostCursor{CreatedAt: at(3*time.Hour).UnixMicro() + 1, ID: 0}, 100, []int{6, 5, 2, 0, 9, 7}},
		{"a microsecond earlier", ports.PostFilter{}, &ports.PostCursor{CreatedAt: at(3*time.Hour).UnixMicro() - 1, ID: missingID}, 100, []int{2, 0, 9, 7}},
		{"newer than every post", ports.PostFilter{}, &ports.PostCursor{CreatedAt: at(10 * time.Hour).UnixMicro(), ID: 0}, 100, seenByAnyone},
		{"older than every post", ports.PostFilter{}, &ports.PostCursor{CreatedAt: at(-time.Hour).UnixMicro(), ID: missingID}, 100, nil},
		{"filters apply after a cursor", ports.PostFilter{AuthorID: l.bob.ID}, cursorOf(6), 100, []int{5, 2}},
		{"a draft its author sees", ports.PostFilter{Viewer: l.bob.ID}, cursorOf(9), 100, []int{3, 7}},
	}
	for _, tc := range cases {
		what := fmt.Sprintf("PostViews.ListViewsAfter, %s", tc.name)
		got, err := listPostsAfter(ctx, r, tc.f, tc.cursor, tc.limit)
		if checkErr(t, what, err, nil) {
			checkPosts(t, what, got, l.pick(tc.want...))
		}
	}
}

// testPostImagePathsByAuthor checks the paths an account deletion removes:
// the author's images only, in post id order, inside a transaction too,
// and none for posts without an image or an unknown author.
func testPostImagePathsByAuthor(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	withImage := func(authorID int64, title, path string, created time.Time) {
		p := newPost(t, authorID, title, domain.StatusDraft, created)
		p.SetImage(path, created)
		createPost(t, r, p)
	}
	withImage(ann.ID, "First", "posts/b.png", base)
	createPost(t, r, newPost(t, ann.ID, "Bare", domain.StatusPublished, at(time.Minute)))
	withImage(bob.ID, "Bob's", "posts/c.gif", at(2*time.Minute))
	withImage(ann.ID, "Second", "posts/a.webp", at(3*time.Minute))

	for _, via := range bothPlaces {
		t.Run(via.name, func(t *testing.T) {
			var got, none []string
			err := via.run(ctx, st, func(r ports.Repos) error {
				var err error
				if got, err = r.Posts.ImagePathsByAuthor(ctx, ann.ID); err != nil {
					return err
				}
				none, err = r.Posts.ImagePathsByAuthor(ctx, bob.ID+ann.ID+1)
				return err
			})
			if !checkErr(t, "Posts.ImagePathsByAuthor", err, nil) {
				return
			}
			check(t, "Posts.ImagePathsByAuthor of Ann", got, []string{"posts/b.png", "posts/a.webp"})
			if len(none) != 0 {
				t.Errorf("Posts.ImagePathsByAuthor of an unknown author: got %v, want none", none)
			}
		})
	}
}

// checkView compares a PostViews.View with the post, author, tags and comments
// it should carry.
func checkView(t *testing.T, what string, got ports.PostView, post domain.Post, author domain.Author, tags []domain.Tag, comments []ports.CommentView) {
	t.Helper()
	check(t, what+": the post", got.Post.State(), post.State())
	check(t, what+": the author", got.Author, author)
	check(t, what+": the tags", got.Tags, tags)
	check(t, what+": the comments", got.Comments, comments)
}

// testPostView checks the single read's parts: the tags in order, the first
// comments oldest first with their authors, as many as asked, and the same
// inside a transaction that has just written them.
func testPostView(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	p := createPost(t, r, newPost(t, ann.ID, "Viewed", domain.StatusPublished, base))
	bare := createPost(t, r, newPost(t, bob.ID, "Bare", domain.StatusDraft, base))
	// Byte order puts capitals first: Beta, Zed, alpha.
	zed := createTag(t, r, "Zed", base)
	alpha := createTag(t, r, "alpha", base)
	beta := createTag(t, r, "Beta", base)
	setTags(t, r, p, zed, alpha, beta)
	var all []domain.Comment
	for _, c := range []domain.Comment{
		newComment(p.ID(), bob.ID, "c0", at(2*time.Hour)),
		newComment(p.ID(), ann.ID, "c1", at(0)),
		newComment(p.ID(), bob.ID, "c2", at(2*time.Hour)),
		newComment(p.ID(), ann.ID, "c3", at(time.Hour)),
	} {
		all = append(all, createComment(t, r, c))
	}
	oldestFirst := withAuthors(t, []domain.Comment{all[1], all[3], all[0], all[2]}, ann, bob)
	tags := []domain.Tag{beta, zed, alpha}
	for _, w := range bothPlaces {
		cases := []struct {
			comments int
			want     []ports.CommentView
		}{
			{0, nil},
			{2, oldestFirst[:2]},
			{ports.ShowComments, oldestFirst},
		}
		for _, tc := range cases {
			what := fmt.Sprintf("PostViews.View(%d comments) %s", tc.comments, w.name)
			var got ports.PostView
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				got, err = r.PostViews.View(ctx, p.ID(), tc.comments)
				return err
			})
			if checkErr(t, what, err, nil) {
				checkView(t, what, got, p, ann.Author(), tags, tc.want)
			}
		}
		what := "PostViews.View of a post without tags or comments " + w.name
		var got ports.PostView
		err := w.run(ctx, st, func(r ports.Repos) error {
			var err error
			got, err = r.PostViews.View(ctx, bare.ID(), ports.ShowComments)
			return err
		})
		if checkErr(t, what, err, nil) {
			checkView(t, what, got, bare, bob.Author(), []domain.Tag{}, []ports.CommentView{})
		}
	}

	// A transaction's View sees what the transaction wrote.
	err := st.InTx(ctx, func(r ports.Repos) error {
		if err := r.Posts.SetTags(ctx, bare.ID(), []int64{alpha.ID}); err != nil {
			return err
		}
		c := newComment(bare.ID(), ann.ID, "fresh", at(3*time.Hour))
		if err := r.Comments.Create(ctx, &c); err != nil {
			return err
		}
		got, err := r.PostViews.View(ctx, bare.ID(), ports.ShowComments)
		if checkErr(t, "PostViews.View in the transaction that wrote", err, nil) {
			checkView(t, "PostViews.View in the transaction that wrote", got, bare, bob.Author(), []domain.Tag{alpha}, withAuthors(t, []domain.Comment{c}, ann))
		}
		return nil
	})
	must(t, "InTx", err)
}

// testPostStaleReadsAllowed checks the reads of a context marked by
// ports.AllowStaleReads, inside a transaction and out: a store without a
// standby answers them exactly, as it answers any read, and one with a
// standby answers them from one database whole, here the primary since
// nothing tells it of a standby. In a transaction they see its own writes.
func testPostStaleReadsAllowed(t *testing.T, st ports.Store) {
	l := seedLibrary(t, st)
	stale := ports.AllowStaleReads(t.Context())
	for _, w := range bothPlaces {
		err := w.run(stale, st, func(r ports.Repos) error {
			what := "PostViews.ListViews with stale reads allowed " + w.name
			got, n, err := r.PostViews.ListViews(stale, ports.PostFilter{}, ports.Page{Limit: 3})
			if checkErr(t, what, err, nil) {
				if n != len(seenByAnyone) {
					t.Errorf("%s: got total %d, want %d", what, n, len(seenByAnyone))
				}
				checkPostViews(t, what, got, l.views(8, 4, 6))
			}
			what = "PostViews.ListViewsAfter with stale reads allowed " + w.name
			after, err := r.PostViews.ListViewsAfter(stale, ports.PostFilter{TagSlug: "sql"}, nil, 10)
			if checkErr(t, what, err, nil) {
				checkPostViews(t, what, after, l.views(4, 5, 0))
			}
			what = "PostViews.View with stale reads allowed " + w.name
			view, err := r.PostViews.View(stale, l.posts[0].ID(), ports.ShowComments)
			if checkErr(t, what, err, nil) {
				checkView(t, what, view, l.posts[0], l.ann.Author(), l.tagsOf(0), []ports.CommentView{})
			}
			what = "Tags.List with stale reads allowed " + w.name
			tags, err := r.Tags.List(stale)
			if checkErr(t, what, err, nil) {
				if got, want := len(tags), 2; got != want {
					t.Errorf("%s: got %d tags, want %d", what, got, want)
				}
			}
			return nil
		})
		must(t, w.name, err)
	}
	// A transaction's marked reads see what it wrote before them.
	err := st.InTx(stale, func(r ports.Repos) error {
		tag := createTag(t, r, "Fresh", base)
		tags, err := r.Tags.List(stale)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(tags, func(x domain.Tag) bool { return x.ID == tag.ID }) {
			t.Errorf("Tags.List with stale reads allowed in a transaction: got %v, want the tag it created", tags)
		}
		p := createPost(t, r, newPost(t, l.bob.ID, "Fresh post", domain.StatusPublished, at(-time.Hour)))
		_, err = r.PostViews.View(stale, p.ID(), 0)
		return err
	})
	checkErr(t, "reads with stale reads allowed of a transaction's own writes", err, nil)
}
