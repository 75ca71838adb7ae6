package httpapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Origins a browser may send: one listed in the harness's STATEFUL_DOMAINS
// and one that is not.
const (
	spaOrigin     = "http://localhost:3000"
	foreignOrigin = "http://evil.example"
)

// sessionValue is the shape of the session cookie and the CSRF token.
var sessionValue = regexp.MustCompile(`^[A-Za-z0-9]{40}$`)

// browser sends requests as a page on origin does with credentials
// included: it keeps the cookies the API sets and, like axios, echoes
// XSRF-TOKEN in X-XSRF-TOKEN on state-changing requests. Headers given to
// do override its own.
type browser struct {
	h      *harness
	origin string
	jar    map[string]string
}

func (h *harness) browser(origin string) *browser {
	return &browser{h: h, origin: origin, jar: map[string]string{}}
}

func (b *browser) do(method, path string, body any, headers ...string) response {
	b.h.t.Helper()
	var own []string
	if b.origin != "" {
		own = append(own, "Origin", b.origin)
	}
	if cookies := b.cookieHeader(); cookies != "" {
		own = append(own, "Cookie", cookies)
	}
	if method != "GET" && method != "HEAD" && b.jar["XSRF-TOKEN"] != "" {
		own = append(own, "X-XSRF-TOKEN", b.jar["XSRF-TOKEN"])
	}
	r := b.h.do(method, path, body, append(own, headers...)...)
	for _, c := range setCookies(r) {
		if c.Value == "" || (!c.Expires.IsZero() && c.Expires.Before(time.Now())) {
			delete(b.jar, c.Name)
		} else {
			b.jar[c.Name] = c.Value
		}
	}
	return r
}

func (b *browser) cookieHeader() string {
	var parts []string
	for name, value := range b.jar {
		parts = append(parts, name+"="+value)
	}
	return strings.Join(parts, "; ")
}

// start fetches the CSRF cookie, as a page does before its first write.
func (b *browser) start() {
	b.h.t.Helper()
	if r := b.do("GET", "/sanctum/csrf-cookie", nil); r.status != http.StatusNoContent {
		b.h.t.Fatalf("csrf-cookie: got %d %s, want 204", r.status, r.raw)
	}
}

// signIn starts a session and logs email in with "password1".
func (b *browser) signIn(email string) {
	b.h.t.Helper()
	b.signInWith(email, "password1")
}

// signInWith starts a session and logs email in with password.
func (b *browser) signInWith(email, password string) {
	b.h.t.Helper()
	b.start()
	r := b.do("POST", "/login", map[string]any{"email": email, "password": password})
	if r.status != http.StatusOK {
		b.h.t.Fatalf("session login %s: got %d %s, want 200", email, r.status, r.raw)
	}
}

// setCookies parses the Set-Cookie headers of a response.
func setCookies(r response) map[string]*http.Cookie {
	out := map[string]*http.Cookie{}
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		out[c.Name] = c
	}
	return out
}

// csrfMismatch is the body of a 419.
var csrfMismatch = map[string]any{"success": false, "message": "CSRF token mismatch."}

