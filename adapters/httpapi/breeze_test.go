package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/httpapi/cors"
	"github.com/inkwell/inkwell/adapters/httpapi/openapi/openapitest"
)

// notStateful is the body of a session sign-in refused for its origin.
var notStateful = map[string]any{
	"success": false,
	"message": "Session login refused: the request's Origin (or Referer) is not in STATEFUL_DOMAINS, so the session could not authenticate. " +
		"Add the front end's host to STATEFUL_DOMAINS, or use a bearer token from POST /api/v1/login.",
}

// TestSessionLoginOutsideStatefulDomains checks that a session sign-in
// whose session could not authenticate anything afterwards is refused with
// a message naming STATEFUL_DOMAINS, rather than answered 200.
func TestSessionLoginOutsideStatefulDomains(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.v1Account("Ann")
		login := map[string]any{"email": "ann@example.com", "password": "password1"}
		register := map[string]any{"name": "Bob", "email": "bob@example.com", "password": "password1", "password_confirmation": "password1"}
		for _, tc := range []struct {
			name    string
			headers []string
			want    int
		}{
			{"foreign origin", []string{"Origin", foreignOrigin}, http.StatusForbidden},
			{"listed host on an unlisted port", []string{"Origin", "http://localhost:4000"}, http.StatusForbidden},
			{"foreign referer", []string{"Origin", "", "Referer", foreignOrigin + "/login"}, http.StatusForbidden},
			{"no origin, no referer", []string{"Origin", ""}, http.StatusForbidden},
			{"listed origin", nil, http.StatusOK},
			{"listed referer", []string{"Origin", "", "Referer", spaOrigin + "/login"}, http.StatusOK},
		} {
			t.Run(tc.name, func(t *testing.T) {
				b := h.browser(spaOrigin)
				b.start()
				r := b.do("POST", "/login", login, tc.headers...)
				if tc.want == http.StatusForbidden {
					r.expect(t, tc.want, notStateful)
					if _, set := setCookies(r)["inkwell_session"]; set {
						t.Error("a refused login set a session cookie")
					}
					b.do("POST", "/register", register, tc.headers...).expect(t, tc.want, notStateful)
					return
				}
				r.expect(t, tc.want, nil)
				b.do("GET", "/api/v1/user", nil, tc.headers...).expect(t, http.StatusOK, map[string]any{"email": "ann@example.com"})
			})
		}
		// Nobody was registered by the refused requests.
		h.do("POST", "/api/v1/login", map[string]any{"email": "bob@example.com", "password": "password1"}).expect(t, http.StatusUnprocessableEntity, nil)
	})
}

// TestStatefulDomainsDefault checks STATEFUL_DOMAINS's default: Sanctum's
// list plus the host and port of APP_URL and of FRONTEND_URL, replaced
// wholly by a list of one's own.
func TestStatefulDomainsDefault(t *testing.T) {
	const (
		app      = "https://api.example.org:8443"
		frontend = "https://app.example.net"
	)
	for _, tc := range []struct {
		name     string
		stateful []string
		origin   string
		want     int
	}{
		{"Sanctum's list", nil, "http://127.0.0.1:8000", http.StatusOK},
		{"APP_URL's host and port", nil, app, http.StatusOK},
		{"APP_URL's host on another port", nil, "https://api.example.org", http.StatusForbidden},
		{"FRONTEND_URL's host", nil, frontend, http.StatusOK},
		{"another host", nil, "https://other.example.net", http.StatusForbidden},
		{"a list of one's own replaces the default", []string{"other.example.net"}, frontend, http.StatusForbidden},
		{"a list of one's own", []string{"other.example.net"}, "https://other.example.net", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, stores[0].Open(t), options{appURL: app, frontendURL: frontend, stateful: tc.stateful})
			h.v1Account("Ann")
			b := h.browser(tc.origin)
			b.start()
			r := b.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "password1"})
			r.expect(t, tc.want, nil)
			if tc.want == http.StatusOK {
				b.do("GET", "/api/user", nil).expect(t, http.StatusOK, map[string]any{"email": "ann@example.com"})
			}
		})
	}
}

