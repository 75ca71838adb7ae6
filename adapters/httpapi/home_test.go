package httpapi_test

import (
	"bytes"
	"net/http"
	"testing"
)

// TestRootRedirectsToTheDocs opens the server's address as a browser does:
// GET and HEAD / lead to /docs, and every other method there answers the
// 404 of a path the server does not serve, as before / redirected.
func TestRootRedirectsToTheDocs(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	for _, method := range []string{"GET", "HEAD"} {
		r := h.do(method, "/", nil)
		if r.status != http.StatusFound || r.header.Get("Location") != "/docs" {
			t.Errorf("%s /: got %d, Location %q; want 302 to /docs", method, r.status, r.header.Get("Location"))
		}
	}
	for _, method := range []string{"POST", "PUT", "PATCH", "DELETE"} {
		got, unknown := h.do(method, "/", nil), h.do(method, "/nowhere", nil)
		if got.status != http.StatusNotFound || !bytes.Equal(got.raw, unknown.raw) || got.header.Get("Allow") != "" {
			t.Errorf("%s /: got %d %s, Allow %q; want the 404 %s of an unknown path, without Allow",
				method, got.status, got.raw, got.header.Get("Allow"), unknown.raw)
		}
	}
	if got := h.do("GET", "/docs", nil).status; got != http.StatusOK {
		t.Errorf("GET /docs, where / leads: got %d, want 200", got)
	}
	text := scrape(t, h)
	if got, _ := sample(text, `http_requests_total{method="GET",route="/",status="302"}`); got != "1" {
		t.Errorf(`GET / counted under route "/": got %q, want 1`, got)
	}
}

// TestUpAnswersLikeLaravel checks /up, Laravel 11's health route, beside
// /healthz: 200 without touching the store, never cached, counted under its
// own route.
func TestUpAnswersLikeLaravel(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	for _, method := range []string{"GET", "HEAD"} {
		r := h.do(method, "/up", nil)
		if r.status != http.StatusOK || r.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s /up: got %d, Cache-Control %q; want 200, no-store", method, r.status, r.header.Get("Cache-Control"))
		}
	}
	h.do("GET", "/up", nil).expect(t, http.StatusOK, map[string]any{"status": "ok"})
	h.do("GET", "/healthz", nil).expect(t, http.StatusOK, map[string]any{"status": "ok"})
	if got := h.do("POST", "/up", nil).status; got != http.StatusMethodNotAllowed {
		t.Errorf("POST /up: got %d, want 405 as on /healthz", got)
	}
	if got, _ := sample(scrape(t, h), `http_requests_total{method="GET",route="/up",status="200"}`); got != "2" {
		t.Errorf(`GET /up counted under route "/up": got %q, want 2`, got)
	}
}

// TestRootAndUpAreNoAPIRoutes runs with a rate limit used up: the root
// and /up are no API route, so they are neither counted nor refused.
func TestRootAndUpAreNoAPIRoutes(t *testing.T) {
	forEachStoreWith(t, options{rateLimit: 1}, func(t *testing.T, h *harness) {
		h.do("GET", "/users", nil).quota(t, "1", "0")
		if got := h.do("GET", "/users", nil).status; got != http.StatusTooManyRequests {
			t.Fatalf("the second API call: got %d, want 429", got)
		}
		for path, want := range map[string]int{"/": http.StatusFound, "/up": http.StatusOK, "/up/": http.StatusOK} {
			r := h.do("GET", path, nil)
			if r.status != want || r.header.Get("X-RateLimit-Limit") != "" {
				t.Errorf("GET %s: got %d with X-RateLimit-Limit %q, want %d without it", path, r.status, r.header.Get("X-RateLimit-Limit"), want)
			}
		}
	})
}
