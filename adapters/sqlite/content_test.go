package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func mustPost(t *testing.T, r ports.Repos, author int64, title string, status domain.PostStatus, created time.Time) domain.Post {
	t.Helper()
	p, err := domain.NewPost(author, title, "<p>Body of "+title+"</p>", status, created)
	if err != nil {
		t.Fatalf("NewPost %q: %v", title, err)
	}
	if err := r.Posts.Create(context.Background(), &p); err != nil {
		t.Fatalf("create post %q: %v", title, err)
	}
	return p
}

// mustSlug stores a post with exactly the given slug, which the domain would
// never make (underscores, percent signs), to test that stored slugs are
// read literally.
func mustSlug(t *testing.T, r ports.Repos, author int64, slug string) domain.Post {
	t.Helper()
	p := domain.RestorePost(domain.PostState{
		AuthorID: author, Title: slug, Slug: slug, Status: domain.StatusDraft, CreatedAt: t0, UpdatedAt: t0,
	})
	if err := r.Posts.Create(context.Background(), &p); err != nil {
		t.Fatalf("create post with slug %q: %v", slug, err)
	}
	return p
}

func mustTag(t *testing.T, r ports.Repos, name string) domain.Tag {
	t.Helper()
	tag, err := domain.NewTag(name, t0)
	if err != nil {
		t.Fatalf("new tag %q: %v", name, err)
	}
	if err := r.Tags.Create(context.Background(), &tag); err != nil {
		t.Fatalf("create tag %q: %v", name, err)
	}
	return tag
}

func mustComment(t *testing.T, r ports.Repos, postID, userID int64, body string, created time.Time) domain.Comment {
	t.Helper()
	c := domain.Comment{PostID: postID, UserID: userID, Body: body, CreatedAt: created, UpdatedAt: created}
	if err := r.Comments.Create(context.Background(), &c); err != nil {
		t.Fatalf("create comment %q: %v", body, err)
	}
	return c
}

func postIDs(list []domain.Post) []int64 {
	ids := []int64{}
	for _, p := range list {
		ids = append(ids, p.ID())
	}
	return ids
}

func tagIDs(list []domain.Tag) []int64 {
	ids := []int64{}
	for _, tag := range list {
		ids = append(ids, tag.ID)
	}
	return ids
}

func TestPostRoundTripAndErrors(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	ann := mustUser(t, r, "ann@example.com")

	p := mustPost(t, r, ann.ID, "Hello World", domain.StatusPublished, t0)
	if p.ID() == 0 {
		t.Fatal("Create did not set the ID")
	}
	got, err := r.Posts.Get(ctx, p.ID())
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if !reflect.DeepEqual(got.State(), p.State()) {
		t.Errorf("Get: got %+v, want %+v", got.State(), p.State())
	}

	later := t0.Add(time.Hour)
	p.Retitle("Goodbye", later)
	p.Rewrite("<b>New</b> body", later)
	p.SetImage("posts/a.png", later)
	if err := p.SetStatus(domain.StatusDraft, later); err != nil {
		t.Fatalf("SetStatus: %v", err)
	}
	if err := r.Posts.Update(ctx, p); err != nil {
		t.Fatalf("Update: %v", err)
	}
	got, err = r.Posts.Lock(ctx, p.ID())
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	if !reflect.DeepEqual(got.State(), p.State()) {
		t.Errorf("after Update: got %+v, want %+v", got.State(), p.State())
	}
	if got.Slug() != "hello-world" {
		t.Errorf("after a new title: got slug %q, want it kept", got.Slug())
	}

	dup, _ := domain.NewPost(ann.ID, "Hello, world!", "x", domain.StatusDraft, t0)
	wantErr(t, "Create with a taken slug", r.Posts.Create(ctx, &dup), domain.ErrSlugTaken)
	orphan, _ := domain.NewPost(999, "Orphan", "x", domain.StatusDraft, t0)
	wantErr(t, "Create by a missing author", r.Posts.Create(ctx, &orphan), domain.ErrNotFound)
	_, err = r.Posts.Get(ctx, 999)
	wantErr(t, "Get missing", err, domain.ErrNotFound)
	_, err = r.Posts.Lock(ctx, 999)
	wantErr(t, "Lock missing", err, domain.ErrNotFound)
	missing := domain.RestorePost(domain.PostState{ID: 999, Status: domain.StatusDraft})
	wantErr(t, "Update missing", r.Posts.Update(ctx, missing), domain.ErrNotFound)
	if err := r.Posts.Delete(ctx, p.ID()); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	wantErr(t, "Delete twice", r.Posts.Delete(ctx, p.ID()), domain.ErrNotFound)

	// Ids are not reused: a link to a deleted post must not show a new one.
	next := mustPost(t, r, ann.ID, "Next", domain.StatusDraft, t0)
	if next.ID() <= p.ID() {
		t.Errorf("post created after deleting post %d got id %d, want a new one", p.ID(), next.ID())
	}
}

