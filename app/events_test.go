package app_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// outbox reads every event in the store.
func outbox(t *testing.T, store ports.Store) []domain.Event {
	t.Helper()
	events, err := store.Repos().Events.After(context.Background(), 0, 0, ports.EventFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// eventLine is what a test compares of an event: its type and facts.
func eventLine(e domain.Event) string {
	return fmt.Sprintf("%s post=%d author=%d commenter=%d draft=%t", e.Type, e.PostID, e.PostAuthorID, e.CommentAuthorID, e.Draft)
}

// TestEveryWriteRecordsItsEvent runs each write of posts, comments and area
// B's records and checks that exactly its event was appended, with the
// facts that decide who sees it, and that a write that fails appends none.
func TestEveryWriteRecordsItsEvent(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			store := s.Open(t)
			w := newAccountWorld(t, store)
			svc := stacktest.NewStack(t, store, stacktest.Options{}).Services
			ann := w.register(t, "ann@example.com")
			bob := w.register(t, "bob@example.com")
			a, b := ann.User.ID, bob.User.ID
			seen := 0
			expect := func(what string, want ...string) {
				t.Helper()
				events := outbox(t, store)
				var got []string
				for _, e := range events[seen:] {
					got = append(got, eventLine(e))
				}
				seen = len(events)
				if !slices.Equal(got, want) {
					t.Errorf("%s: events\n\t%q\nwant\n\t%q", what, got, want)
				}
			}
			must := func(what string, err error) {
				t.Helper()
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
			}

			draft, err := w.posts.Create(ctx, ann, ports.PostInput{Title: "Draft", Body: "b", Status: domain.StatusDraft})
			must("create", err)
			p := draft.Post.ID()
			expect("create a draft", fmt.Sprintf("post.created post=%d author=%d commenter=0 draft=true", p, a))
			_, err = w.posts.Create(ctx, ann, ports.PostInput{Title: "Bad", Body: "b", Status: domain.StatusDraft, TagIDs: []int64{999}})
			if err == nil {
				t.Fatal("create with an unknown tag: no error")
			}
			expect("a create that fails")

			_, err = w.posts.Update(ctx, domain.ByOwnRight(ann), p, ports.PostPatch{Title: ports.Some("Draft 2")}, ports.Precondition{})
			must("update", err)
			expect("update a draft", fmt.Sprintf("post.updated post=%d author=%d commenter=0 draft=true", p, a))
			_, err = w.posts.Update(ctx, domain.ByOwnRight(ann), p, ports.PostPatch{Status: ports.Some(domain.StatusPublished)}, ports.Precondition{})
			must("publish", err)
			expect("publish", fmt.Sprintf("post.published post=%d author=%d commenter=0 draft=false", p, a))
			_, err = w.posts.Update(ctx, domain.ByOwnRight(bob), p, ports.PostPatch{Title: ports.Some("Mine")}, ports.Precondition{})
			if !errors.Is(err, domain.ErrForbidden) {
				t.Fatalf("update by another: got %v, want forbidden", err)
			}
			expect("a refused update")

			c, err := w.comments.Create(ctx, bob, p, "Hi")
			must("comment", err)
			expect("comment", fmt.Sprintf("comment.created post=%d author=%d commenter=%d draft=false", p, a, b))
			_, err = w.comments.Update(ctx, bob, c.Comment.ID, "Hello", ports.Precondition{})
			must("edit comment", err)
			expect("edit comment", fmt.Sprintf("comment.updated post=%d author=%d commenter=%d draft=false", p, a, b))

			_, err = w.posts.Update(ctx, domain.ByOwnRight(ann), p, ports.PostPatch{Status: ports.Some(domain.StatusDraft)}, ports.Precondition{})
			must("unpublish", err)
			expect("unpublish", fmt.Sprintf("post.unpublished post=%d author=%d commenter=0 draft=true", p, a))
			// The post's author deletes Bob's comment; the event names Bob.
			must("delete comment", w.comments.Delete(ctx, domain.ByOwnRight(ann), c.Comment.ID, ports.Precondition{}))
			expect("delete comment", fmt.Sprintf("comment.trashed post=%d author=%d commenter=%d draft=true", p, a, b))
			events := outbox(t, store)
			if got := events[len(events)-1].Payload.Author; got == nil || got.ID != b {
				t.Errorf("comment.trashed by the post's author: payload author %+v, want Bob", got)
			}
			_, err = w.comments.Restore(ctx, ann, c.Comment.ID)
			must("restore comment", err)
			expect("restore comment", fmt.Sprintf("comment.restored post=%d author=%d commenter=%d draft=true", p, a, b))
			must("delete post", w.posts.Delete(ctx, domain.ByOwnRight(ann), p, ports.Precondition{}))
			expect("delete post", fmt.Sprintf("post.trashed post=%d author=%d commenter=0 draft=true", p, a))
			_, err = w.posts.Restore(ctx, ann, p)
			must("restore post", err)
			expect("restore post", fmt.Sprintf("post.restored post=%d author=%d commenter=0 draft=true", p, a))
			must("purge comment", w.comments.Purge(ctx, ann, c.Comment.ID, ports.Precondition{}))
			expect("purge comment", fmt.Sprintf("comment.deleted post=%d author=%d commenter=%d draft=true", p, a, b))
			must("trash post", w.posts.Delete(ctx, domain.ByOwnRight(ann), p, ports.Precondition{}))
			must("purge post", w.posts.Purge(ctx, ann, p, ports.Precondition{}))
			expect("trash and purge post", fmt.Sprintf("post.trashed post=%d author=%d commenter=0 draft=true", p, a),
				fmt.Sprintf("post.deleted post=%d author=%d commenter=0 draft=true", p, a))

			kept, err := w.posts.Create(ctx, bob, ports.PostInput{Title: "Bob's", Body: "b", Status: domain.StatusPublished})
			must("create", err)
			expect("create published", fmt.Sprintf("post.created post=%d author=%d commenter=0 draft=false", kept.Post.ID(), b))
			must("delete account", w.profile.Delete(ctx, bob, "password1", ports.Precondition{}))
			expect("delete the account", fmt.Sprintf("post.deleted post=%d author=%d commenter=0 draft=false", kept.Post.ID(), b),
				"credentials.revoked post=0 author=0 commenter=0 draft=false")

			person, err := svc.People.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Pat", Email: "pat@example.com"})
			must("create person", err)
			_, err = svc.People.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Pat", Email: "PAT@example.com"})
			if !errors.Is(err, domain.ErrEmailTaken) {
				t.Fatalf("duplicate person: got %v", err)
			}
			_, err = svc.People.Patch(ctx, domain.ByOwnRight(domain.Actor{}), person.ID, ports.PersonPatch{Name: ports.Some("Pat B")}, ports.Precondition{})
			must("patch person", err)
			must("delete person", svc.People.Delete(ctx, domain.Actor{}, person.ID, ports.Precondition{}))
			if err := svc.People.Delete(ctx, domain.Actor{}, person.ID, ports.Precondition{}); !errors.Is(err, domain.ErrNotFound) {
				t.Fatalf("delete a missing person: got %v", err)
			}
			zero := "post=0 author=0 commenter=0 draft=false"
			expect("people", "user.created "+zero, "user.updated "+zero, "user.deleted "+zero)

			product, err := svc.Products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: "Pen", PriceCents: 100})
			must("create product", err)
			_, err = svc.Products.Replace(ctx, domain.ByOwnRight(domain.Actor{}), product.ID, ports.ProductInput{Name: "Pen 2", PriceCents: 200}, ports.Precondition{})
			must("replace product", err)
			must("delete product", svc.Products.Delete(ctx, domain.Actor{}, product.ID, ports.Precondition{}))
			expect("products", "product.created "+zero, "product.updated "+zero, "product.deleted "+zero)
			events = outbox(t, store)
			if got := events[len(events)-1].Payload.Product; got == nil || got.Name != "Pen 2" {
				t.Errorf("product.deleted payload %+v, want the product as it was", got)
			}
		})
	}
}

