package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServeCachesAndPurges runs serve with its default cache and a purge
// URL on 127.0.0.1: an anonymous read is kept (X-Cache: HIT the second
// time), and a new product evicts it at once and is purged, one POST per
// tag with the tag in Surrogate-Key.
func TestServeCachesAndPurges(t *testing.T) {
	var mu sync.Mutex
	var purged []string
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			mu.Lock()
			purged = append(purged, r.Header.Get("Surrogate-Key"))
			mu.Unlock()
		}
	}))
	defer receiver.Close()
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(t.TempDir(), "inkwell.db"))
	t.Setenv("HTTP_CACHE_PURGE_URL", receiver.URL)
	base, stop := serveFor(t)
	defer stop()

	get := func() *http.Response {
		t.Helper()
		resp, err := http.Get(base + "/products")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if got := get().Header.Get("X-Cache"); got != "MISS" {
		t.Fatalf("first read: X-Cache %q", got)
	}
	// The replica's reader of the outbox made its first read, which
	// evicts everything, before serving: the copy stays.
	if got := get().Header.Get("X-Cache"); got != "HIT" {
		t.Fatalf("second read: X-Cache %q", got)
	}
	resp, err := http.Post(base+"/products", "application/json", strings.NewReader(`{"name":"Lamp","price":1}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	if got := get().Header.Get("X-Cache"); got != "MISS" {
		t.Fatalf("read after the write: X-Cache %q", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		ok := slices.Contains(purged, "products") && slices.Contains(purged, "product:1")
		got := slices.Clone(purged)
		mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("purges received: %v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