func TestLastSlugSuffix(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	u := mustUser(t, r, "ann@example.com")
	for _, slug := range []string{
		"hello", "hello-2", "hello-10", "hello-9", "hello-world", "hello-3a", "hello-", "hello--4",
		"hello-1234567890123456789", "hellos-99", "hell-98",
		"solo-7",
		"zero-padded-0012",
		"a_c-5", "abc-7", "a%c-9", "abc",
	} {
		mustSlug(t, r, u.ID, slug)
	}
	tests := []struct {
		base string
		want int
	}{
		{"hello", 10},       // numeric, not lexical: 10 beats 9
		{"solo", 7},         // a suffix without its base still counts
		{"zero-padded", 12}, // leading zeros are digits
		{"nothing", 0},
		{"hello-world", 1},
		{"a_c", 5}, // _ is not a wildcard: abc-7 does not count
		{"a%c", 9}, // nor is %
		{"a%", 0},  // a%c-9 does not start with "a%-"
		{"a", 0},   // a_c-5 and abc-7 are other bases
		{"abc", 7},
	}
	for _, tc := range tests {
		got, err := r.Posts.LastSlugSuffix(ctx, tc.base)
		if err != nil {
			t.Fatalf("LastSlugSuffix(%q): %v", tc.base, err)
		}
		if got != tc.want {
			t.Errorf("LastSlugSuffix(%q): got %d, want %d", tc.base, got, tc.want)
		}
	}
}

// TestConcurrentCreatorsOfOneTitle runs what the create use case does, many
// times at once: each transaction must see the suffixes its predecessors
// took.
func TestConcurrentCreatorsOfOneTitle(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	u := mustUser(t, st.Repos(), "ann@example.com")
	const n = 50
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = st.InTx(ctx, func(r ports.Repos) error {
				post, err := domain.NewPost(u.ID, "Same Title", "body", domain.StatusPublished, t0)
				if err != nil {
					return err
				}
				last, err := r.Posts.LastSlugSuffix(ctx, post.Slug())
				if err != nil {
					return err
				}
				if last > 0 {
					post = post.WithSlugSuffix(last + 1)
				}
				return r.Posts.Create(ctx, &post)
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("creator %d: %v", i, err)
		}
	}
	list, err := sqlite.ListPosts(ctx, st.Repos(), ports.PostFilter{}, ports.Page{})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	var got []string
	for _, p := range list {
		got = append(got, p.Slug())
	}
	want := []string{"same-title"}
	for i := 2; i <= n; i++ {
		want = append(want, fmt.Sprintf("same-title-%d", i))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got slugs %q, want %q", got, want)
	}
}

