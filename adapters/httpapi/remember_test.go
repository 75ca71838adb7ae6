package httpapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// rememberValue is the form of a remember_web cookie: the user id, the
// 60-character remember_token and the hex HMAC-SHA256 over both.
var rememberValue = regexp.MustCompile(`^[0-9]+\|[A-Za-z0-9]{60}\|[0-9a-f]{64}$`)

// rememberedLogin signs b in with remember and returns the remember_web
// cookie it was given.
func rememberedLogin(t *testing.T, b *browser, email, password string) *http.Cookie {
	t.Helper()
	b.start()
	r := b.do("POST", "/login", map[string]any{"email": email, "password": password, "remember": true})
	r.expect(t, http.StatusOK, nil)
	c := setCookies(r)["remember_web"]
	if c == nil {
		t.Fatalf("login with remember set %v, want remember_web", r.header.Values("Set-Cookie"))
	}
	return c
}

// withRemember returns a browser that holds nothing but a remember_web
// cookie of the given value, as one whose session cookies ended with the
// browser session.
func (h *harness) withRemember(value string) *browser {
	b := h.browser(spaOrigin)
	b.jar["remember_web"] = value
	return b
}

// TestRememberMe signs in with remember, lets the session end, and comes
// back with the remember cookie alone.
func TestRememberMe(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.registerAside("Ann", "ann@example.com", "password1")
		b := h.browser(spaOrigin)
		c := rememberedLogin(t, b, "ann@example.com", "password1")
		if !rememberValue.MatchString(c.Value) || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure || c.Path != "/" {
			t.Errorf("remember_web: got %+v", c)
		}
		if life := time.Until(c.Expires); life < 399*24*time.Hour || life > 401*24*time.Hour {
			t.Errorf("remember_web expires in %s, want 400 days", life)
		}
		// A login without remember sets no such cookie.
		other := h.browser(spaOrigin)
		other.start()
		if r := other.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "password1", "remember": false}); setCookies(r)["remember_web"] != nil {
			t.Errorf("a login without remember set remember_web")
		}
		// A remember that is no boolean is refused as a field.
		other.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "password1", "remember": "yes"}).
			expect(t, http.StatusUnprocessableEntity, map[string]any{"errors": map[string]any{"remember": []string{"The remember field must be true or false."}}})

		// The session idles out; the cookie opens a fresh one, with fresh
		// session cookies, on a GET.
		oldSession := b.jar["inkwell_session"]
		h.clock.Advance(sessionLifetime + time.Minute)
		r := b.do("GET", "/api/v1/user", nil)
		r.expect(t, http.StatusOK, map[string]any{"email": "ann@example.com"})
		fresh := setCookies(r)
		if fresh["inkwell_session"] == nil || fresh["XSRF-TOKEN"] == nil || fresh["inkwell_session"].Value == oldSession {
			t.Fatalf("resumed without fresh session cookies: %v", r.header.Values("Set-Cookie"))
		}
		b.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, nil)
		if r := b.do("GET", "/api/v1/user", nil); setCookies(r)["inkwell_session"] != nil {
			t.Errorf("a live session was replaced again")
		}

		// A write with the ended session's CSRF token answers 419 with the
		// fresh cookies, and goes through when retried.
		h.clock.Advance(sessionLifetime + time.Minute)
		r = b.do("POST", "/api/v1/tags", map[string]any{"name": "go"})
		r.expect(t, 419, csrfMismatch)
		if setCookies(r)["XSRF-TOKEN"] == nil {
			t.Fatalf("the 419 of a resumed session set no fresh CSRF cookie")
		}
		b.do("POST", "/api/v1/tags", map[string]any{"name": "go"}).expect(t, http.StatusCreated, nil)

		// The browser closed: only the remember cookie is left.
		back := h.withRemember(c.Value)
		back.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, map[string]any{"email": "ann@example.com"})
		// Not from a stateful domain, it is no credential.
		h.do("GET", "/api/v1/user", nil, "Cookie", "remember_web="+c.Value).expect(t, http.StatusUnauthorized, nil)
	})
}

