package httpapi_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
)

// cacheOn is a cache of anonymous reads as the service's defaults make it.
var cacheOn = options{cache: httpapi.CacheConfig{MaxBytes: 64 << 20, TTL: time.Minute}}

// forEachStoreCached runs test on every store with the cache on.
func forEachStoreCached(t *testing.T, test func(t *testing.T, h *harness)) {
	t.Helper()
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			test(t, newHarness(t, s.Open(t), cacheOn))
		})
	}
}

// xCache is the answer's X-Cache.
func (r response) xCache() string { return r.header.Get("X-Cache") }

// surrogate is the answer's Surrogate-Key as a list.
func (r response) surrogate() []string { return strings.Fields(r.header.Get("Surrogate-Key")) }

// wantCache fails t unless r is a 200 whose X-Cache is state.
func wantCache(t *testing.T, r response, state string) {
	t.Helper()
	if r.status != http.StatusOK || r.xCache() != state {
		t.Fatalf("got %d X-Cache %q, want 200 %s: %s", r.status, r.xCache(), state, r.raw)
	}
}

// TestCacheServesAnonymousReads: the second anonymous read of a page is
// served from the cache with the very bytes of the first, whatever the
// order of its query; both carry the tags of what they show, a public
// s-maxage and the Vary that keeps a shared cache from handing them to a
// request with a credential.
func TestCacheServesAnonymousReads(t *testing.T) {
	forEachStoreCached(t, func(t *testing.T, h *harness) {
		token, author := h.v1Account("Ann")
		tag := h.v1Tag(token, "go")
		post := jsonNumber(h.v1Post(token, map[string]any{"title": "Cached", "body": "B", "status": "published", "tags": []any{tag}})["id"])

		first := h.do("GET", "/api/v1/posts?page=1&per_page=10", nil)
		wantCache(t, first, "MISS")
		second := h.do("GET", "/api/v1/posts?per_page=10&page=1", nil)
		wantCache(t, second, "HIT")
		if string(first.raw) != string(second.raw) {
			t.Fatalf("the hit differs from the miss:\n%s\n%s", first.raw, second.raw)
		}
		for _, want := range []string{"posts", "post:" + post, "user:" + jsonNumber(author), "tag:" + jsonNumber(tag)} {
			if !slices.Contains(second.surrogate(), want) {
				t.Errorf("Surrogate-Key %v lacks %s", second.surrogate(), want)
			}
		}
		for _, r := range []response{first, second} {
			if got := r.header.Get("Cache-Control"); got != "public, s-maxage=60" {
				t.Errorf("Cache-Control %q", got)
			}
			vary := strings.Join(r.header.Values("Vary"), ",")
			for _, v := range []string{"Origin", "Authorization", "Cookie"} {
				if !strings.Contains(vary, v) {
					t.Errorf("Vary %q lacks %s", vary, v)
				}
			}
		}

		show := h.do("GET", "/api/v1/posts/"+post, nil)
		wantCache(t, show, "MISS")
		hit := h.do("GET", "/api/v1/posts/"+post, nil)
		wantCache(t, hit, "HIT")
		etag := show.header.Get("ETag")
		if etag == "" || hit.header.Get("ETag") != etag {
			t.Fatalf("ETag %q then %q", etag, hit.header.Get("ETag"))
		}
		if r := h.do("GET", "/api/v1/posts/"+post, nil, "If-None-Match", etag); r.status != http.StatusNotModified || r.xCache() != "HIT" || len(r.raw) != 0 {
			t.Fatalf("If-None-Match on a hit: got %d %q %s", r.status, r.xCache(), r.raw)
		}

		wantCache(t, h.do("GET", "/api/v1/tags", nil), "MISS")
		wantCache(t, h.do("GET", "/api/v1/tags", nil), "HIT")
		for _, path := range []string{"/products", "/api/v1/users", "/api/v2/users"} {
			wantCache(t, h.do("GET", path, nil), "MISS")
			wantCache(t, h.do("GET", path, nil), "HIT")
		}
		h.do("GET", "/api/v1/posts", nil, as(token)...)
		metrics := string(h.do("GET", "/metrics", nil).raw)
		for _, want := range []string{"\nhttp_cache_hits_total 7\n", "\nhttp_cache_misses_total 6\n", "\nhttp_cache_bypasses_total 1\n", "\nhttp_cache_entries "} {
			if !strings.Contains(metrics, want) {
				t.Errorf("/metrics lacks %q", strings.TrimSpace(want))
			}
		}
	})
}