func TestPostFilters(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	ann := mustUser(t, r, "ann@example.com")
	bob := mustUser(t, r, "bob@example.com")

	p1 := mustPost(t, r, ann.ID, "Hello World", domain.StatusPublished, t0)
	p2 := mustPost(t, r, ann.ID, "Draft thoughts", domain.StatusDraft, t0.Add(time.Hour))
	p3 := mustPost(t, r, bob.ID, "50% off", domain.StatusPublished, t0.Add(2*time.Hour))
	p4 := mustPost(t, r, bob.ID, "Bob's secret", domain.StatusDraft, t0.Add(3*time.Hour))
	p5 := mustPost(t, r, bob.ID, "Été à Paris", domain.StatusPublished, t0.Add(4*time.Hour))
	p6 := mustPost(t, r, ann.ID, "snake_case names", domain.StatusPublished, t0.Add(5*time.Hour))
	p7 := mustPost(t, r, ann.ID, "ΣΊΣΥΦΟΣ and snakeXcase", domain.StatusPublished, t0.Add(6*time.Hour))
	goTag := mustTag(t, r, "Go")
	c := mustTag(t, r, "C")
	cpp := mustTag(t, r, "C++") // the same slug as C
	for _, set := range []struct {
		post domain.Post
		tags []int64
	}{{p1, []int64{goTag.ID, c.ID, cpp.ID}}, {p2, []int64{goTag.ID}}, {p5, []int64{cpp.ID}}} {
		if err := r.Posts.SetTags(ctx, set.post.ID(), set.tags); err != nil {
			t.Fatalf("SetTags: %v", err)
		}
	}

	ids := func(posts ...domain.Post) []int64 { return postIDs(posts) }
	tests := []struct {
		name string
		f    ports.PostFilter
		want []int64
	}{
		{"anonymous sees published", ports.PostFilter{}, ids(p7, p6, p5, p3, p1)},
		{"ann sees her drafts too", ports.PostFilter{Viewer: ann.ID}, ids(p7, p6, p5, p3, p2, p1)},
		{"bob sees his", ports.PostFilter{Viewer: bob.ID}, ids(p7, p6, p5, p4, p3, p1)},
		{"drafts of the viewer", ports.PostFilter{Viewer: ann.ID, Status: domain.StatusDraft}, ids(p2)},
		{"no drafts for anonymous", ports.PostFilter{Status: domain.StatusDraft}, ids()},
		{"published", ports.PostFilter{Viewer: ann.ID, Status: domain.StatusPublished}, ids(p7, p6, p5, p3, p1)},
		{"author", ports.PostFilter{AuthorID: bob.ID}, ids(p5, p3)},
		{"author, as that author", ports.PostFilter{Viewer: bob.ID, AuthorID: bob.ID}, ids(p5, p4, p3)},
		{"author's drafts, as another", ports.PostFilter{Viewer: ann.ID, AuthorID: bob.ID, Status: domain.StatusDraft}, ids()},
		{"tag", ports.PostFilter{TagSlug: "go"}, ids(p1)},
		{"tag with the viewer's draft", ports.PostFilter{Viewer: ann.ID, TagSlug: "go"}, ids(p2, p1)},
		{"tag slug shared by two tags lists each post once", ports.PostFilter{TagSlug: "c"}, ids(p5, p1)},
		{"unknown tag", ports.PostFilter{TagSlug: "rust"}, ids()},
		{"search ignores ASCII case", ports.PostFilter{Search: "WORLD"}, ids(p1)},
		{"search folds Unicode", ports.PostFilter{Search: "ÉTÉ"}, ids(p5)},
		{"search folds Unicode the other way", ports.PostFilter{Search: "σίσυφ"}, ids(p7)},
		{"percent is literal", ports.PostFilter{Search: "%"}, ids(p3)},
		{"underscore is literal", ports.PostFilter{Search: "e_c"}, ids(p6)},
		{"search and author", ports.PostFilter{Search: "a", AuthorID: ann.ID}, ids(p7, p6)},
		{"search sees the viewer's drafts", ports.PostFilter{Viewer: bob.ID, Search: "SECRET"}, ids(p4)},
		{"everything at once", ports.PostFilter{Viewer: ann.ID, Search: "o", Status: domain.StatusPublished, AuthorID: ann.ID, TagSlug: "c"}, ids(p1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := sqlite.ListPosts(ctx, r, tc.f, ports.Page{Limit: 100})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			count, err := sqlite.CountPosts(ctx, r, tc.f)
			if err != nil {
				t.Fatalf("Count: %v", err)
			}
			if got := postIDs(list); !reflect.DeepEqual(got, tc.want) || count != len(tc.want) {
				t.Errorf("got %v (count %d), want %v", got, count, tc.want)
			}
			after, err := sqlite.ListPostsAfter(ctx, r, tc.f, nil, 100)
			if err != nil {
				t.Fatalf("ListAfter: %v", err)
			}
			if got := postIDs(after); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ListAfter from the start: got %v, want %v", got, tc.want)
			}
		})
	}

	list, err := sqlite.ListPosts(ctx, r, ports.PostFilter{Viewer: ann.ID}, ports.Page{Limit: 1})
	if err != nil || len(list) != 1 || !reflect.DeepEqual(list[0].State(), p7.State()) {
		t.Errorf("List: got %v, %v, want every field of %q", list, err, p7.Title())
	}
}

