package httpapi_test

import (
	"fmt"
	"net/http"
	"net/netip"
	"testing"
)

// loopback trusts the harness's own client once it serves over a listener;
// through app.Test, whose peer is 0.0.0.0, nothing is trusted.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}

// absoluteLinks checks the links both areas build from one request's
// headers against base: a post's links.self (area A), a users page's Link
// header and a created user's Location (area B).
func absoluteLinks(t *testing.T, h *harness, post, base string, headers ...string) {
	t.Helper()
	r := h.do("GET", "/api/v1/posts/"+post, nil, headers...)
	r.expect(t, http.StatusOK, nil)
	if got, want := r.body["data"].(map[string]any)["links"].(map[string]any)["self"], base+"/api/v1/posts/"+post; got != want {
		t.Errorf("links.self: got %v, want %s", got, want)
	}
	r = h.do("GET", "/users", nil, headers...)
	r.expect(t, http.StatusOK, nil)
	page := base + "/users?limit=100&page=1"
	if got, want := r.header.Get("Link"), fmt.Sprintf(`<%s>; rel="first", <%s>; rel="last"`, page, page); got != want {
		t.Errorf("Link: got %s, want %s", got, want)
	}
	r = h.do("POST", "/api/v2/users", map[string]any{"name": "Ann", "email": fmt.Sprintf("ann%d@example.com", len(r.body["data"].([]any)))}, headers...)
	r.expect(t, http.StatusCreated, nil)
	if got, want := r.header.Get("Location"), base+"/api/v2/users/"+jsonNumber(r.body["data"].(map[string]any)["id"]); got != want {
		t.Errorf("Location: got %s, want %s", got, want)
	}
}

func TestForwardedHeaders(t *testing.T) {
	forged := []string{"X-Forwarded-Host", "evil.example", "X-Forwarded-Proto", "javascript"}
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{trustedProxies: loopback})
			token, _ := h.v1Account("Ann")
			post := h.v1NewPost(token, "Hello", "published")

			// The connection's own scheme and Host header, whatever a peer
			// that is no trusted proxy forwards.
			for _, tc := range []struct {
				name    string
				headers []string
			}{
				{"no forwarded headers", nil},
				{"forged host and scheme", forged},
				{"a well-formed host and https", []string{"X-Forwarded-Host", "api.example.org", "X-Forwarded-Proto", "https"}},
			} {
				t.Run("untrusted peer, "+tc.name, func(t *testing.T) {
					absoluteLinks(t, h, post, "http://example.com", tc.headers...)
				})
			}

			h.serve()
			for _, tc := range []struct {
				name    string
				headers []string
				want    string
			}{
				{"no forwarded headers", nil, "http://example.com"},
				{"host and scheme", []string{"X-Forwarded-Host", "api.example.org", "X-Forwarded-Proto", "https"}, "https://api.example.org"},
				{"host with a port", []string{"X-Forwarded-Host", "api.example.org:8443"}, "http://api.example.org:8443"},
				{"IPv6 host", []string{"X-Forwarded-Host", "[2001:db8::1]:8080", "X-Forwarded-Proto", "HTTPS"}, "https://[2001:db8::1]:8080"},
				{"bad scheme ignored", forged, "http://evil.example"},
				{"scheme with a colon ignored", []string{"X-Forwarded-Proto", "https:"}, "http://example.com"},
				{"host with a path ignored", []string{"X-Forwarded-Host", "evil.example/x", "X-Forwarded-Proto", "https"}, "https://example.com"},
				{"host with user info ignored", []string{"X-Forwarded-Host", "user@evil.example"}, "http://example.com"},
				{"host with a bad port ignored", []string{"X-Forwarded-Host", "api.example.org:99999"}, "http://example.com"},
				{"the nearest proxy's values count", []string{"X-Forwarded-Host", "evil.example, api.example.org", "X-Forwarded-Proto", "http, https"}, "https://api.example.org"},
			} {
				t.Run("trusted proxy, "+tc.name, func(t *testing.T) {
					absoluteLinks(t, h, post, tc.want, tc.headers...)
				})
			}
		})
	}
}

// TestAppURLPrefixesAreaB checks that APP_URL, given with a trailing slash,
// prefixes area B's Link and Location as it does area A's links.
func TestAppURLPrefixesAreaB(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{appURL: "https://api.example.org/", trustedProxies: loopback})
	token, _ := h.v1Account("Ann")
	post := h.v1NewPost(token, "Hello", "published")
	h.serve()
	absoluteLinks(t, h, post, "https://api.example.org", "X-Forwarded-Host", "evil.example")
}

func TestLoginThrottleClientAddress(t *testing.T) {
	wrong := map[string]any{"email": "ann@example.com", "password": "wrong-password"}
	// fail sends wrong logins with X-Forwarded-For set to each of forwarded
	// in turn, and checks the answers.
	fail := func(t *testing.T, h *harness, want int, forwarded ...string) {
		t.Helper()
		for _, f := range forwarded {
			if r := h.do("POST", "/api/v1/login", wrong, "X-Forwarded-For", f); r.status != want {
				t.Errorf("wrong login forwarded for %q: got %d %s, want %d", f, r.status, r.raw, want)
			}
		}
	}
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{trustedProxies: loopback})
			h.register("Ann", "ann@example.com", "password1")

			// From a peer that is no trusted proxy, X-Forwarded-For changes
			// nothing: every attempt counts against the peer's address.
			fail(t, h, http.StatusUnprocessableEntity, "192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4", "192.0.2.5")
			fail(t, h, http.StatusTooManyRequests, "192.0.2.6")

			// Through a trusted proxy, the client's address counts: the
			// rightmost one a trusted proxy did not add.
			h.serve()
			const client = "203.0.113.7"
			fail(t, h, http.StatusUnprocessableEntity, client, client, client+", 127.0.0.1", "198.51.100.1, "+client, client)
			fail(t, h, http.StatusTooManyRequests, client, "198.51.100.9, "+client)
			fail(t, h, http.StatusUnprocessableEntity, "203.0.113.8", "")
		})
	}
}
