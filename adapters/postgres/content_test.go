package postgres_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func newPost(t *testing.T, r ports.Repos, author int64, title string, status domain.PostStatus, created time.Time) domain.Post {
	t.Helper()
	p, err := domain.NewPost(author, title, "<p>Body of "+title+"</p>", status, created)
	mustDo(t, "NewPost", err)
	mustDo(t, "create post "+title, r.Posts.Create(context.Background(), &p))
	return p
}

func postIDs(list []domain.Post) []int64 {
	out := []int64{}
	for _, p := range list {
		out = append(out, p.ID())
	}
	return out
}

func TestPosts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()
	ann, bob := newUser("ann@example.com"), newUser("bob@example.com")
	mustDo(t, "create ann", r.Users.Create(ctx, &ann))
	mustDo(t, "create bob", r.Users.Create(ctx, &bob))

	p1 := newPost(t, r, ann.ID, "Hello World", domain.StatusPublished, t0)
	got, err := r.Posts.Get(ctx, p1.ID())
	mustDo(t, "Get", err)
	if !reflect.DeepEqual(got.State(), p1.State()) {
		t.Errorf("Get: got %+v, want %+v", got.State(), p1.State())
	}

	dup, err := domain.NewPost(bob.ID, "Hello, world!", "x", domain.StatusDraft, t0)
	mustDo(t, "NewPost", err)
	wantErr(t, "Create with a taken slug", r.Posts.Create(ctx, &dup), domain.ErrSlugTaken)
	orphan, _ := domain.NewPost(999, "Orphan", "x", domain.StatusDraft, t0)
	wantErr(t, "Create by a missing author", r.Posts.Create(ctx, &orphan), domain.ErrNotFound)

	for _, tc := range []struct {
		base string
		want int
	}{{"hello-world", 1}, {"nothing", 0}} {
		n, err := r.Posts.LastSlugSuffix(ctx, tc.base)
		mustDo(t, "LastSlugSuffix", err)
		if n != tc.want {
			t.Errorf("LastSlugSuffix(%q) = %d, want %d", tc.base, n, tc.want)
		}
	}
	mustDo(t, "create -3", r.Posts.Create(ctx, ptr(dup.WithSlugSuffix(3))))
	mustDo(t, "create -2", r.Posts.Create(ctx, ptr(dup.WithSlugSuffix(2))))
	n, err := r.Posts.LastSlugSuffix(ctx, "hello-world")
	mustDo(t, "LastSlugSuffix", err)
	if n != 3 {
		t.Errorf("LastSlugSuffix after -2 and -3: got %d, want 3", n)
	}

	// p1 (ann, published, t0), p2 (ann, draft), p3 (bob, published "50% off"),
	// and the two bob drafts above at t0.
	p2 := newPost(t, r, ann.ID, "Draft thoughts", domain.StatusDraft, t0.Add(time.Hour))
	p3 := newPost(t, r, bob.ID, "50% off", domain.StatusPublished, t0.Add(2*time.Hour))
	go1 := domain.NewTag("Go", t0)
	sql := domain.NewTag("SQL", t0)
	mustDo(t, "create tag", r.Tags.Create(ctx, &go1))
	mustDo(t, "create tag", r.Tags.Create(ctx, &sql))
	wantErr(t, "Tags.Create with a taken name", r.Tags.Create(ctx, ptr(domain.NewTag("go", t0))), domain.ErrTagTaken)
	mustDo(t, "SetTags", r.Posts.SetTags(ctx, p1.ID(), []int64{sql.ID, go1.ID, go1.ID}))
	mustDo(t, "SetTags", r.Posts.SetTags(ctx, p3.ID(), []int64{go1.ID}))
	wantErr(t, "SetTags with a missing tag", r.Posts.SetTags(ctx, p1.ID(), []int64{go1.ID, 999}), domain.ErrNotFound)
	wantErr(t, "SetTags of a missing post", r.Posts.SetTags(ctx, 999, nil), domain.ErrNotFound)

	byPost, err := r.Tags.OfPosts(ctx, []int64{p1.ID(), p2.ID(), p3.ID()})
	mustDo(t, "OfPosts", err)
	want := map[int64][]domain.Tag{p1.ID(): {go1, sql}, p3.ID(): {go1}}
	if !reflect.DeepEqual(byPost, want) {
		t.Errorf("OfPosts (after a refused SetTags): got %+v, want %+v", byPost, want)
	}
	tagList, err := r.Tags.ByIDs(ctx, []int64{sql.ID, 999, go1.ID})
	mustDo(t, "ByIDs", err)
	if !reflect.DeepEqual(tagList, []domain.Tag{go1, sql}) {
		t.Errorf("ByIDs: got %+v", tagList)
	}

	tests := []struct {
		name string
		f    ports.PostFilter
		want []int64
	}{
		{"anonymous sees published", ports.PostFilter{}, []int64{p3.ID(), p1.ID()}},
		{"author sees own drafts", ports.PostFilter{Viewer: ann.ID}, []int64{p3.ID(), p2.ID(), p1.ID()}},
		{"search is literal", ports.PostFilter{Search: "50%"}, []int64{p3.ID()}},
		{"search ignores case", ports.PostFilter{Search: "WORLD"}, []int64{p1.ID()}},
		{"status", ports.PostFilter{Viewer: ann.ID, Status: domain.StatusDraft}, []int64{p2.ID()}},
		{"author", ports.PostFilter{AuthorID: bob.ID}, []int64{p3.ID()}},
		{"tag", ports.PostFilter{TagSlug: "sql"}, []int64{p1.ID()}},
	}
	for _, tc := range tests {
		list, err := r.Posts.List(ctx, tc.f, ports.Page{Limit: 10})
		mustDo(t, tc.name, err)
		count, err := r.Posts.Count(ctx, tc.f)
		mustDo(t, tc.name, err)
		if got := postIDs(list); !reflect.DeepEqual(got, tc.want) || count != len(tc.want) {
			t.Errorf("%s: got %v (count %d), want %v", tc.name, got, count, tc.want)
		}
	}

	// Cursor pages walk the same order.
	var walked []int64
	var cursor *ports.PostCursor
	for range 5 {
		page, err := r.Posts.ListAfter(ctx, ports.PostFilter{Viewer: ann.ID}, cursor, 2)
		mustDo(t, "ListAfter", err)
		if len(page) == 0 {
			break
		}
		walked = append(walked, postIDs(page)...)
		last := page[len(page)-1]
		cursor = &ports.PostCursor{CreatedAt: last.CreatedAt().UnixMicro(), ID: last.ID()}
	}
	if want := []int64{p3.ID(), p2.ID(), p1.ID()}; !reflect.DeepEqual(walked, want) {
		t.Errorf("ListAfter walk: got %v, want %v", walked, want)
	}

	locked := p2
	mustDo(t, "publish", locked.SetStatus(domain.StatusPublished, t0.Add(3*time.Hour)))
	locked.Retitle("Published thoughts", t0.Add(3*time.Hour))
	mustDo(t, "Update", r.Posts.Update(ctx, locked))
	got, err = r.Posts.Lock(ctx, p2.ID())
	mustDo(t, "Lock", err)
	if !reflect.DeepEqual(got.State(), locked.State()) {
		t.Errorf("after Update: got %+v, want %+v", got.State(), locked.State())
	}

	c := domain.Comment{PostID: p1.ID(), UserID: bob.ID, Body: "Nice", CreatedAt: t0, UpdatedAt: t0}
	mustDo(t, "create comment", r.Comments.Create(ctx, &c))
	wantErr(t, "comment on a missing post", r.Comments.Create(ctx, &domain.Comment{PostID: 999, UserID: bob.ID, Body: "x", CreatedAt: t0, UpdatedAt: t0}), domain.ErrNotFound)
	for i := range 3 {
		mustDo(t, "create comment", r.Comments.Create(ctx, &domain.Comment{PostID: p1.ID(), UserID: ann.ID, Body: fmt.Sprint(i), CreatedAt: t0.Add(time.Minute), UpdatedAt: t0}))
	}
	page, total, err := r.Comments.ListByPost(ctx, p1.ID(), ports.Page{Limit: 2})
	mustDo(t, "ListByPost", err)
	if total != 4 || len(page) != 2 || !reflect.DeepEqual(page[0], c) {
		t.Errorf("ListByPost: got %+v of %d, want 2 starting with %+v of 4", page, total, c)
	}
	page, total, err = r.Comments.ListByPost(ctx, p1.ID(), ports.Page{Offset: 10, Limit: 2})
	mustDo(t, "ListByPost past the end", err)
	if total != 4 || len(page) != 0 {
		t.Errorf("ListByPost past the end: got %d of %d, want 0 of 4", len(page), total)
	}

	mustDo(t, "Delete post", r.Posts.Delete(ctx, p1.ID()))
	_, err = r.Comments.Get(ctx, c.ID)
	wantErr(t, "comment of a deleted post", err, domain.ErrNotFound)
	wantErr(t, "Delete of a missing post", r.Posts.Delete(ctx, p1.ID()), domain.ErrNotFound)
	_, err = r.Posts.Get(ctx, p1.ID())
	wantErr(t, "Get of a deleted post", err, domain.ErrNotFound)
}