func TestPostPaging(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	u := mustUser(t, r, "ann@example.com")
	other := mustUser(t, r, "bob@example.com")
	// Several posts share a creation time, so id breaks ties, and the
	// filter leaves out another author's draft in the middle.
	created := []time.Duration{0, time.Second, time.Second, time.Second, 2 * time.Second, 2 * time.Second, 3 * time.Second}
	var all []domain.Post
	for i, d := range created {
		all = append(all, mustPost(t, r, u.ID, fmt.Sprintf("Post %d", i), domain.StatusPublished, t0.Add(d)))
		if i == 3 {
			mustPost(t, r, other.ID, "Hidden", domain.StatusDraft, t0.Add(d))
		}
	}
	slices.Reverse(all)
	want := postIDs(all)

	for _, size := range []int{1, 2, 3, 7, 10} {
		var walked []int64
		var cursor *ports.PostCursor
		for range len(all) + 1 {
			page, err := sqlite.ListPostsAfter(ctx, r, ports.PostFilter{Viewer: u.ID}, cursor, size)
			if err != nil {
				t.Fatalf("ListAfter: %v", err)
			}
			if len(page) > size {
				t.Fatalf("ListAfter returned %d posts, want at most %d", len(page), size)
			}
			if len(page) == 0 {
				break
			}
			walked = append(walked, postIDs(page)...)
			last := page[len(page)-1]
			cursor = &ports.PostCursor{CreatedAt: last.CreatedAt().UnixMicro(), ID: last.ID()}
		}
		if !reflect.DeepEqual(walked, want) {
			t.Errorf("cursor pages of %d: got %v, want %v", size, walked, want)
		}

		var paged []int64
		for offset := 0; offset < len(all)+size; offset += size {
			page, err := sqlite.ListPosts(ctx, r, ports.PostFilter{Viewer: u.ID}, ports.Page{Offset: offset, Limit: size})
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			paged = append(paged, postIDs(page)...)
		}
		if !reflect.DeepEqual(paged, want) {
			t.Errorf("offset pages of %d: got %v, want %v", size, paged, want)
		}
	}

	list, err := sqlite.ListPostsAfter(ctx, r, ports.PostFilter{}, nil, 0)
	if err != nil || len(list) != len(all) {
		t.Errorf("ListAfter without a limit: got %d posts, %v, want %d", len(list), err, len(all))
	}
	list, err = sqlite.ListPosts(ctx, r, ports.PostFilter{}, ports.Page{Offset: 100, Limit: 5})
	if err != nil || list == nil || len(list) != 0 {
		t.Errorf("List past the end: got %v, %v, want an empty list", list, err)
	}
}

