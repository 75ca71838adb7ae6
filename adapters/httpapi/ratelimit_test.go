package httpapi_test

import (
	"net/http"
	"testing"
	"time"
)

// forEachStoreWith is forEachStore with options.
func forEachStoreWith(t *testing.T, o options, test func(t *testing.T, h *harness)) {
	t.Helper()
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			test(t, newHarness(t, s.Open(t), o))
		})
	}
}

// quota checks a response's rate-limit headers.
func (r response) quota(t *testing.T, limit, remaining string) {
	t.Helper()
	if got := r.header.Get("X-RateLimit-Limit"); got != limit {
		t.Errorf("X-RateLimit-Limit: got %q, want %q", got, limit)
	}
	if got := r.header.Get("X-RateLimit-Remaining"); got != remaining {
		t.Errorf("X-RateLimit-Remaining: got %q, want %q", got, remaining)
	}
}

func TestRateLimitCountsPerClientAddressInBothAreas(t *testing.T) {
	forEachStoreWith(t, options{rateLimit: 3}, func(t *testing.T, h *harness) {
		h.do("GET", "/api/v1/posts", nil).quota(t, "3", "2")
		h.do("GET", "/users", nil).quota(t, "3", "1")
		h.do("GET", "/api/v1/tags", nil).quota(t, "3", "0")

		a := h.do("GET", "/api/v1/posts", nil)
		a.expect(t, http.StatusTooManyRequests, map[string]any{"success": false, "message": "Too Many Attempts."})
		a.quota(t, "3", "0")
		if got := a.header.Get("Retry-After"); got != "60" {
			t.Errorf("Retry-After: got %q, want 60", got)
		}
		b := h.do("GET", "/products", nil)
		b.expect(t, http.StatusTooManyRequests, map[string]any{"success": false, "message": "Too Many Requests", "data": nil})
		if got := b.header.Get("Retry-After"); got != "60" {
			t.Errorf("area B Retry-After: got %q, want 60", got)
		}

		// The probes and the documentation are no API: never counted nor refused.
		for _, path := range []string{"/healthz", "/readyz", "/openapi.json", "/healthz/"} {
			r := h.do("GET", path, nil)
			if r.status != http.StatusOK || r.header.Get("X-RateLimit-Limit") != "" {
				t.Errorf("%s: got %d with X-RateLimit-Limit %q, want 200 without it", path, r.status, r.header.Get("X-RateLimit-Limit"))
			}
		}

		// The window is fixed: a minute after its first request it starts over.
		h.clock.Advance(30 * time.Second)
		if got := h.do("GET", "/users", nil).header.Get("Retry-After"); got != "30" {
			t.Errorf("Retry-After half-way: got %q, want 30", got)
		}
		h.clock.Advance(30 * time.Second)
		h.do("GET", "/users", nil).quota(t, "3", "2")
	})
}

func TestRateLimitCountsPerToken(t *testing.T) {
	forEachStoreWith(t, options{rateLimit: 4}, func(t *testing.T, h *harness) {
		// Registration is the address's first request.
		ann := h.register("Ann", "ann@example.com", "secret-password")
		h.do("GET", "/api/v1/user", nil, as(ann)...).quota(t, "4", "3")
		h.do("GET", "/api/v1/user", nil, as(ann)...).quota(t, "4", "2")

		// Another token of the same user is another caller.
		second := h.do("POST", "/api/v1/tokens", map[string]any{"name": "cli"}, as(ann)...)
		second.expect(t, http.StatusCreated, nil)
		second.quota(t, "4", "1")
		cli := second.body["token"].(string)
		h.do("GET", "/api/v1/user", nil, as(cli)...).quota(t, "4", "3")

		// An invalid token is counted against the address, as anonymous
		// requests are, and still answered 401.
		bad := h.do("GET", "/api/v1/user", nil, as("1|not-a-token")...)
		bad.expect(t, http.StatusUnauthorized, nil)
		bad.quota(t, "4", "2")
		h.do("GET", "/api/v1/posts", nil).quota(t, "4", "1")

		h.do("GET", "/api/v1/tokens", nil, as(ann)...).quota(t, "4", "0")
		h.do("GET", "/api/v1/tokens", nil, as(ann)...).expect(t, http.StatusTooManyRequests, map[string]any{"message": "Too Many Attempts."})
		h.do("GET", "/api/v1/tokens", nil, as(cli)...).quota(t, "4", "2")
	})
}

func TestRateLimitOffSetsNoHeaders(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	for i := 0; i < 3; i++ {
		r := h.do("GET", "/api/v1/posts", nil)
		if r.status != http.StatusOK || r.header.Get("X-RateLimit-Limit") != "" || r.header.Get("X-RateLimit-Remaining") != "" {
			t.Fatalf("got %d with X-RateLimit-Limit %q, want 200 without rate-limit headers", r.status, r.header.Get("X-RateLimit-Limit"))
		}
	}
}
