package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/httpapi/cors"
)

// A console page answers a request without a signed-in session by sending
// the browser to the sign-in form, whatever else it carries: a bearer
// token opens nothing here, even one with every ability.
func TestPagesNeedASignedInSession(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	_, token := b.register("Ada", "ada@example.com")
	b.grant("ada@example.com")
	for _, path := range []string{"/admin", "/admin/users", "/admin/users/1", "/admin/posts", "/admin/webhooks", "/admin/mails", "/admin/audit", "/admin/users.csv", "/admin/posts.csv"} {
		t.Run(path, func(t *testing.T) {
			req := httptest.NewRequest("GET", origin+path, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			wantRedirect(t, b.send(req), "/admin/login")
		})
	}
	// The API's session cookie is no console session either.
	req := httptest.NewRequest("GET", origin+"/admin/users", nil)
	req.AddCookie(&http.Cookie{Name: "inkwell_session", Value: "whatever"})
	wantRedirect(t, b.send(req), "/admin/login")
}

// The sign-in form is an HTML page under the strict CSP, with its CSRF
// token and a session cookie the API never sees.
func TestLoginForm(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	br := b.browser()
	a := br.get("/admin/login")
	wantPage(t, a, http.StatusOK)
	if br.token == "" || a.doc.Find(`form[method="post"][action="/admin/login"] input[name="email"]`).Length() != 1 {
		t.Errorf("no sign-in form with a token: %.500s", a.body)
	}
	cookie := a.header.Get("Set-Cookie")
	for _, want := range []string{"inkwell_admin=", "path=/admin", "HttpOnly", "SameSite=Strict"} {
		if !strings.Contains(cookie, want) {
			t.Errorf("Set-Cookie %q lacks %q", cookie, want)
		}
	}
	if strings.Contains(cookie, "secure") {
		t.Errorf("Set-Cookie %q is Secure outside production", cookie)
	}
	// The page's assets come from the binary.
	for _, src := range []string{"/admin/assets/vendor/htmx.min.js", "/admin/assets/vendor/pico.min.css", "/admin/assets/console.css"} {
		if a.doc.Find(`[src="`+src+`"], [href="`+src+`"]`).Length() != 1 {
			t.Errorf("the page does not load %s", src)
		}
		got := b.send(httptest.NewRequest("GET", origin+src, nil))
		if got.status != http.StatusOK || len(got.body) < 100 {
			t.Errorf("GET %s: %d, %d bytes", src, got.status, len(got.body))
		}
	}
}

// Behind an https APP_URL (production) the console's cookie is Secure.
func TestCookieSecureInProduction(t *testing.T) {
	b := newBenchAt(t, stores[0].Open(t), "https://inkwell.example")
	cookie := b.browser().get("/admin/login").header.Get("Set-Cookie")
	if !strings.Contains(cookie, "inkwell_admin=") || !strings.Contains(cookie, "secure") {
		t.Errorf("Set-Cookie %q is not Secure", cookie)
	}
}

// A POST without the session's token is 419 and one another site makes
// the browser send is 403: an HTML page each, and the sign-in does not
// happen.
func TestPostsNeedTheTokenAndTheOrigin(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	b.register("Ada", "ada@example.com")
	b.grant("ada@example.com")
	creds := url.Values{"email": {"ada@example.com"}, "password": {password}}
	for _, tc := range []struct {
		name    string
		form    url.Values
		headers []string
		status  int
	}{
		{"missing token", creds, []string{"Origin", origin}, 419},
		{"forged token", withToken(creds, "forged"), []string{"Origin", origin}, 419},
		{"cross-site by Sec-Fetch-Site", nil, []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}, http.StatusForbidden},
		{"same-site but other origin", nil, []string{"Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
		{"cross-site by Origin", nil, []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"opaque origin", nil, []string{"Origin", "null"}, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			br := b.browser()
			br.get("/admin/login")
			form := tc.form
			if form == nil {
				form = withToken(creds, br.token)
			}
			a := br.postRaw("/admin/login", form.Encode(), tc.headers...)
			wantPage(t, a, tc.status)
			if a.doc == nil {
				t.FailNow()
			}
			if got := a.doc.Find("#error").AttrOr("data-status", ""); got != strconv.Itoa(tc.status) {
				t.Errorf("error page for %s", got)
			}
			wantRedirect(t, br.get("/admin"), "/admin/login")
		})
	}
	// Without any session cookie the token cannot match either.
	a := b.browser().postRaw("/admin/login", withToken(creds, "x").Encode(), "Origin", origin)
	wantPage(t, a, 419)
}

// An unknown path, an unknown method and a header too large under /admin
// are the console's HTML pages; elsewhere they stay the API's JSON.
func TestRefusalsUnderAdminAreHTML(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	a := b.send(httptest.NewRequest("GET", origin+"/admin/nothing-here", nil))
	wantPage(t, a, http.StatusNotFound)
	a = b.send(httptest.NewRequest("GET", origin+"/ADMIN/Nothing", nil))
	wantPage(t, a, http.StatusNotFound)
	a = b.send(httptest.NewRequest("DELETE", origin+"/admin/login", nil))
	wantPage(t, a, http.StatusMethodNotAllowed)

	base := b.listen()
	for _, tc := range []struct {
		name, raw string
		status    int
	}{
		{"unknown method", "PROPFIND /admin/users HTTP/1.1\r\nHost: example.com\r\n\r\n", http.StatusNotImplemented},
		{"header too large", "GET /admin/users HTTP/1.1\r\nHost: example.com\r\nX-Padding: " + strings.Repeat("x", 8<<10) + "\r\n\r\n", http.StatusRequestHeaderFieldsTooLarge},
		{"dot segment", "GET /admin/assets/../login HTTP/1.1\r\nHost: example.com\r\n\r\n", http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := rawExchange(t, base, tc.raw)
			if resp.StatusCode != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
				resp.Header.Get("Content-Security-Policy") == "" || !strings.Contains(body, "<!doctype html>") {
				t.Errorf("got %d %q %.200s, want %d as HTML", resp.StatusCode, resp.Header.Get("Content-Type"), body, tc.status)
			}
		})
	}
	resp, body := rawExchange(t, base, "PROPFIND /api/v1/posts HTTP/1.1\r\nHost: example.com\r\n\r\n")
	if resp.StatusCode != http.StatusNotImplemented || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("the API's refusal changed: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// The API's CORS policy does not reach /admin: with every origin allowed
// for the API, none is allowed there.
func TestNoCORSUnderAdmin(t *testing.T) {
	b := newBenchWith(t, stores[0].Open(t), "", httpapi.Config{CORS: cors.Config{AllowAnyOrigin: true}})
	api := httptest.NewRequest("OPTIONS", origin+"/api/v1/posts", nil)
	api.Header.Set("Origin", "https://spa.example")
	api.Header.Set("Access-Control-Request-Method", "POST")
	if got := b.send(api).header.Get("Access-Control-Allow-Origin"); got != "https://spa.example" {
		t.Fatalf("the API's CORS allows %q, want the origin echoed", got)
	}
	req := httptest.NewRequest("OPTIONS", origin+"/admin/login", nil)
	req.Header.Set("Origin", "https://spa.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	a := b.send(req)
	if got := a.header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("Access-Control-Allow-Origin %q under /admin", got)
	}
	req = httptest.NewRequest("GET", origin+"/admin/login", nil)
	req.Header.Set("Origin", "https://spa.example")
	if got := b.send(req).header.Get("Access-Control-Allow-Credentials"); got != "" {
		t.Errorf("Access-Control-Allow-Credentials %q under /admin", got)
	}
}

func withToken(form url.Values, token string) url.Values {
	out := url.Values{}
	for k, v := range form {
		out[k] = v
	}
	out.Set("_token", token)
	return out
}