func TestTags(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	u := mustUser(t, r, "ann@example.com")
	zeta := mustTag(t, r, "Zeta")
	alpha := mustTag(t, r, "alpha")
	ete := mustTag(t, r, "Été")
	beta := mustTag(t, r, "Beta")

	for _, name := range []string{"ZETA", "Alpha", "éTÉ"} {
		dup, err := domain.NewTag(name, t0)
		if err != nil {
			t.Fatalf("new tag %q: %v", name, err)
		}
		wantErr(t, "Create "+name, r.Tags.Create(ctx, &dup), domain.ErrTagTaken)
	}

	list, err := r.Tags.List(ctx)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	// By code point: capitals before small letters, accented letters last.
	if want := []domain.Tag{beta, zeta, alpha, ete}; !reflect.DeepEqual(list, want) {
		t.Errorf("List: got %+v, want %+v", list, want)
	}
	byID, err := r.Tags.ByIDs(ctx, []int64{beta.ID, 999, zeta.ID, beta.ID})
	if err != nil {
		t.Fatalf("ByIDs: %v", err)
	}
	if want := []domain.Tag{zeta, beta}; !reflect.DeepEqual(byID, want) {
		t.Errorf("ByIDs: got %+v, want %+v", byID, want)
	}
	if byID, err := r.Tags.ByIDs(ctx, nil); err != nil || byID == nil || len(byID) != 0 {
		t.Errorf("ByIDs of nothing: got %v, %v, want an empty list", byID, err)
	}

	p1 := mustPost(t, r, u.ID, "One", domain.StatusPublished, t0)
	p2 := mustPost(t, r, u.ID, "Two", domain.StatusPublished, t0)
	p3 := mustPost(t, r, u.ID, "Three", domain.StatusPublished, t0)
	set := func(p domain.Post, ids ...int64) {
		t.Helper()
		if err := r.Posts.SetTags(ctx, p.ID(), ids); err != nil {
			t.Fatalf("SetTags: %v", err)
		}
	}
	set(p1, alpha.ID, zeta.ID)
	set(p1, ete.ID, beta.ID, zeta.ID, zeta.ID) // replaces, and a repeated id counts once
	set(p2, alpha.ID)
	set(p3, alpha.ID)
	set(p3) // clears

	wantSets := map[int64][]domain.Tag{p1.ID(): {beta, zeta, ete}, p2.ID(): {alpha}}
	check := func(what string) {
		t.Helper()
		got, err := r.Tags.OfPosts(ctx, []int64{p1.ID(), p2.ID(), p3.ID(), 999})
		if err != nil {
			t.Fatalf("%s: OfPosts: %v", what, err)
		}
		if !reflect.DeepEqual(got, wantSets) {
			t.Errorf("%s: OfPosts: got %+v, want %+v", what, got, wantSets)
		}
	}
	check("after SetTags")

	wantErr(t, "SetTags with a missing tag", r.Posts.SetTags(ctx, p1.ID(), []int64{alpha.ID, 999}), domain.ErrNotFound)
	wantErr(t, "SetTags of a missing post", r.Posts.SetTags(ctx, 999, []int64{alpha.ID}), domain.ErrNotFound)
	wantErr(t, "SetTags of a missing post, no tags", r.Posts.SetTags(ctx, 999, nil), domain.ErrNotFound)
	check("after refused SetTags")

	if got, err := r.Tags.OfPosts(ctx, nil); err != nil || got == nil || len(got) != 0 {
		t.Errorf("OfPosts of nothing: got %v, %v, want an empty map", got, err)
	}
}