// TestCacheReadsOwnWrites: a write through the replica is seen by the next
// anonymous read at once, on every cached route, as is a post that is
// unpublished or deleted, which stops being served.
func TestCacheReadsOwnWrites(t *testing.T) {
	forEachStoreCached(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		post := h.v1NewPost(token, "First", "published")
		wantCache(t, h.do("GET", "/api/v1/posts", nil), "MISS")
		wantCache(t, h.do("GET", "/api/v1/posts/"+post, nil), "MISS")
		wantCache(t, h.do("GET", "/api/v1/posts/"+post, nil), "HIT")
		h.do("PUT", "/api/v1/posts/"+post, map[string]any{"title": "Renamed"}, as(token)...).expect(t, http.StatusOK, nil)
		show := h.do("GET", "/api/v1/posts/"+post, nil)
		wantCache(t, show, "MISS")
		if got := v1Attrs(show.body["data"])["title"]; got != "Renamed" {
			t.Fatalf("title after the update: %v", got)
		}
		if got := v1Titles(t, h.do("GET", "/api/v1/posts", nil)); !slices.Equal(got, []string{"Renamed"}) {
			t.Fatalf("list after the update: %v", got)
		}

		h.do("PUT", "/api/v1/posts/"+post, map[string]any{"status": "draft"}, as(token)...).expect(t, http.StatusOK, nil)
		if r := h.do("GET", "/api/v1/posts/"+post, nil); r.status != http.StatusNotFound {
			t.Fatalf("an unpublished post: got %d %s", r.status, r.raw)
		}
		if got := v1Titles(t, h.do("GET", "/api/v1/posts", nil)); len(got) != 0 {
			t.Fatalf("list after unpublishing: %v", got)
		}
		h.do("PUT", "/api/v1/posts/"+post, map[string]any{"status": "published"}, as(token)...).expect(t, http.StatusOK, nil)
		wantCache(t, h.do("GET", "/api/v1/posts/"+post, nil), "MISS")
		wantCache(t, h.do("GET", "/api/v1/posts/"+post, nil), "HIT")
		h.do("DELETE", "/api/v1/posts/"+post, nil, as(token)...).expect(t, http.StatusOK, nil)
		if r := h.do("GET", "/api/v1/posts/"+post, nil); r.status != http.StatusNotFound {
			t.Fatalf("a deleted post: got %d %s", r.status, r.raw)
		}
		// The trash's restore, an event type the cache has no table entry
		// for, brings it back at once.
		h.do("POST", "/api/v1/posts/"+post+"/restore", nil, as(token)...).expect(t, http.StatusOK, nil)
		wantCache(t, h.do("GET", "/api/v1/posts/"+post, nil), "MISS")
		wantCache(t, h.do("GET", "/api/v1/posts/"+post, nil), "HIT")
		h.do("DELETE", "/api/v1/posts/"+post+"?force=true", nil, as(token)...).expect(t, http.StatusOK, nil)
		if r := h.do("GET", "/api/v1/posts/"+post, nil); r.status != http.StatusNotFound {
			t.Fatalf("a purged post: got %d %s", r.status, r.raw)
		}

		wantCache(t, h.do("GET", "/api/v1/tags", nil), "MISS")
		h.v1Tag(token, "fresh")
		if r := h.do("GET", "/api/v1/tags", nil); !strings.Contains(string(r.raw), "fresh") {
			t.Fatalf("tags after a new one: %s", r.raw)
		}

		wantCache(t, h.do("GET", "/products", nil), "MISS")
		wantCache(t, h.do("GET", "/products", nil), "HIT")
		h.product("Lamp")
		if r := h.do("GET", "/products", nil); r.xCache() != "MISS" || !strings.Contains(string(r.raw), "Lamp") {
			t.Fatalf("products after a new one: %q %s", r.xCache(), r.raw)
		}
	})
}

