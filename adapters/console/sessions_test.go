package console_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/inkwell/inkwell/adapters/httpapi"
)

// forEachStatefulStore is forEachStore with the bench's own origin among
// the API's stateful domains, so that the API reads session cookies from
// the console's pages' origin too: the case where only the session's kind
// keeps the two apart.
func forEachStatefulStore(t *testing.T, test func(t *testing.T, b *bench)) {
	t.Helper()
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			test(t, newBenchWith(t, s.Open(t), "", httpapi.Config{StatefulDomains: []string{"example.com"}}))
		})
	}
}

// spa calls the JSON API as a page of the bench's origin does with
// credentials: the session cookie when set, and xsrf in X-XSRF-TOKEN when
// set. It returns the status, the decoded body and the cookies the answer
// sets.
func (b *bench) spa(method, path, session, xsrf string, body any) (int, map[string]any, map[string]string) {
	b.t.Helper()
	var r io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, origin+path, r)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Origin", origin)
	if session != "" {
		req.AddCookie(&http.Cookie{Name: "inkwell_session", Value: session})
	}
	if xsrf != "" {
		req.Header.Set("X-XSRF-TOKEN", xsrf)
	}
	a := b.send(req)
	var out map[string]any
	_ = json.Unmarshal([]byte(a.body), &out)
	set := map[string]string{}
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		set[c.Name], _ = url.QueryUnescape(c.Value)
	}
	return a.status, out, set
}

// An admin's console session is no API session: its cookie value, sent as
// the API's session cookie from a stateful origin, authenticates nothing,
// with the console's CSRF token it mints no token and logs nobody in or
// out, and the API opens a session of its own instead. The console session
// itself goes on working.
func TestConsoleSessionIsNoAPISession(t *testing.T) {
	forEachStatefulStore(t, func(t *testing.T, b *bench) {
		adaID, adaToken := b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		wantPage(t, br.get("/admin/users"), http.StatusOK)
		cookie, csrf := br.cookies["inkwell_admin"], br.token
		if cookie == "" || csrf == "" {
			t.Fatalf("no console session: cookie %q, _token %q", cookie, csrf)
		}

		if status, out, _ := b.spa("GET", "/api/v1/user", cookie, "", nil); status != http.StatusUnauthorized {
			t.Errorf("GET /api/v1/user with the console's cookie: %d %v, want 401", status, out)
		}
		if status, out, _ := b.spa("POST", "/api/v1/tokens", cookie, csrf, map[string]any{"name": "from the console"}); status != http.StatusUnauthorized {
			t.Errorf("POST /api/v1/tokens with the console's cookie and _token: %d %v, want 401", status, out)
		}
		login := map[string]any{"email": "ada@example.com", "password": password}
		if status, out, _ := b.spa("POST", "/login", cookie, csrf, login); status != 419 {
			t.Errorf("POST /login with the console's cookie and _token: %d %v, want 419", status, out)
		}
		if status, out, _ := b.spa("POST", "/logout", cookie, csrf, nil); status != 419 {
			t.Errorf("POST /logout with the console's cookie and _token: %d %v, want 419", status, out)
		}
		status, _, set := b.spa("GET", "/sanctum/csrf-cookie", cookie, "", nil)
		if fresh := set["inkwell_session"]; status != http.StatusNoContent || fresh == "" || fresh == cookie || set["XSRF-TOKEN"] == csrf {
			t.Errorf("csrf-cookie with the console's cookie: %d, cookies %v; want 204 and a session of its own", status, set)
		}

		status, out := b.api("GET", "/api/v1/tokens", adaToken, nil)
		if data, _ := out["data"].([]any); status != http.StatusOK || len(data) != 1 {
			t.Errorf("Ada's tokens: %d %v, want only the registration's", status, out)
		}
		wantPage(t, br.get("/admin/users"), http.StatusOK)

		// Ada's page lists her sessions with their kinds: this console
		// session and an API session she signs in to.
		_, _, set = b.spa("GET", "/sanctum/csrf-cookie", "", "", nil)
		if status, out, _ := b.spa("POST", "/login", set["inkwell_session"], set["XSRF-TOKEN"], login); status != http.StatusOK {
			t.Fatalf("the API's session login: %d %v", status, out)
		}
		a := br.get("/admin/users/" + strconv.FormatInt(adaID, 10))
		if wantPage(t, a, http.StatusOK); a.doc == nil {
			t.FailNow()
		}
		var kinds []string
		a.doc.Find("#sessions td.kind").Each(func(_ int, s *goquery.Selection) { kinds = append(kinds, strings.TrimSpace(s.Text())) })
		slices.Sort(kinds)
		if got := strings.Join(kinds, " "); got != "api console" {
			t.Errorf("the kinds of Ada's sessions: got %q, want \"api console\"", got)
		}
	})
}

// An admin's API session is no console session: its cookie value, sent as
// the console's cookie, leads to the sign-in form, a POST with its CSRF
// token is refused with 419 and changes nothing, and the sign-in form
// opens a console session of its own. The API session goes on working.
func TestAPISessionIsNoConsoleSession(t *testing.T) {
	forEachStatefulStore(t, func(t *testing.T, b *bench) {
		_, adaToken := b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		post := "/admin/posts/" + strconv.FormatInt(b.post(adaToken, "Kept", "published"), 10)

		status, _, set := b.spa("GET", "/sanctum/csrf-cookie", "", "", nil)
		if status != http.StatusNoContent {
			t.Fatalf("csrf-cookie: %d", status)
		}
		login := map[string]any{"email": "ada@example.com", "password": password}
		status, out, set := b.spa("POST", "/login", set["inkwell_session"], set["XSRF-TOKEN"], login)
		if status != http.StatusOK {
			t.Fatalf("the API's session login: %d %v", status, out)
		}
		cookie, xsrf := set["inkwell_session"], set["XSRF-TOKEN"]
		if status, out, _ := b.spa("GET", "/api/v1/user", cookie, "", nil); status != http.StatusOK {
			t.Fatalf("GET /api/v1/user with the API's session: %d %v", status, out)
		}

		stolen := b.browser()
		stolen.cookies["inkwell_admin"] = cookie
		wantRedirect(t, stolen.get("/admin/users"), "/admin/login")
		wantRedirect(t, stolen.get("/admin"), "/admin/login")
		wantPage(t, stolen.submit(post+"/unpublish", url.Values{"_token": {xsrf}}), 419)
		wantPage(t, stolen.submit("/admin/logout", url.Values{"_token": {xsrf}}), 419)
		if status, _ := b.api("GET", "/api/v1/posts/"+post[len("/admin/posts/"):], "", nil); status != http.StatusOK {
			t.Errorf("the post after the refused unpublish: %d, want 200 (still published)", status)
		}
		wantPage(t, stolen.get("/admin/login"), http.StatusOK)
		if got := stolen.cookies["inkwell_admin"]; got == "" || got == cookie || stolen.token == xsrf {
			t.Errorf("the sign-in form kept the API's session: cookie %q, _token %q", got, stolen.token)
		}

		if status, out, _ := b.spa("GET", "/api/v1/user", cookie, "", nil); status != http.StatusOK {
			t.Errorf("GET /api/v1/user with the API's session after the console's refusals: %d %v", status, out)
		}
	})
}