// TestOwnOriginIsStatefulWithoutAppURL checks that, with APP_URL unset, a
// page the service serves itself (the host the request was sent to, which
// Sanctum's list lacks; example.com for the harness's requests) signs in,
// and that with APP_URL set it is APP_URL's host that counts.
func TestOwnOriginIsStatefulWithoutAppURL(t *testing.T) {
	const own = "http://example.com"
	login := map[string]any{"email": "ann@example.com", "password": "password1"}
	h := newHarness(t, stores[0].Open(t), options{})
	h.v1Account("Ann")
	b := h.browser(own)
	b.start()
	b.do("POST", "/login", login).expect(t, http.StatusOK, nil)
	b.do("GET", "/api/user", nil).expect(t, http.StatusOK, map[string]any{"email": "ann@example.com"})

	other := h.browser("http://example.org")
	other.start()
	other.do("POST", "/login", login).expect(t, http.StatusForbidden, notStateful)
	b.do("GET", "/api/user", nil, "Origin", "http://example.org").expect(t, http.StatusUnauthorized, nil)

	withApp := newHarness(t, stores[0].Open(t), options{appURL: "https://api.example.org"})
	withApp.v1Account("Ann")
	b = withApp.browser(own)
	b.start()
	b.do("POST", "/login", login).expect(t, http.StatusForbidden, notStateful)
}

// TestCORSDefaultsAndAdditions checks the cross-origin policy through the
// whole stack: the default headers, the configured ones added to them, and
// FRONTEND_URL's origin allowed with credentials without being listed.
func TestCORSDefaultsAndAdditions(t *testing.T) {
	const frontend = "http://localhost:5173"
	h := newHarness(t, stores[0].Open(t), options{
		frontendURL: frontend + "/",
		cors: cors.Config{
			AllowedOrigins: []string{"https://listed.example"},
			AllowedHeaders: []string{"X-Tenant"},
			ExposedHeaders: []string{"X-Cache"},
		},
	})
	wantAllowed := "Content-Type,Authorization,Idempotency-Key,If-Match,If-None-Match,X-XSRF-TOKEN,X-Requested-With,Accept-Language,X-Tenant"
	wantExposed := "ETag,Location,Link,X-Total-Count,Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,Idempotent-Replayed,X-Request-ID,X-Cache"
	for _, origin := range []string{frontend, "https://listed.example"} {
		r := h.do("OPTIONS", "/login", nil, "Origin", origin, "Access-Control-Request-Method", "POST",
			"Access-Control-Request-Headers", "content-type,x-requested-with,x-xsrf-token")
		if r.status != http.StatusOK || r.header.Get("Access-Control-Allow-Origin") != origin ||
			r.header.Get("Access-Control-Allow-Credentials") != "true" {
			t.Errorf("preflight from %s: got %d %v", origin, r.status, r.header)
		}
		if got := r.header.Get("Access-Control-Allow-Headers"); got != wantAllowed {
			t.Errorf("Access-Control-Allow-Headers: got %q, want %q", got, wantAllowed)
		}
		r = h.do("GET", "/api/v1/posts", nil, "Origin", origin)
		if got := r.header.Get("Access-Control-Expose-Headers"); got != wantExposed {
			t.Errorf("Access-Control-Expose-Headers: got %q, want %q", got, wantExposed)
		}
	}
	r := h.do("OPTIONS", "/login", nil, "Origin", foreignOrigin, "Access-Control-Request-Method", "POST")
	if got := r.header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("a foreign origin is allowed: %q", got)
	}
}

// breezeClient calls the API as a Breeze front end's axios does: from the
// front end's origin, with credentials (a cookie jar), X-Requested-With on
// every call and the XSRF-TOKEN cookie echoed in X-XSRF-TOKEN.
type breezeClient struct {
	t      *testing.T
	api    string
	origin string
	http   *http.Client
}