func TestSessionCookies(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		b := h.browser(spaOrigin)
		r := b.do("GET", "/sanctum/csrf-cookie", nil)
		r.expect(t, http.StatusNoContent, nil)
		if len(r.raw) != 0 {
			t.Errorf("csrf-cookie has a body: %q", r.raw)
		}
		cookies := setCookies(r)
		session, xsrf := cookies["inkwell_session"], cookies["XSRF-TOKEN"]
		if session == nil || xsrf == nil {
			t.Fatalf("csrf-cookie set %v, want inkwell_session and XSRF-TOKEN", r.header.Values("Set-Cookie"))
		}
		for _, c := range []*http.Cookie{session, xsrf} {
			if !sessionValue.MatchString(c.Value) || c.Path != "/" || c.SameSite != http.SameSiteLaxMode || c.Secure || !c.Expires.IsZero() || c.MaxAge != 0 {
				t.Errorf("cookie %s: got %+v", c.Name, c)
			}
		}
		if !session.HttpOnly || xsrf.HttpOnly {
			t.Errorf("HttpOnly: session %v, XSRF-TOKEN %v; want only the session's", session.HttpOnly, xsrf.HttpOnly)
		}
		if session.Value == xsrf.Value {
			t.Error("the session id and the CSRF token are the same")
		}

		// A live session goes on; an unknown one is replaced.
		again := setCookies(b.do("GET", "/sanctum/csrf-cookie", nil))
		if again["inkwell_session"].Value != session.Value || again["XSRF-TOKEN"].Value != xsrf.Value {
			t.Errorf("csrf-cookie with a live session: got %v", b.jar)
		}
		b.jar["inkwell_session"] = "A123456789b123456789C123456789d123456789"
		fresh := setCookies(b.do("GET", "/sanctum/csrf-cookie", nil))
		if v := fresh["inkwell_session"].Value; v == session.Value || v == "A123456789b123456789C123456789d123456789" {
			t.Errorf("csrf-cookie with an unknown session: got %q", v)
		}
	})
}

func TestSessionSecureCookies(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{appURL: "https://inkwell.example"})
	r := h.do("GET", "/sanctum/csrf-cookie", nil)
	for name, c := range setCookies(r) {
		if !c.Secure {
			t.Errorf("cookie %s is not Secure under an https APP_URL", name)
		}
	}
}

func TestSessionLoginFlow(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		_, annID := h.v1Account("Ann")
		b := h.browser(spaOrigin)
		b.start()
		before, beforeCSRF := b.jar["inkwell_session"], b.jar["XSRF-TOKEN"]

		r := b.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "nope-nope"})
		r.expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"email": {"The provided credentials are incorrect."}}))
		r = b.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "password1"})
		r.expect(t, http.StatusOK, map[string]any{"message": "Logged in successfully."})
		if _, has := r.body["token"]; has {
			t.Errorf("a session login answers a token: %s", r.raw)
		}
		if u := r.body["user"].(map[string]any); u["id"] != annID || u["email"] != "ann@example.com" {
			t.Errorf("user: got %v", u)
		}

		// Session fixation: login hands out a new id and a new CSRF token,
		// and the id known before no longer authenticates.
		after := b.jar["inkwell_session"]
		if after == before || !sessionValue.MatchString(after) || b.jar["XSRF-TOKEN"] == beforeCSRF {
			t.Errorf("login kept the session id or the CSRF token: %q → %q", before, after)
		}
		stale := h.browser(spaOrigin)
		stale.jar["inkwell_session"] = before
		stale.do("GET", "/api/v1/user", nil).expect(t, http.StatusUnauthorized, map[string]any{"message": "Unauthenticated."})

		// The session acts with every ability, on every auth route.
		b.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, map[string]any{"id": annID})
		r = b.do("POST", "/api/v1/posts", map[string]any{"title": "By cookie", "body": "B", "status": "draft"})
		r.expect(t, http.StatusCreated, nil)
		id := jsonNumber(r.body["data"].(map[string]any)["id"])
		b.do("GET", "/api/v1/posts/"+id, nil).expect(t, http.StatusOK, nil)
		h.do("GET", "/api/v1/posts/"+id, nil).expect(t, http.StatusNotFound, nil)
		b.do("GET", "/api/v2/posts", nil).expect(t, http.StatusOK, nil)
		b.do("PUT", "/api/v2/posts/"+id, map[string]any{"status": "published"}).expect(t, http.StatusOK, nil)

		// Logging out ends the session and expires both cookies.
		r = b.do("POST", "/logout", nil)
		r.expect(t, http.StatusNoContent, nil)
		for name, c := range setCookies(r) {
			if c.Value != "" || c.Expires.After(time.Now()) {
				t.Errorf("cookie %s after logout: %+v", name, c)
			}
		}
		gone := h.browser(spaOrigin)
		gone.jar["inkwell_session"] = after
		gone.do("GET", "/api/v1/user", nil).expect(t, http.StatusUnauthorized, nil)
	})
}