// TestFollowDropsWhoFallsBehind checks that a follower that takes nothing
// holds no writer up and is dropped once its backlog is full, so that it
// resumes from the outbox instead of holding events in memory.
func TestFollowDropsWhoFallsBehind(t *testing.T) {
	store := directoryStores[0].Open(t)
	clk := clock.NewFixed(t0)
	events := app.NewEvents(store, clk, app.EventsConfig{Retention: time.Hour, Poll: time.Minute, Backlog: 2})
	products := app.NewProducts(store, clk, app.DirectoryConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, err := events.Follow(ctx, ports.EventViewer{}, ports.EventFilter{}, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	const writes = 20
	start := time.Now()
	for i := range writes {
		if _, err := products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: fmt.Sprint("P", i), PriceCents: 1}); err != nil {
			t.Fatal(err)
		}
		// Each commit wakes the feed, which reads it alone.
		time.Sleep(5 * time.Millisecond)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("%d writes took %s with a follower that reads nothing", writes, took)
	}
	got := 0
	timeout := time.After(5 * time.Second)
	for {
		select {
		case batch, ok := <-out:
			if !ok {
				if got >= writes {
					t.Errorf("received all %d events, want the follower dropped before", got)
				}
				return
			}
			got += len(batch)
		case <-timeout:
			t.Fatalf("the follower is still followed after %d events with a backlog of 2", got)
		}
	}
}

// TestFollowResumes checks that a follower that starts further back than
// the feed reads the outbox first, then the feed, with no gap and no
// repeat.
func TestFollowResumes(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			store := s.Open(t)
			clk := clock.NewFixed(t0)
			events := app.NewEvents(store, clk, app.EventsConfig{Retention: time.Hour, Poll: time.Minute})
			products := app.NewProducts(store, clk, app.DirectoryConfig{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			create := func(name string) {
				if _, err := products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: name, PriceCents: 1}); err != nil {
					t.Fatal(err)
				}
			}
			create("A")
			create("B")
			out, err := events.Follow(ctx, ports.EventViewer{}, ports.EventFilter{}, 1, false)
			if err != nil {
				t.Fatal(err)
			}
			create("C")
			var names []string
			for len(names) < 2 {
				select {
				case batch := <-out:
					for _, ve := range batch {
						names = append(names, ve.Event.Payload.Product.Name)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("got %q, then nothing for 10s", names)
				}
			}
			if strings.Join(names, " ") != "B C" {
				t.Errorf("after event 1: %q, want B C", names)
			}
		})
	}
}