func (b *breezeClient) do(method, path string, body any) response {
	b.t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			b.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, b.api+path, r)
	if err != nil {
		b.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/plain, */*")
	req.Header.Set("Origin", b.origin)
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	apiURL, _ := url.Parse(b.api)
	for _, c := range b.http.Jar.Cookies(apiURL) {
		if c.Name == "XSRF-TOKEN" {
			token, _ := url.QueryUnescape(c.Value)
			req.Header.Set("X-XSRF-TOKEN", token)
		}
	}
	resp, err := b.http.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	openapitest.Check(b.t, req, resp, raw)
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != b.origin {
		b.t.Errorf("%s %s: Access-Control-Allow-Origin %q, want the front end's %q", method, path, got, b.origin)
	}
	out := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			b.t.Fatalf("%s %s: body is not JSON: %s", method, path, raw)
		}
	}
	return out
}

// TestBreezeFlow drives a Breeze front end's whole flow over HTTP with a
// cookie jar, as its pages call the API: register, verify from the mailed
// link, log out, log in, forget the password, reset it from the mailed
// link and log in with the new one. FRONTEND_URL alone makes the front
// end's origin allowed and stateful; no other setting is given.
func TestBreezeFlow(t *testing.T) {
	const frontend = "http://localhost:5173"
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{frontendURL: frontend})
			jar, err := cookiejar.New(nil)
			if err != nil {
				t.Fatal(err)
			}
			b := &breezeClient{t: t, api: h.listen(), origin: frontend,
				http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}

			// Register: csrf-cookie, then POST /register signs in.
			b.do("GET", "/sanctum/csrf-cookie", nil).expect(t, http.StatusNoContent, nil)
			r := b.do("POST", "/register", map[string]any{
				"name": "Ann", "email": "ann@example.com", "password": "password1", "password_confirmation": "password1",
			})
			r.expect(t, http.StatusNoContent, nil)
			if len(r.raw) != 0 {
				t.Errorf("register answered a body: %s", r.raw)
			}
			r = b.do("GET", "/api/user", nil)
			r.expect(t, http.StatusOK, map[string]any{"name": "Ann", "email": "ann@example.com", "email_verified_at": nil})
			if _, has := r.body["data"]; has {
				t.Errorf("/api/user is wrapped: %s", r.raw)
			}
			b.do("POST", "/register", map[string]any{
				"name": "Ann", "email": "ann@example.com", "password": "password1", "password_confirmation": "password1",
			}).expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"email": {"The email has already been taken."}}))

			// The verify-email page's resend, then the mailed link.
			r = b.do("POST", "/email/verification-notification", nil)
			r.expect(t, http.StatusOK, nil)
			if string(r.raw) != `{"status":"verification-link-sent"}` {
				t.Errorf("resend: got %s", r.raw)
			}
			mails := h.mails()
			if len(mails) != 2 {
				t.Fatalf("got %d mails, want the registration's and the resend's", len(mails))
			}
			_, link := linkIn(t, mails[1])
			verify := func(path string) {
				t.Helper()
				resp, err := b.http.Get(b.api + path)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != frontend+"/dashboard?verified=1" {
					t.Errorf("GET %s: got %d to %q, want 302 to Breeze's dashboard", path, resp.StatusCode, resp.Header.Get("Location"))
				}
			}
			verify(link)
			verify(strings.TrimPrefix(link, "/api/v1"))
			if r := h.do("GET", strings.TrimPrefix(link, "/api/v1")+"0", nil); r.status != http.StatusForbidden {
				t.Errorf("a tampered Breeze link: got %d, want 403", r.status)
			}
			if r := b.do("GET", "/api/user", nil); r.body["email_verified_at"] == nil {
				t.Errorf("not verified after the link: %s", r.raw)
			}
			b.do("POST", "/email/verification-notification", nil).expect(t, http.StatusOK, map[string]any{"message": "Email already verified."})

			// Log out, then in: bad credentials are 422 on email.
			b.do("POST", "/logout", nil).expect(t, http.StatusNoContent, nil)
			b.do("GET", "/api/user", nil).expect(t, http.StatusUnauthorized, nil)
			b.do("GET", "/sanctum/csrf-cookie", nil).expect(t, http.StatusNoContent, nil)
			b.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "wrong-password", "remember": false}).
				expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"email": {"The provided credentials are incorrect."}}))
			b.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "password1", "remember": false}).expect(t, http.StatusOK, nil)
			b.do("GET", "/api/user", nil).expect(t, http.StatusOK, map[string]any{"email": "ann@example.com"})
			b.do("POST", "/logout", nil).expect(t, http.StatusNoContent, nil)

			// Forgot: one answer for every address; the mail links to the
			// front end's page.
			b.do("GET", "/sanctum/csrf-cookie", nil).expect(t, http.StatusNoContent, nil)
			sent := map[string]any{"status": resetLinkSent, "message": resetLinkSent}
			b.do("POST", "/forgot-password", map[string]any{"email": "nobody@example.com"}).expect(t, http.StatusOK, sent)
			b.do("POST", "/forgot-password", map[string]any{"email": "ann@example.com"}).expect(t, http.StatusOK, sent)
			b.do("POST", "/forgot-password", map[string]any{"email": "not an address"}).
				expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"email": {"The email field must be a valid email address."}}))
			mails = h.mails()
			if len(mails) != 1 || mails[0].To != "ann@example.com" {
				t.Fatalf("got %d mails, want Ann's reset link", len(mails))
			}
			base, token, email := resetLinkOf(t, mails[0])
			if base != frontend || email != "ann@example.com" {
				t.Errorf("reset link: base %q, email %q; want %q and Ann's", base, email, frontend)
			}

			// Reset, as Breeze's page posts it, then log in with the new
			// password.
			reset := func(token string) response {
				return b.do("POST", "/reset-password", map[string]any{
					"token": token, "email": email, "password": "new-password", "password_confirmation": "new-password",
				})
			}
			reset(token+"x").expect(t, http.StatusUnprocessableEntity, invalidResetToken)
			r = reset(token)
			r.expect(t, http.StatusOK, map[string]any{"status": "Your password has been reset.", "message": "Your password has been reset."})
			b.do("GET", "/sanctum/csrf-cookie", nil).expect(t, http.StatusNoContent, nil)
			b.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "password1"}).expect(t, http.StatusUnprocessableEntity, nil)
			b.do("POST", "/login", map[string]any{"email": "ann@example.com", "password": "new-password"}).expect(t, http.StatusOK, nil)
			b.do("GET", "/api/user", nil).expect(t, http.StatusOK, map[string]any{"email": "ann@example.com"})
		})
	}
}

// TestBreezeRoutesNeedTheCSRFToken checks that Breeze's state-changing
// routes, as Laravel's web routes, need the session's CSRF token.
func TestBreezeRoutesNeedTheCSRFToken(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	for path, body := range map[string]any{
		"/register":        map[string]any{"name": "Ann", "email": "ann@example.com", "password": "password1", "password_confirmation": "password1"},
		"/forgot-password": map[string]any{"email": "ann@example.com"},
		"/reset-password":  map[string]any{"token": "x", "email": "ann@example.com", "password": "password1", "password_confirmation": "password1"},
	} {
		h.browser(spaOrigin).do("POST", path, body).expect(t, 419, csrfMismatch)
		b := h.browser(spaOrigin)
		b.start()
		b.do("POST", path, body, "X-XSRF-TOKEN", "wrong").expect(t, 419, csrfMismatch)
	}
	if ms := h.mails(); len(ms) != 0 {
		t.Errorf("refused requests sent %d mails", len(ms))
	}
}