func TestSessionCSRF(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.v1Account("Ann")
		login := map[string]any{"email": "ann@example.com", "password": "password1"}

		// No session at all.
		h.browser(spaOrigin).do("POST", "/login", login).expect(t, 419, csrfMismatch)
		b := h.browser(spaOrigin)
		b.start()
		for _, header := range []string{"", "wrong", strings.ToLower(b.jar["XSRF-TOKEN"])} {
			b.do("POST", "/login", login, "X-XSRF-TOKEN", header).expect(t, 419, csrfMismatch)
		}
		b.do("POST", "/login", login).expect(t, http.StatusOK, nil)

		// Signed in: reads need no token, writes do, wherever they go.
		b.do("GET", "/api/v1/user", nil, "X-XSRF-TOKEN", "").expect(t, http.StatusOK, nil)
		post := map[string]any{"title": "T", "body": "B", "status": "draft"}
		for _, header := range []string{"", "wrong"} {
			b.do("POST", "/api/v1/posts", post, "X-XSRF-TOKEN", header).expect(t, 419, csrfMismatch)
			b.do("PUT", "/api/v1/user", map[string]any{"name": "X"}, "X-XSRF-TOKEN", header).expect(t, 419, csrfMismatch)
			b.do("POST", "/api/v1/logout", nil, "X-XSRF-TOKEN", header).expect(t, 419, csrfMismatch)
			b.do("POST", "/logout", nil, "X-XSRF-TOKEN", header).expect(t, 419, csrfMismatch)
		}
		b.do("POST", "/api/v1/posts", post).expect(t, http.StatusCreated, nil)
		b.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, map[string]any{"name": "Ann"})
	})
}

func TestSessionOrigins(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		_, annID := h.v1Account("Ann")
		bobToken, bobID := h.v1Account("Bob")
		b := h.browser(spaOrigin)
		b.signIn("ann@example.com")
		cookies := b.cookieHeader()

		for _, tc := range []struct {
			name    string
			headers []string
			want    int
		}{
			{"listed origin", []string{"Origin", spaOrigin}, http.StatusOK},
			{"listed host without port", []string{"Origin", "http://localhost"}, http.StatusOK},
			{"listed IPv6 host", []string{"Origin", "http://[::1]"}, http.StatusOK},
			{"listed host on another scheme", []string{"Origin", "https://127.0.0.1:8000"}, http.StatusOK},
			{"referer of a listed host", []string{"Referer", "http://localhost:3000/app/page?x=1"}, http.StatusOK},
			{"listed host on an unlisted port", []string{"Origin", "http://localhost:4000"}, http.StatusUnauthorized},
			{"foreign origin", []string{"Origin", foreignOrigin}, http.StatusUnauthorized},
			{"foreign origin, listed referer", []string{"Origin", foreignOrigin, "Referer", spaOrigin + "/"}, http.StatusUnauthorized},
			{"a host that ends like a listed one", []string{"Origin", "http://evil-localhost:3000"}, http.StatusUnauthorized},
			{"opaque origin", []string{"Origin", "null"}, http.StatusUnauthorized},
			{"no origin, no referer", nil, http.StatusUnauthorized},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := h.do("GET", "/api/v1/user", nil, append([]string{"Cookie", cookies}, tc.headers...)...)
				r.expect(t, tc.want, nil)
				if tc.want == http.StatusOK && r.body["id"] != annID {
					t.Errorf("user: got %v, want %v", r.body["id"], annID)
				}
			})
		}

		// A foreign page's cookie is ignored and its bearer token counts,
		// and so does a bearer token beside a session without a user.
		r := h.do("GET", "/api/v1/user", nil, as(bobToken, "Cookie", cookies, "Origin", foreignOrigin)...)
		r.expect(t, http.StatusOK, map[string]any{"id": bobID})
		anonymous := h.browser(spaOrigin)
		anonymous.start()
		anonymous.do("GET", "/api/v1/user", nil).expect(t, http.StatusUnauthorized, nil)
		anonymous.do("GET", "/api/v1/user", nil, as(bobToken)...).expect(t, http.StatusOK, map[string]any{"id": bobID})
		// Writes from a foreign page with the cookie are refused as
		// unauthenticated, not as a CSRF mismatch: the cookie is not read.
		h.do("POST", "/api/v1/posts", map[string]any{"title": "T", "body": "B", "status": "draft"},
			"Cookie", cookies, "Origin", foreignOrigin, "X-XSRF-TOKEN", b.jar["XSRF-TOKEN"]).expect(t, http.StatusUnauthorized, nil)
		// Public routes see the session's user, and their drafts.
		id := jsonNumber(h.v1Post(bobToken, map[string]any{"title": "Bob's draft", "body": "B", "status": "draft"})["id"])
		h.do("GET", "/api/v1/posts/"+id, nil, "Cookie", cookies, "Origin", spaOrigin).expect(t, http.StatusNotFound, nil)
		bob := h.browser(spaOrigin)
		bob.signIn("bob@example.com")
		bob.do("GET", "/api/v1/posts/"+id, nil).expect(t, http.StatusOK, nil)
	})
}

