package app_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// TestPostViews checks that what Create and Update return, built from what
// the transaction already holds rather than read back, is what Show reads
// afterwards: the post, its author, and its tags, distinct and in
// ports.TagOrder however the request listed them.
func TestPostViews(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			ann := w.register(t, "ann@example.com")
			bob := w.register(t, "bob@example.com")
			var tags []int64
			// Byte order puts capitals first: Beta, Zed, alpha.
			for _, name := range []string{"Zed", "alpha", "Beta"} {
				tag, err := domain.NewTag(name, t0)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.store.Repos().Tags.Create(ctx, &tag); err != nil {
					t.Fatal(err)
				}
				tags = append(tags, tag.ID)
			}
			zed, alpha, beta := tags[0], tags[1], tags[2]

			check := func(what string, got ports.PostView, viewer int64) {
				t.Helper()
				want, err := w.posts.Show(ctx, domain.Actor{User: domain.User{ID: viewer}, PostReads: domain.PostReadsOpen}, got.Post.ID(), false)
				if err != nil {
					t.Fatalf("%s: Show: %v", what, err)
				}
				if !reflect.DeepEqual(got.Post.State(), want.Post.State()) {
					t.Errorf("%s: post %+v, Show reads %+v", what, got.Post.State(), want.Post.State())
				}
				if !reflect.DeepEqual(got.Author, want.Author) {
					t.Errorf("%s: author %+v, Show reads %+v", what, got.Author, want.Author)
				}
				if !reflect.DeepEqual(got.Tags, want.Tags) {
					t.Errorf("%s: tags %+v, Show reads %+v", what, got.Tags, want.Tags)
				}
			}

			v, err := w.posts.Create(ctx, ann, ports.PostInput{Title: "Tagged", Body: "b", Status: domain.StatusDraft, TagIDs: []int64{zed, alpha, beta, zed}})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(v.Tags); n != 3 || v.Tags[0].ID != beta || v.Tags[1].ID != zed || v.Tags[2].ID != alpha {
				t.Errorf("Create: got tags %+v, want Beta, Zed, alpha", v.Tags)
			}
			check("Create", v, ann.User.ID)
			bare, err := w.posts.Create(ctx, bob, ports.PostInput{Title: "Bare", Body: "b", Status: domain.StatusPublished})
			if err != nil {
				t.Fatal(err)
			}
			if bare.Tags == nil || len(bare.Tags) != 0 {
				t.Errorf("Create without tags: got tags %#v, want an empty list", bare.Tags)
			}
			check("Create without tags", bare, 0)

			w.clock.Advance(time.Minute)
			v, err = w.posts.Update(ctx, domain.ByOwnRight(ann), v.Post.ID(), ports.PostPatch{Title: ports.Optional[string]{Set: true, Value: "Retitled"}}, ports.Precondition{})
			if err != nil {
				t.Fatal(err)
			}
			check("Update keeping the tags", v, ann.User.ID)
			v, err = w.posts.Update(ctx, domain.ByOwnRight(ann), v.Post.ID(), ports.PostPatch{
				Status: ports.Optional[domain.PostStatus]{Set: true, Value: domain.StatusPublished},
				TagIDs: ports.Optional[[]int64]{Set: true, Value: []int64{alpha, beta}},
			}, ports.Precondition{})
			if err != nil {
				t.Fatal(err)
			}
			check("Update replacing the tags", v, 0)
			v, err = w.posts.Update(ctx, domain.ByOwnRight(ann), v.Post.ID(), ports.PostPatch{TagIDs: ports.Optional[[]int64]{Set: true, Value: []int64{}}}, ports.Precondition{})
			if err != nil {
				t.Fatal(err)
			}
			check("Update removing the tags", v, 0)

			_, err = w.posts.Create(ctx, ann, ports.PostInput{Title: "Unknown tag", Body: "b", Status: domain.StatusPublished, TagIDs: []int64{alpha, 987654}})
			var de *domain.Error
			if !errors.As(err, &de) || de.Kind != domain.Invalid || !slices.Equal(de.Rules("tags.1"), []domain.Rule{domain.RuleExists}) {
				t.Errorf("Create with an unknown tag: got %v, want an invalid tags.1", err)
			}
		})
	}
}