// TestFollowEndsWhenOperatorsRevoke checks the revocations of the command
// line: tokens revoked by name end the streams of those tokens alone, and
// revoking every token ends the rest; a token of the same name made after
// the revocation is not ended by it.
func TestFollowEndsWhenOperatorsRevoke(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			store := s.Open(t)
			stack := stacktest.NewStack(t, store, stacktest.Options{})
			svc := stack.Services
			ann, _, err := svc.Accounts.Register(ctx, ports.RegisterInput{Name: "Ann", Email: "ann@example.com", Password: "password1"})
			if err != nil {
				t.Fatal(err)
			}
			follow := func(name string) <-chan []ports.VisibleEvent {
				t.Helper()
				tok, _, err := svc.Tokens.Create(ctx, domain.Actor{User: ann}, ports.TokenInput{Name: name})
				if err != nil {
					t.Fatal(err)
				}
				out, err := svc.Events.Follow(ctx, ports.EventViewer{User: ann.ID, Token: &tok}, ports.EventFilter{}, 0, true)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			ends := func(what string, out <-chan []ports.VisibleEvent, want bool) {
				t.Helper()
				wait := 500 * time.Millisecond
				if want {
					wait = 3 * time.Second
				}
				select {
				case batch, ok := <-out:
					if ok {
						t.Errorf("%s: got %d events, want the stream ended", what, len(batch))
					} else if !want {
						t.Errorf("%s: the stream ended", what)
					}
				case <-time.After(wait):
					if want {
						t.Errorf("%s: the stream still open %s after", what, wait)
					}
				}
			}
			feed, other := follow("feed"), follow("other")
			if n, err := stack.Operator.Tokens.RevokeByName(ctx, "ann@example.com", "feed"); err != nil || n != 1 {
				t.Fatalf("RevokeByName: %d, %v", n, err)
			}
			ends("revoked by name", feed, true)
			later := follow("feed")
			ends("another name", other, false)
			ends("same name, made after", later, false)
			if n, err := stack.Operator.Tokens.RevokeAll(ctx, "ann@example.com"); err != nil || n != 3 {
				t.Fatalf("RevokeAll: %d, %v", n, err)
			}
			ends("every token revoked", other, true)
			ends("every token revoked", later, true)
		})
	}
}

// TestLoginRecordsRevocationForStreamedTokens checks that a login records
// credentials.revoked only when a token it deletes opened an event stream:
// logins over tokens that never streamed append nothing, while the stream
// of a token that a login deletes ends, and the stream of the new token
// does not.
func TestLoginRecordsRevocationForStreamedTokens(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			store := s.Open(t)
			svc := stacktest.NewStack(t, store, stacktest.Options{}).Services
			ann, _, err := svc.Accounts.Register(ctx, ports.RegisterInput{Name: "Ann", Email: "ann@example.com", Password: "password1"})
			if err != nil {
				t.Fatal(err)
			}
			login := func() domain.Token {
				t.Helper()
				_, plain, err := svc.Accounts.Login(ctx, ports.LoginInput{Email: "ann@example.com", Password: "password1", IP: "192.0.2.1"})
				if err != nil {
					t.Fatal(err)
				}
				tok, err := store.Repos().Tokens.ByID(ctx, plain.ID)
				if err != nil {
					t.Fatal(err)
				}
				return tok
			}
			revocations := func() int {
				n := 0
				for _, e := range outbox(t, store) {
					if e.Type == domain.CredentialsRevoked {
						n++
					}
				}
				return n
			}
			login()
			tok := login()
			if n := revocations(); n != 0 {
				t.Fatalf("logins over tokens that never streamed recorded %d revocations, want 0", n)
			}
			out, err := svc.Events.Follow(ctx, ports.EventViewer{User: ann.ID, Token: &tok}, ports.EventFilter{}, 0, true)
			if err != nil {
				t.Fatal(err)
			}
			next := login()
			if n := revocations(); n != 1 {
				t.Fatalf("a login over a token that streamed recorded %d revocations, want 1", n)
			}
			select {
			case batch, ok := <-out:
				if ok {
					t.Fatalf("got %d events, want the stream of the deleted token ended", len(batch))
				}
			case <-time.After(3 * time.Second):
				t.Fatal("the stream of the deleted token still open 3 s after the login")
			}
			// The new token has not streamed: the next login records
			// nothing, and a stream of a token already deleted is refused.
			login()
			if n := revocations(); n != 1 {
				t.Errorf("a login over a token that never streamed: %d revocations, want still 1", n)
			}
			if _, err := svc.Events.Follow(ctx, ports.EventViewer{User: ann.ID, Token: &next}, ports.EventFilter{}, 0, true); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("a stream of a deleted token: got %v, want unauthenticated", err)
			}
		})
	}
}