func TestSessionExpiry(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.v1Account("Ann")
		b := h.browser(spaOrigin)
		b.signIn("ann@example.com")
		// Activity keeps the session alive past its lifetime.
		for range 3 {
			h.clock.Advance(sessionLifetime - time.Minute)
			b.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, nil)
		}
		h.clock.Advance(sessionLifetime)
		b.do("GET", "/api/v1/user", nil).expect(t, http.StatusUnauthorized, map[string]any{"message": "Unauthenticated."})
		// An expired session can't sign in either; a new one can.
		b.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "password1"}).expect(t, 419, csrfMismatch)
		old := b.jar["inkwell_session"]
		b.signIn("ann@example.com")
		if b.jar["inkwell_session"] == old {
			t.Error("csrf-cookie reused an expired session")
		}
		b.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, nil)
	})
}

func TestSessionAPILogout(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		b := h.browser(spaOrigin)
		b.signIn("ann@example.com")
		cookie := b.jar["inkwell_session"]
		r := b.do("POST", "/api/v1/logout", nil)
		r.expect(t, http.StatusOK, map[string]any{"message": "Logged out successfully."})
		if c := setCookies(r)["inkwell_session"]; c == nil || c.Value != "" {
			t.Errorf("session cookie after logout: %v", c)
		}
		replay := h.browser(spaOrigin)
		replay.jar["inkwell_session"] = cookie
		replay.do("GET", "/api/v1/user", nil).expect(t, http.StatusUnauthorized, nil)
		// The session's logout leaves the user's tokens alone.
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, http.StatusOK, nil)
	})
}

// TestCSRFMismatchStatusLine checks that a 419 says what it is on the
// wire, "419 Page Expired" as Laravel's, not fasthttp's "Unknown Status
// Code".
func TestCSRFMismatchStatusLine(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		base := h.listen()
		b := h.browser(spaOrigin)
		b.start()
		body := `{"email":"ann@example.com","password":"password1"}`
		resp, got := rawExchange(t, base, "POST /login HTTP/1.1\r\nHost: example.com\r\nOrigin: "+spaOrigin+"\r\n"+
			"Cookie: "+b.cookieHeader()+"\r\nX-XSRF-TOKEN: stale\r\nAccept: application/json\r\n"+
			"Content-Type: application/json\r\nContent-Length: "+jsonNumber(len(body))+"\r\n\r\n"+body)
		if resp.Proto+" "+resp.Status != "HTTP/1.1 419 Page Expired" {
			t.Errorf("status line %q, want HTTP/1.1 419 Page Expired", resp.Proto+" "+resp.Status)
		}
		expectJSON(t, resp, got, 419, `{"success":false,"message":"CSRF token mismatch."}`)
	})
}