// TestShowComments checks the single read's comments: oldest first, each
// with its author as that user is now.
func TestShowComments(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			ann := w.register(t, "ann@example.com")
			bob := w.register(t, "bob@example.com")
			p, err := w.posts.Create(ctx, ann, ports.PostInput{Title: "Commented", Body: "b", Status: domain.StatusPublished})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i, a := range []domain.Actor{bob, ann, bob} {
				w.clock.Advance(time.Second)
				body := []string{"first", "second", "third"}[i]
				if _, err := w.comments.Create(ctx, a, p.Post.ID(), body); err != nil {
					t.Fatal(err)
				}
				want = append(want, body)
			}
			bobNow, err := w.store.Repos().Users.ByID(ctx, bob.User.ID)
			if err != nil {
				t.Fatal(err)
			}
			v, err := w.posts.Show(ctx, domain.Actor{PostReads: domain.PostReadsOpen}, p.Post.ID(), true)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range v.Comments {
				got = append(got, c.Comment.Body)
				if c.Author.ID != c.Comment.UserID {
					t.Errorf("comment %q: author %d, want %d", c.Comment.Body, c.Author.ID, c.Comment.UserID)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Show's comments: got %q, want %q", got, want)
			}
			if len(v.Comments) == 3 && !reflect.DeepEqual(v.Comments[0].Author, bobNow.Author()) {
				t.Errorf("Show's first comment: author %+v, want %+v", v.Comments[0].Author, bobNow.Author())
			}
			if !reflect.DeepEqual(v.Author, ann.User.Author()) {
				t.Errorf("Show: author %+v, want %+v", v.Author, ann.User.Author())
			}
		})
	}
}

// TestAuthenticate checks the one-query look-up of a token with its user:
// only a token that passes every check yields its user.
func TestAuthenticate(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			ann := w.register(t, "ann@example.com")
			_, short, err := w.tokens.Create(ctx, ann, ports.TokenInput{Name: "short", ExpiresIn: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			got, err := w.accounts.Authenticate(ctx, short.String())
			if err != nil || !reflect.DeepEqual(got.User, ann.User) || got.Token == nil || got.Token.ID != short.ID {
				t.Fatalf("Authenticate: got %+v, %v, want Ann with token %d", got, err, short.ID)
			}
			// The secret alone, without "id|", is found by its digest.
			got, err = w.accounts.Authenticate(ctx, short.Secret)
			if err != nil || !reflect.DeepEqual(got.User, ann.User) || got.Token.ID != short.ID {
				t.Errorf("Authenticate without the id: got %+v, %v, want Ann with token %d", got, err, short.ID)
			}
			forged := short
			forged.Secret = domain.NewSecret("forgedforgedforgedforgedforgedforgedforg")
			for what, bearer := range map[string]string{
				"a wrong secret":       forged.String(),
				"an unknown token":     domain.PlainToken{ID: 987654, Secret: short.Secret}.String(),
				"another token's id":   domain.PlainToken{ID: ann.Token.ID, Secret: short.Secret}.String(),
				"a malformed bearer":   "nonsense",
				"an empty bearer text": "",
			} {
				if _, err := w.accounts.Authenticate(ctx, bearer); !errors.Is(err, domain.ErrUnauthenticated) {
					t.Errorf("Authenticate with %s: got %v, want %v", what, err, domain.ErrUnauthenticated)
				}
			}
			w.clock.Advance(2 * time.Hour)
			if _, err := w.accounts.Authenticate(ctx, short.String()); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("Authenticate with an expired token: got %v, want %v", err, domain.ErrUnauthenticated)
			}
			if _, err := w.accounts.Authenticate(ctx, short.Secret); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("Authenticate with an expired token, without its id: got %v, want %v", err, domain.ErrUnauthenticated)
			}
		})
	}
}

// TestCreateSameTitle races creators of one title, and of a title whose own
// slug looks like another's with a suffix: every post must be created, each
// with a slug of its own.
func TestCreateSameTitle(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			ann := w.register(t, "ann@example.com")
			const n = 24
			slugs := make([]string, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					title := "Same title"
					if i%4 == 3 {
						title = "Same title 2"
					}
					v, err := w.posts.Create(ctx, ann, ports.PostInput{Title: title, Body: "b", Status: domain.StatusPublished})
					slugs[i], errs[i] = v.Post.Slug(), err
				})
			}
			wg.Wait()
			seen := map[string]int{}
			for i, err := range errs {
				if err != nil {
					t.Errorf("creator %d: %v", i, err)
					continue
				}
				if j, ok := seen[slugs[i]]; ok {
					t.Errorf("creators %d and %d both got slug %q", j, i, slugs[i])
				}
				seen[slugs[i]] = i
			}
			if _, ok := seen["same-title"]; !ok {
				t.Errorf("no creator got the plain slug: %q", slugs)
			}
		})
	}
}
