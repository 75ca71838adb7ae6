package memory_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/demo"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func TestSeed(t *testing.T) {
	ctx := context.Background()
	st := memory.New()
	plan := demo.Plan{Users: 4, Tags: 6, Posts: 30, Comments: 70, Seed: 3,
		Until: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), PasswordHash: "$2a$04$x"}
	var last, calls int
	err := st.Seed(ctx, plan, func(done, total int) {
		calls++
		if done < last || total != plan.Rows() {
			t.Errorf("progress %d/%d after %d, want rising to %d", done, total, last, plan.Rows())
		}
		last = done
	})
	if err != nil {
		t.Fatalf("Seed: %v", err)
	}
	if last != plan.Rows() || calls == 0 {
		t.Errorf("progress ended at %d after %d calls, want %d", last, calls, plan.Rows())
	}

	r := st.Repos()
	userIDs := make([]int64, plan.Users)
	for i := range plan.Users {
		want := plan.User(i)
		u, err := r.Users.ByEmail(ctx, want.Email)
		if err != nil || u.Name != want.Name || u.PasswordHash != plan.PasswordHash || !u.CreatedAt.Equal(want.CreatedAt) {
			t.Fatalf("user %s: got %+v, %v; want %+v", want.Email, u, err, want)
		}
		userIDs[i] = u.ID
	}
	tags, err := r.Tags.List(ctx)
	if err != nil || len(tags) != plan.Tags {
		t.Fatalf("tags: got %d, %v; want %d", len(tags), err, plan.Tags)
	}
	tagIDs := map[string]int64{}
	for _, tag := range tags {
		tagIDs[tag.Name] = tag.ID
	}

	// Every post, drafts included, through its author's eyes.
	var postIDs []int64
	bySlug := map[string]domain.Post{}
	for _, author := range userIDs {
		f := ports.PostFilter{Viewer: author, AuthorID: author}
		views, _, err := r.PostViews.ListViews(ctx, f, ports.Page{})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range views {
			p := v.Post
			bySlug[p.Slug()] = p
			postIDs = append(postIDs, p.ID())
		}
	}
	if len(bySlug) != plan.Posts {
		t.Fatalf("posts: got %d, want %d", len(bySlug), plan.Posts)
	}
	links, err := r.Tags.OfPosts(ctx, postIDs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range plan.Posts {
		want := plan.Post(i)
		got, ok := bySlug[want.Slug]
		if !ok || got.Title() != want.Title || got.Body() != want.Body || got.Status() != want.Status ||
			got.AuthorID() != userIDs[want.Author] || !got.CreatedAt().Equal(want.CreatedAt) {
			t.Fatalf("post %d: got %+v, want %+v", i, got.State(), want)
		}
		var gotTags, wantTags []int64
		for _, tag := range links[got.ID()] {
			gotTags = append(gotTags, tag.ID)
		}
		for _, k := range want.Tags {
			wantTags = append(wantTags, tagIDs[plan.Tag(k).Name])
		}
		slices.Sort(gotTags)
		slices.Sort(wantTags)
		if !slices.Equal(gotTags, wantTags) {
			t.Fatalf("post %d: tags %v, want %v", i, gotTags, wantTags)
		}
	}
	comments := 0
	for _, id := range postIDs {
		_, n, err := r.Comments.ListByPost(ctx, id, ports.Page{})
		if err != nil {
			t.Fatal(err)
		}
		comments += n
	}
	if comments != plan.Comments {
		t.Errorf("comments: got %d, want %d", comments, plan.Comments)
	}

	if err := st.Seed(ctx, plan, nil); !errors.Is(err, demo.ErrNotEmpty) {
		t.Errorf("second Seed: got %v, want demo.ErrNotEmpty", err)
	}
	if _, n, _ := r.PostViews.ListViews(ctx, ports.PostFilter{Viewer: userIDs[0]}, ports.Page{Limit: 1}); n > plan.Posts {
		t.Errorf("after a refused Seed: %d posts, want at most %d", n, plan.Posts)
	}
	if err := st.Seed(ctx, demo.Plan{Posts: 1}, nil); err == nil {
		t.Error("Seed of an invalid plan: got no error")
	}
}
