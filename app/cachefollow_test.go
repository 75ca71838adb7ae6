package app_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/adapters/purge"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// purgeReceiver is a shared cache's purge endpoint on 127.0.0.1: it
// records the Surrogate-Key of every POST.
type purgeReceiver struct {
	mu   sync.Mutex
	tags []string
	url  string
}

func newPurgeReceiver(t *testing.T) *purgeReceiver {
	r := &purgeReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		r.mu.Lock()
		r.tags = append(r.tags, req.Header.Get("Surrogate-Key"))
		r.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	r.url = srv.URL
	return r
}

// waitFor waits until the receiver got every tag of want.
func (r *purgeReceiver) waitFor(t *testing.T, want ...string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.mu.Lock()
		got := slices.Clone(r.tags)
		r.mu.Unlock()
		missing := slices.DeleteFunc(slices.Clone(want), func(w string) bool { return slices.Contains(got, w) })
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("purges received %v, missing %v", got, missing)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCacheInvalidationPurges runs the reader of the outbox on every store
// with a purger to a real HTTP server: each change's tags arrive there, one
// POST per tag with the tag in Surrogate-Key, read from the outbox the
// change committed to.
func TestCacheInvalidationPurges(t *testing.T) {
	for _, s := range stacktest.Stores() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			store := s.Open(t)
			recv := newPurgeReceiver(t)
			purger := purge.New(purge.Config{URL: recv.url}, slog.New(slog.NewTextHandler(io.Discard, nil)))
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			go purger.Run(ctx)
			ci := app.NewCacheInvalidation(store, 50*time.Millisecond, purger)
			if err := ci.CatchUp(ctx); err != nil {
				t.Fatal(err)
			}
			products := app.NewProducts(store, clock.NewFixed(stacktest.Start), app.DirectoryConfig{})
			p, err := products.Create(ctx, domain.Actor{}, ports.ProductInput{Name: "Lamp", PriceCents: 100})
			if err != nil {
				t.Fatal(err)
			}
			if err := ci.CatchUp(ctx); err != nil {
				t.Fatal(err)
			}
			recv.waitFor(t, domain.TagProducts, domain.ProductTag(p.ID))

			// The running reader finds the next change by itself.
			go ci.Run(ctx, nil)
			people := app.NewPeople(store, clock.NewFixed(stacktest.Start), app.DirectoryConfig{})
			person, err := people.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Bo", Email: "bo@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			recv.waitFor(t, domain.TagPeople, domain.PersonTag(person.ID))
		})
	}
}
