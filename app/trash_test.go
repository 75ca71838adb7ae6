package app_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// storedIn lists the files kept below dir of the stack's storage.
func storedIn(t *testing.T, stack stacktest.Stack, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(stack.Storage, dir))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestTrashRetention trashes a post with an image and more comments than
// one batch purges, lets the retention pass for them but not for a post
// trashed later, and checks that the worker purges exactly those, with
// their image and their events.
func TestTrashRetention(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			store := s.Open(t)
			stack := stacktest.NewStack(t, store, stacktest.Options{})
			w := newAccountWorld(t, store)
			posts, comments := stack.Services.Posts, stack.Services.Comments
			ann := w.register(t, "ann@example.com")
			bob := w.register(t, "bob@example.com")
			img := uploadOf(t, "png", 2, 2)
			old, err := posts.Create(ctx, ann, ports.PostInput{Title: "Old", Body: "b", Status: domain.StatusPublished, Image: &img})
			must(t, "create", err)
			kept, err := posts.Create(ctx, ann, ports.PostInput{Title: "Kept", Body: "b", Status: domain.StatusPublished})
			must(t, "create", err)
			later, err := posts.Create(ctx, ann, ports.PostInput{Title: "Later", Body: "b", Status: domain.StatusPublished})
			must(t, "create", err)
			const many = 105
			var ids []int64
			for range many {
				c, err := comments.Create(ctx, bob, kept.Post.ID(), "gone")
				must(t, "comment", err)
				ids = append(ids, c.Comment.ID)
			}
			for _, id := range ids {
				must(t, "trash comment", comments.Delete(ctx, domain.ByOwnRight(bob), id, ports.Precondition{}))
			}
			must(t, "trash", posts.Delete(ctx, domain.ByOwnRight(ann), old.Post.ID(), ports.Precondition{}))
			if got := storedIn(t, stack, ".trash/posts"); len(got) != 1 {
				t.Fatalf("files in the trash: %v, want the old post's image", got)
			}
			stack.Clock.Advance(20 * 24 * time.Hour)
			must(t, "trash", posts.Delete(ctx, domain.ByOwnRight(ann), later.Post.ID(), ports.Precondition{}))

			// Nothing has expired yet.
			stack.Clock.Advance(stacktest.TrashRetention - 20*24*time.Hour - time.Second)
			n, err := stack.Trash.PurgeExpired(ctx)
			must(t, "PurgeExpired", err)
			if n != 0 {
				t.Errorf("PurgeExpired before the retention: %d purged, want none", n)
			}

			seen := len(outbox(t, store))
			stack.Clock.Advance(time.Second)
			n, err = stack.Trash.PurgeExpired(ctx)
			must(t, "PurgeExpired", err)
			if n != many+1 {
				t.Errorf("PurgeExpired: %d purged, want %d", n, many+1)
			}
			var types []domain.EventType
			for _, e := range outbox(t, store)[seen:] {
				if !slices.Contains(types, e.Type) {
					types = append(types, e.Type)
				}
			}
			if !slices.Equal(types, []domain.EventType{domain.PostDeleted, domain.CommentDeleted}) {
				t.Errorf("events of the purge: %v", types)
			}
			if got := len(outbox(t, store)) - seen; got != many+1 {
				t.Errorf("the purge recorded %d events, want %d", got, many+1)
			}
			if got := storedIn(t, stack, ".trash/posts"); len(got) != 0 {
				t.Errorf("files in the trash after the purge: %v", got)
			}
			if _, err := posts.Restore(ctx, ann, old.Post.ID()); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("restore of a purged post: got %v, want not found", err)
			}
			if _, err := comments.Restore(ctx, bob, ids[0]); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("restore of a purged comment: got %v, want not found", err)
			}
			trashed, total, err := posts.Trashed(ctx, ann, ports.Page{Limit: 10})
			must(t, "Trashed", err)
			if total != 1 || len(trashed) != 1 || trashed[0].Post.ID() != later.Post.ID() {
				t.Errorf("the trash after the purge: %d posts (%v), want only the later one", total, trashed)
			}
			if _, err := posts.Restore(ctx, ann, later.Post.ID()); err != nil {
				t.Errorf("restore of a post inside the retention: %v", err)
			}
		})
	}
}

// TestAccountDeletionPurgesTrash deletes an account with a trashed post
// that has an image, and a comment of another user trashed from one of its
// posts: everything goes at once, files included.
func TestAccountDeletionPurgesTrash(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			store := s.Open(t)
			stack := stacktest.NewStack(t, store, stacktest.Options{})
			w := newAccountWorld(t, store)
			posts, comments := stack.Services.Posts, stack.Services.Comments
			ann := w.register(t, "ann@example.com")
			bob := w.register(t, "bob@example.com")
			img := uploadOf(t, "png", 2, 2)
			p, err := posts.Create(ctx, ann, ports.PostInput{Title: "Pictured", Body: "b", Status: domain.StatusPublished, Image: &img})
			must(t, "create", err)
			live, err := posts.Create(ctx, ann, ports.PostInput{Title: "Live", Body: "b", Status: domain.StatusPublished})
			must(t, "create", err)
			c, err := comments.Create(ctx, bob, live.Post.ID(), "hi")
			must(t, "comment", err)
			must(t, "trash comment", comments.Delete(ctx, domain.ByOwnRight(bob), c.Comment.ID, ports.Precondition{}))
			must(t, "trash post", posts.Delete(ctx, domain.ByOwnRight(ann), p.Post.ID(), ports.Precondition{}))
			must(t, "delete account", stack.Services.Profile.Delete(ctx, ann, "password1", ports.Precondition{}))
			if got := storedIn(t, stack, ".trash/posts"); len(got) != 0 {
				t.Errorf("files in the trash after the account went: %v", got)
			}
			r := store.Repos()
			if _, err := r.Trash.Post(ctx, p.Post.ID()); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the trashed post after the account went: %v", err)
			}
			if _, err := r.Trash.Comment(ctx, c.Comment.ID); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the comment trashed from the account's post after the account went: %v", err)
			}
		})
	}
}

func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
