package app_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// TestWebhookWorkerRuns checks that the running worker, woken by the
// commit of an event, delivers it without being told to.
func TestWebhookWorkerRuns(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			var got atomic.Int32
			rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got.Add(1)
			}))
			defer rcv.Close()
			store := s.Open(t)
			stack := stacktest.NewStack(t, store, stacktest.Options{WebhooksAllowPrivate: true})
			svc := stack.Services
			w := newAccountWorld(t, store)
			ann := w.register(t, "ann@example.com")
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				stack.Webhooks.Run(ctx, func(err error) { t.Errorf("worker: %v", err) })
			}()
			defer func() { cancel(); <-done }()

			if _, err := svc.Webhooks.Create(ctx, ann, ports.WebhookInput{URL: rcv.URL, Events: []domain.EventType{domain.PostCreated}}); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Posts.Create(ctx, ann, ports.PostInput{Title: "Hello", Body: "b", Status: domain.StatusPublished}); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(10 * time.Second); got.Load() == 0; {
				if time.Now().After(deadline) {
					t.Fatal("no delivery within 10s of the commit")
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// TestWebhookCap holds a user to domain.MaxWebhooksPerUser webhooks, even
// when the creates race: each is counted while the user's row is held.
func TestWebhookCap(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			store := s.Open(t)
			svc := stacktest.NewStack(t, store, stacktest.Options{}).Services
			w := newAccountWorld(t, store)
			ann := w.register(t, "ann@example.com")
			bob := w.register(t, "bob@example.com")
			ctx := context.Background()
			in := ports.WebhookInput{URL: "https://example.com/hook", Events: []domain.EventType{domain.PostCreated}}
			const tries = domain.MaxWebhooksPerUser + 5
			errs := make(chan error, tries)
			var wg sync.WaitGroup
			for range tries {
				wg.Go(func() {
					_, err := svc.Webhooks.Create(ctx, ann, in)
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			created, refused := 0, 0
			for err := range errs {
				switch {
				case err == nil:
					created++
				case errors.Is(err, domain.ErrTooManyWebhooks):
					refused++
				default:
					t.Errorf("Create: %v", err)
				}
			}
			if created != domain.MaxWebhooksPerUser || refused != tries-domain.MaxWebhooksPerUser {
				t.Errorf("%d racing creates: %d created, %d refused; want %d and %d", tries, created, refused, domain.MaxWebhooksPerUser, tries-domain.MaxWebhooksPerUser)
			}
			hooks, err := svc.Webhooks.List(ctx, ann)
			if err != nil || len(hooks) != domain.MaxWebhooksPerUser {
				t.Fatalf("List: got %d webhooks, %v; want %d", len(hooks), err, domain.MaxWebhooksPerUser)
			}
			// The cap is per user, and a deleted webhook makes room.
			if _, err := svc.Webhooks.Create(ctx, bob, in); err != nil {
				t.Errorf("another user's create: %v", err)
			}
			if err := svc.Webhooks.Delete(ctx, ann, hooks[0].ID); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Webhooks.Create(ctx, ann, in); err != nil {
				t.Errorf("create after a delete: %v", err)
			}
			if _, err := svc.Webhooks.Create(ctx, ann, in); !errors.Is(err, domain.ErrTooManyWebhooks) {
				t.Errorf("create beyond the cap again: got %v, want domain.ErrTooManyWebhooks", err)
			}
		})
	}
}