// TestRememberCookieRefused brings remember cookies that must not sign
// anybody in: tampered, of another user, and after the logout, password
// change and reset that rotate the token.
func TestRememberCookieRefused(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.registerAside("Ann", "ann@example.com", "password1")
		bob := h.registerAside("Bob", "bob@example.com", "password1")
		ann := rememberedLogin(t, h.browser(spaOrigin), "ann@example.com", "password1").Value
		bobs := rememberedLogin(t, h.browser(spaOrigin), "bob@example.com", "password1").Value
		annID, annRest, _ := strings.Cut(ann, "|")
		bobID, bobRest, _ := strings.Cut(bobs, "|")
		flip := func(s string, i int) string {
			b := []byte(s)
			if b[i] == 'a' {
				b[i] = 'b'
			} else {
				b[i] = 'a'
			}
			return string(b)
		}
		refused := func(what, value string) {
			t.Helper()
			r := h.withRemember(value).do("GET", "/api/v1/user", nil)
			if r.status != http.StatusUnauthorized || !equalJSON(r.body, map[string]any{"success": false, "message": "Unauthenticated."}) {
				t.Errorf("%s: got %d %s, want 401", what, r.status, r.raw)
			}
			if c := setCookies(r)["remember_web"]; c == nil || c.Value != "" {
				t.Errorf("%s: the refused cookie is not expired: %v", what, r.header.Values("Set-Cookie"))
			}
			if setCookies(r)["inkwell_session"] != nil {
				t.Errorf("%s: a session was opened", what)
			}
		}
		for _, bad := range []struct{ what, value string }{
			{"signature changed", flip(ann, len(ann)-1)},
			{"token changed", flip(ann, len(annID)+1)},
			{"Ann's token and signature under Bob's id", bobID + "|" + annRest},
			{"Bob's token and signature under Ann's id", annID + "|" + bobRest},
			{"no signature", ann[:strings.LastIndexByte(ann, '|')]},
			{"garbage", "not-a-cookie"},
			{"NUL", annID + "|\x00|" + strings.Repeat("0", 64)},
			{"unicode", "é|ü|" + strings.Repeat("0", 64)},
			{"huge", ann + strings.Repeat("a", 3000)},
		} {
			refused(bad.what, bad.value)
		}
		// Each cookie signs in its own user only.
		h.withRemember(bobs).do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, map[string]any{"email": "bob@example.com"})

		// A logout with the session rotates the token: the cookie of
		// every device is dead.
		b := h.browser(spaOrigin)
		kept := rememberedLogin(t, b, "ann@example.com", "password1").Value
		if kept != ann {
			t.Errorf("a second remembered login changed the token: %q, then %q", ann, kept)
		}
		r := b.do("POST", "/logout", nil)
		r.expect(t, http.StatusNoContent, nil)
		if c := setCookies(r)["remember_web"]; c == nil || c.Value != "" {
			t.Errorf("logout left remember_web: %v", r.header.Values("Set-Cookie"))
		}
		refused("after logout", ann)

		// A password change rotates it too.
		ann = rememberedLogin(t, h.browser(spaOrigin), "ann@example.com", "password1").Value
		h.withRemember(ann).do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, nil)
		h.do("PUT", "/api/v1/user", map[string]any{"password": "password2", "password_confirmation": "password2", "current_password": "password1"}, as(h.login("ann@example.com", "password1"))...).
			expect(t, http.StatusOK, nil)
		refused("after a password change", ann)

		// And a reset.
		bobs = rememberedLogin(t, h.browser(spaOrigin), "bob@example.com", "password1").Value
		h.forgot("bob@example.com")
		sent := h.sendMail()
		if len(sent) != 1 {
			t.Fatalf("reset mails: %d, want 1", len(sent))
		}
		_, token, email := resetLinkOf(t, sent[0])
		h.reset(token, email, "password3").expect(t, http.StatusOK, nil)
		refused("after a reset", bobs)
		h.do("GET", "/api/v1/user", nil, as(bob)...).expect(t, http.StatusUnauthorized, nil)
	})
}

// TestRememberCookieSecureInProduction wants the cookie Secure in
// production, whatever APP_URL says.
func TestRememberCookieSecureInProduction(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{production: true})
	h.registerAside("Ann", "ann@example.com", "password1")
	if c := rememberedLogin(t, h.browser(spaOrigin), "ann@example.com", "password1"); !c.Secure || !c.HttpOnly {
		t.Errorf("remember_web in production: %+v, want Secure and HttpOnly", c)
	}
}
