package app_test

import (
	"context"
	"net/http"
	"net/http/httptest"
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
