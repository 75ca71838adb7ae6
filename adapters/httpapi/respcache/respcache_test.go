package respcache_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
)

// app serves GET /items/:id through rc: a 4 KiB body tagged item:ID, and
// counts the requests that reach the route.
func app(rc *respcache.Cache, reached *int) *fiber.App {
	a := fiber.New()
	a.Get("/items/:id", rc.Handler(func(*fiber.Ctx) string { return "http://test" }), func(c *fiber.Ctx) error {
		*reached++
		respcache.Tag(c, "items", "item:"+c.Params("id"))
		c.Set("X-Total-Count", "1")
		return c.SendString(c.Params("id") + strings.Repeat("x", 4096))
	})
	return a
}

func get(t *testing.T, a *fiber.App, path string) *http.Response {
	t.Helper()
	resp, err := a.Test(httptest.NewRequest("GET", path, nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp
}

// TestByteBound fills a cache of 64 KiB with a thousand answers of 4 KiB:
// it never holds more than its bound, and keeps the most recent ones.
func TestByteBound(t *testing.T) {
	const bound = 64 << 10
	rc := respcache.New(respcache.Config{MaxBytes: bound, TTL: time.Minute})
	reached := 0
	a := app(rc, &reached)
	for i := range 1000 {
		get(t, a, fmt.Sprintf("/items/%d", i))
		rc.CleanUp()
		if w := rc.WeightedSize(); w > bound {
			t.Fatalf("after %d answers the cache weighs %d bytes, bound %d", i+1, w, bound)
		}
	}
	if n := rc.Len(); n == 0 || n > bound/4096 {
		t.Fatalf("the cache holds %d answers of 4 KiB under %d bytes", n, bound)
	}
}

// TestEvictByTag evicts one item's tag: its answer is read from the route
// again, another's still comes from the cache, and a collection's tag
// evicts both.
func TestEvictByTag(t *testing.T) {
	rc := respcache.New(respcache.Config{MaxBytes: 1 << 20, TTL: time.Minute})
	reached := 0
	a := app(rc, &reached)
	for _, p := range []string{"/items/1", "/items/2", "/items/1", "/items/2"} {
		get(t, a, p)
	}
	if reached != 2 {
		t.Fatalf("the route ran %d times for two items read twice", reached)
	}
	rc.Evict([]string{"item:1"})
	if r := get(t, a, "/items/1"); r.Header.Get("X-Cache") != "MISS" || r.Header.Get("X-Total-Count") != "1" {
		t.Fatalf("item 1 after its eviction: X-Cache %q", r.Header.Get("X-Cache"))
	}
	if r := get(t, a, "/items/2"); r.Header.Get("X-Cache") != "HIT" || r.Header.Get("X-Total-Count") != "1" {
		t.Fatalf("item 2 after item 1's eviction: X-Cache %q, X-Total-Count %q", r.Header.Get("X-Cache"), r.Header.Get("X-Total-Count"))
	}
	rc.Evict([]string{"items"})
	for _, p := range []string{"/items/1", "/items/2"} {
		if r := get(t, a, p); r.Header.Get("X-Cache") != "MISS" {
			t.Fatalf("%s after the collection's eviction: X-Cache %q", p, r.Header.Get("X-Cache"))
		}
	}
	rc.EvictAll()
	if r := get(t, a, "/items/1"); r.Header.Get("X-Cache") != "MISS" {
		t.Fatalf("after EvictAll: X-Cache %q", r.Header.Get("X-Cache"))
	}
}

// TestNoKeepAcrossEviction: an answer whose route ran while an eviction of
// one of its tags happened is served but not kept, as it may hold what
// the eviction was for.
func TestNoKeepAcrossEviction(t *testing.T) {
	rc := respcache.New(respcache.Config{MaxBytes: 1 << 20, TTL: time.Minute})
	a := fiber.New()
	a.Get("/items/:id", rc.Handler(func(*fiber.Ctx) string { return "" }), func(c *fiber.Ctx) error {
		respcache.Tag(c, "item:1")
		rc.Evict([]string{"item:1"}) // a write committed while the route read
		return c.SendString("old")
	})
	for range 2 {
		if r := get(t, a, "/items/1"); r.Header.Get("X-Cache") != "MISS" {
			t.Fatalf("X-Cache %q, want MISS each time", r.Header.Get("X-Cache"))
		}
	}
}

// TestOff: a nil cache passes every request through.
func TestOff(t *testing.T) {
	rc := respcache.New(respcache.Config{MaxBytes: 0})
	if rc != nil {
		t.Fatal("MaxBytes 0 made a cache")
	}
	reached := 0
	a := app(rc, &reached)
	for range 2 {
		if r := get(t, a, "/items/1"); r.Header.Get("X-Cache") != "" {
			t.Fatalf("X-Cache %q with the cache off", r.Header.Get("X-Cache"))
		}
	}
	if reached != 2 {
		t.Fatalf("the route ran %d times", reached)
	}
}