// TestCacheNeverMixesCredentials: an answer to a request with a token or a
// session cookie is never kept, a kept answer never reaches such a
// request, and neither do errors get kept.
func TestCacheNeverMixesCredentials(t *testing.T) {
	forEachStoreCached(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		h.v1NewPost(token, "Public", "published")
		draft := h.v1NewPost(token, "Secret draft", "draft")

		// A credentialed read first: it must not be kept for the
		// anonymous one that follows.
		mine := h.do("GET", "/api/v1/posts", nil, as(token)...)
		if mine.status != http.StatusOK || !strings.Contains(string(mine.raw), "Secret draft") {
			t.Fatalf("the author's list: %d %s", mine.status, mine.raw)
		}
		if mine.xCache() == "HIT" || mine.header.Get("Cache-Control") != "private, no-store" || mine.header.Get("Surrogate-Key") != "" {
			t.Fatalf("a credentialed answer: X-Cache %q, Cache-Control %q, Surrogate-Key %q",
				mine.xCache(), mine.header.Get("Cache-Control"), mine.header.Get("Surrogate-Key"))
		}
		anon := h.do("GET", "/api/v1/posts", nil)
		wantCache(t, anon, "MISS")
		if strings.Contains(string(anon.raw), "Secret draft") {
			t.Fatalf("an anonymous reader sees the draft: %s", anon.raw)
		}
		wantCache(t, h.do("GET", "/api/v1/posts", nil), "HIT")

		// With the anonymous answer kept, credentialed reads still reach
		// the route, whatever credential they carry.
		for name, headers := range map[string][]string{
			"token":           as(token),
			"bad token":       as("1|nonsense"),
			"session cookie":  {"Cookie", "inkwell_session=whatever"},
			"remember cookie": {"Cookie", "other=1; remember_web=whatever"},
		} {
			r := h.do("GET", "/api/v1/posts", nil, headers...)
			if r.xCache() == "HIT" || r.header.Get("Cache-Control") != "private, no-store" {
				t.Errorf("%s: X-Cache %q, Cache-Control %q", name, r.xCache(), r.header.Get("Cache-Control"))
			}
		}
		if r := h.do("GET", "/api/v1/posts/"+draft, nil, as(token)...); r.status != http.StatusOK || r.xCache() == "HIT" {
			t.Fatalf("the author's draft: %d %q", r.status, r.xCache())
		}
		if r := h.do("GET", "/api/v1/posts/"+draft, nil); r.status != http.StatusNotFound {
			t.Fatalf("the draft, anonymously, after its author read it: %d %s", r.status, r.raw)
		}

		// Errors are never kept nor marked public.
		for _, path := range []string{"/api/v1/posts/999999", "/api/v1/posts?per_page=abc", "/products/999999"} {
			for range 2 {
				r := h.do("GET", path, nil)
				if r.status < 400 || r.xCache() != "MISS" || strings.Contains(r.header.Get("Cache-Control"), "public") {
					t.Fatalf("%s: %d X-Cache %q Cache-Control %q", path, r.status, r.xCache(), r.header.Get("Cache-Control"))
				}
			}
		}
		// Routes that need a credential are not cached at all.
		if r := h.do("GET", "/api/v2/posts", nil, as(token)...); r.xCache() != "" {
			t.Fatalf("v2 list: X-Cache %q", r.xCache())
		}
	})
}

// TestCacheOff: HTTP_CACHE_MAX_BYTES=0 leaves every answer as it was.
func TestCacheOff(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	token, _ := h.v1Account("Ann")
	h.v1NewPost(token, "Post", "published")
	for range 2 {
		r := h.do("GET", "/api/v1/posts", nil)
		if r.xCache() != "" || r.header.Get("Surrogate-Key") != "" || r.header.Get("Cache-Control") != "" {
			t.Fatalf("with the cache off: X-Cache %q Surrogate-Key %q Cache-Control %q",
				r.xCache(), r.header.Get("Surrogate-Key"), r.header.Get("Cache-Control"))
		}
	}
}

// TestCacheFreshOnEveryReplica runs two servers, each with its own store
// over one PostgreSQL database, as two replicas do: what one writes, the
// other's anonymous readers see within a second (its reader of the outbox
// is woken by PostgreSQL's notification), a deleted post included.
func TestCacheFreshOnEveryReplica(t *testing.T) {
	url := pgtest.URL(t)
	replica := func() *harness {
		store, cleanup, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cleanup)
		return newHarness(t, store, cacheOn)
	}
	one, two := replica(), replica()
	token, _ := one.v1Account("Ann")
	post := one.v1NewPost(token, "Before", "published")
	within := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not seen on the other replica within a second", what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	title := func(r response) any {
		if r.status != http.StatusOK {
			return nil
		}
		return v1Attrs(r.body["data"])["title"]
	}
	within("the new post", func() bool { return title(two.do("GET", "/api/v1/posts/"+post, nil)) == "Before" })
	// A read may come before the replica read the creation's event, which
	// then evicts it; the next one after that is kept.
	kept := func(path string) func() bool {
		return func() bool { return two.do("GET", path, nil).xCache() == "HIT" }
	}
	within("the post kept", kept("/api/v1/posts/"+post))
	within("the list kept", kept("/api/v1/posts"))
	within("the products kept", kept("/products"))

	one.do("PUT", "/api/v1/posts/"+post, map[string]any{"title": "After"}, as(token)...).expect(t, http.StatusOK, nil)
	within("the update", func() bool { return title(two.do("GET", "/api/v1/posts/"+post, nil)) == "After" })
	within("the update in the list", func() bool {
		return slices.Equal(v1Titles(t, two.do("GET", "/api/v1/posts", nil)), []string{"After"})
	})
	one.product("Lamp")
	within("area B's new product", func() bool { return strings.Contains(string(two.do("GET", "/products", nil).raw), "Lamp") })
	one.do("DELETE", "/api/v1/posts/"+post, nil, as(token)...).expect(t, http.StatusOK, nil)
	within("the deletion", func() bool { return two.do("GET", "/api/v1/posts/"+post, nil).status == http.StatusNotFound })
}