func TestSetTagsInsideTransaction(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	u := mustUser(t, st.Repos(), "ann@example.com")
	p := mustPost(t, st.Repos(), u.ID, "One", domain.StatusPublished, t0)
	a := mustTag(t, st.Repos(), "a")
	b := mustTag(t, st.Repos(), "b")

	err := st.InTx(ctx, func(r ports.Repos) error {
		if err := r.Posts.SetTags(ctx, p.ID(), []int64{a.ID}); err != nil {
			return err
		}
		// A refused replacement inside the transaction leaves the set the
		// transaction made, so a caller that carries on commits that.
		if err := r.Posts.SetTags(ctx, p.ID(), []int64{b.ID, 999}); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("SetTags with a missing tag: got %v, want %v", err, domain.ErrNotFound)
		}
		got, err := r.Tags.OfPosts(ctx, []int64{p.ID()})
		if err != nil {
			return err
		}
		if ids := tagIDs(got[p.ID()]); !reflect.DeepEqual(ids, []int64{a.ID}) {
			t.Errorf("inside the transaction: got tags %v, want %v", ids, []int64{a.ID})
		}
		return nil
	})
	if err != nil {
		t.Fatalf("InTx: %v", err)
	}

	boom := errors.New("boom")
	err = st.InTx(ctx, func(r ports.Repos) error {
		if err := r.Posts.SetTags(ctx, p.ID(), []int64{b.ID}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx: got %v, want %v", err, boom)
	}
	got, err := st.Repos().Tags.OfPosts(ctx, []int64{p.ID()})
	if err != nil {
		t.Fatalf("OfPosts: %v", err)
	}
	if ids := tagIDs(got[p.ID()]); !reflect.DeepEqual(ids, []int64{a.ID}) {
		t.Errorf("after a rolled back SetTags: got tags %v, want %v", ids, []int64{a.ID})
	}
}

func TestComments(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	ann := mustUser(t, r, "ann@example.com")
	bob := mustUser(t, r, "bob@example.com")
	p := mustPost(t, r, ann.ID, "One", domain.StatusPublished, t0)
	other := mustPost(t, r, ann.ID, "Two", domain.StatusPublished, t0)

	late := mustComment(t, r, p.ID(), bob.ID, "late", t0.Add(time.Minute))
	early := mustComment(t, r, p.ID(), ann.ID, "early", t0)
	tie := mustComment(t, r, p.ID(), bob.ID, "tie", t0)
	mustComment(t, r, other.ID(), bob.ID, "elsewhere", t0)

	got, err := r.Comments.Get(ctx, early.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if !reflect.DeepEqual(got, early) {
		t.Errorf("Get: got %+v, want %+v", got, early)
	}
	early.Body, early.UpdatedAt = "edited", t0.Add(time.Hour)
	if err := r.Comments.Update(ctx, early); err != nil {
		t.Fatalf("Update: %v", err)
	}
	if got, _ := r.Comments.Get(ctx, early.ID); !reflect.DeepEqual(got, early) {
		t.Errorf("after Update: got %+v, want %+v", got, early)
	}

	pages := []struct {
		page      ports.Page
		want      []domain.Comment
		wantTotal int
	}{
		{ports.Page{}, []domain.Comment{early, tie, late}, 3},
		{ports.Page{Limit: 2}, []domain.Comment{early, tie}, 3},
		{ports.Page{Offset: 2, Limit: 2}, []domain.Comment{late}, 3},
		{ports.Page{Offset: 10, Limit: 2}, []domain.Comment{}, 3},
	}
	for _, tc := range pages {
		list, total, err := r.Comments.ListByPost(ctx, p.ID(), tc.page)
		if err != nil {
			t.Fatalf("ListByPost %+v: %v", tc.page, err)
		}
		got := make([]domain.Comment, len(list))
		for i, v := range list {
			got[i] = v.Comment
			if v.Author.ID != v.Comment.UserID || v.Author.Name == "" {
				t.Errorf("ListByPost %+v: comment %d came with author %+v, want user %d", tc.page, v.Comment.ID, v.Author, v.Comment.UserID)
			}
		}
		if !reflect.DeepEqual(got, tc.want) || total != tc.wantTotal {
			t.Errorf("ListByPost %+v: got %+v of %d, want %+v of %d", tc.page, got, total, tc.want, tc.wantTotal)
		}
	}
	list, total, err := r.Comments.ListByPost(ctx, 999, ports.Page{})
	if err != nil || list == nil || len(list) != 0 || total != 0 {
		t.Errorf("ListByPost of a missing post: got %v of %d, %v, want an empty list of 0", list, total, err)
	}

	c := domain.Comment{PostID: 999, UserID: bob.ID, Body: "x", CreatedAt: t0, UpdatedAt: t0}
	wantErr(t, "Create on a missing post", r.Comments.Create(ctx, &c), domain.ErrNotFound)
	c = domain.Comment{PostID: p.ID(), UserID: 999, Body: "x", CreatedAt: t0, UpdatedAt: t0}
	wantErr(t, "Create by a missing user", r.Comments.Create(ctx, &c), domain.ErrNotFound)
	_, err = r.Comments.Get(ctx, 999)
	wantErr(t, "Get missing", err, domain.ErrNotFound)
	wantErr(t, "Update missing", r.Comments.Update(ctx, domain.Comment{ID: 999}), domain.ErrNotFound)
	if err := r.Comments.Delete(ctx, tie.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	wantErr(t, "Delete twice", r.Comments.Delete(ctx, tie.ID), domain.ErrNotFound)
}

func TestContentCascades(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	ann := mustUser(t, r, "ann@example.com")
	bob := mustUser(t, r, "bob@example.com")
	annPost := mustPost(t, r, ann.ID, "Ann's", domain.StatusPublished, t0)
	bobPost := mustPost(t, r, bob.ID, "Bob's", domain.StatusPublished, t0)
	tag := mustTag(t, r, "Go")
	for _, p := range []domain.Post{annPost, bobPost} {
		if err := r.Posts.SetTags(ctx, p.ID(), []int64{tag.ID}); err != nil {
			t.Fatalf("SetTags: %v", err)
		}
	}
	onAnns := mustComment(t, r, annPost.ID(), bob.ID, "bob on ann's", t0)
	annOnBobs := mustComment(t, r, bobPost.ID(), ann.ID, "ann on bob's", t0)
	bobOnBobs := mustComment(t, r, bobPost.ID(), bob.ID, "bob on bob's", t0)

	// Deleting a post takes its comments and tag links, not the tag.
	if err := r.Posts.Delete(ctx, annPost.ID()); err != nil {
		t.Fatalf("Delete post: %v", err)
	}
	_, err := r.Comments.Get(ctx, onAnns.ID)
	wantErr(t, "comment on a deleted post", err, domain.ErrNotFound)
	byPost, err := r.Tags.OfPosts(ctx, []int64{annPost.ID(), bobPost.ID()})
	if err != nil {
		t.Fatalf("OfPosts: %v", err)
	}
	if want := map[int64][]domain.Tag{bobPost.ID(): {tag}}; !reflect.DeepEqual(byPost, want) {
		t.Errorf("OfPosts after deleting a post: got %+v, want %+v", byPost, want)
	}

	// Deleting a user takes their comments on other posts too, and their
	// posts with everyone's comments on them.
	if err := r.Users.Delete(ctx, ann.ID); err != nil {
		t.Fatalf("Delete user: %v", err)
	}
	_, err = r.Comments.Get(ctx, annOnBobs.ID)
	wantErr(t, "comment of a deleted user", err, domain.ErrNotFound)
	if _, err := r.Comments.Get(ctx, bobOnBobs.ID); err != nil {
		t.Errorf("another user's comment: %v", err)
	}
	if err := r.Users.Delete(ctx, bob.ID); err != nil {
		t.Fatalf("Delete user: %v", err)
	}
	_, err = r.Posts.Get(ctx, bobPost.ID())
	wantErr(t, "post of a deleted user", err, domain.ErrNotFound)
	_, err = r.Comments.Get(ctx, bobOnBobs.ID)
	wantErr(t, "comment on a deleted user's post", err, domain.ErrNotFound)
	tags, err := r.Tags.List(ctx)
	if err != nil || !reflect.DeepEqual(tags, []domain.Tag{tag}) {
		t.Errorf("tags after the deletes: got %+v, %v, want %+v", tags, err, []domain.Tag{tag})
	}
}

// TestQueriesCountsStatements shows what the post list use case costs: the
// page, the total, the authors and the tags, one statement each, whatever
// the page's size.
func TestQueriesCountsStatements(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if got := st.Queries(); got != 0 {
		t.Errorf("Queries after Open: got %d, want 0", got)
	}
	r := st.Repos()
	var authors []int64
	for i := range 5 {
		authors = append(authors, mustUser(t, r, fmt.Sprintf("u%d@example.com", i)).ID)
	}
	tags := []int64{mustTag(t, r, "a").ID, mustTag(t, r, "b").ID}
	for i := range 30 {
		p := mustPost(t, r, authors[i%len(authors)], fmt.Sprintf("Post %d", i), domain.StatusPublished, t0.Add(time.Duration(i)*time.Second))
		if err := r.Posts.SetTags(ctx, p.ID(), tags[:i%3]); err != nil {
			t.Fatalf("SetTags: %v", err)
		}
	}

	page := func(size int) int64 {
		t.Helper()
		before := st.Queries()
		list, err := sqlite.ListPosts(ctx, r, ports.PostFilter{}, ports.Page{Limit: size})
		if err != nil {
			t.Fatalf("List: %v", err)
		}
		if _, err := sqlite.CountPosts(ctx, r, ports.PostFilter{}); err != nil {
			t.Fatalf("Count: %v", err)
		}
		ids := make([]int64, len(list))
		authorIDs := make([]int64, len(list))
		for i, p := range list {
			ids[i], authorIDs[i] = p.ID(), p.AuthorID()
		}
		if _, err := r.Users.ByIDs(ctx, authorIDs); err != nil {
			t.Fatalf("Users.ByIDs: %v", err)
		}
		if _, err := r.Tags.OfPosts(ctx, ids); err != nil {
			t.Fatalf("OfPosts: %v", err)
		}
		return st.Queries() - before
	}
	for _, size := range []int{1, 5, 30} {
		if got := page(size); got != 4 {
			t.Errorf("a page of %d posts: got %d statements, want 4", size, got)
		}
	}

	before := st.Queries()
	err := st.InTx(ctx, func(r ports.Repos) error {
		if _, err := r.Posts.LastSlugSuffix(ctx, "post"); err != nil {
			return err
		}
		_, err := r.Posts.Get(ctx, 1)
		return err
	})
	if err != nil {
		t.Fatalf("InTx: %v", err)
	}
	if got := st.Queries() - before; got != 2 {
		t.Errorf("a transaction of two statements: got %d, want 2", got)
	}
}
