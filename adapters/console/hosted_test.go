package console_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/httpapi"
)

// browserAccept is what Chromium sends when it follows a link.
const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

// mailedLink sends the due mails and returns the first path and query
// below origin that pattern matches in a mail to email.
func (b *bench) mailedLink(email string, pattern *regexp.Regexp) string {
	b.t.Helper()
	if _, err := b.stack.Mail.SendDue(context.Background()); err != nil {
		b.t.Fatal(err)
	}
	for _, m := range b.stack.Inbox.Sent() {
		if !strings.EqualFold(m.To, email) {
			continue
		}
		if found := pattern.FindString(m.Text); found != "" {
			return strings.TrimPrefix(found, origin)
		}
	}
	b.t.Fatalf("no link like %s was mailed to %s", pattern, email)
	return ""
}

// resetLink asks for a reset of email's password through the API and
// returns the mailed link's path and query.
func (b *bench) resetLink(email string) string {
	b.t.Helper()
	if status, out := b.api("POST", "/api/v1/forgot-password", "", map[string]any{"email": email}); status != http.StatusOK {
		b.t.Fatalf("forgot-password: %d %v", status, out)
	}
	return b.mailedLink(email, regexp.MustCompile(`\S*/password-reset/[A-Za-z0-9_-]+\?email=\S+`))
}

// resetForm is the hosted reset form as a browser sends it.
func resetForm(token, email, pass, confirmation string) url.Values {
	return url.Values{"token": {token}, "email": {email}, "password": {pass}, "password_confirmation": {confirmation}}
}

// The reset mail's link opens a form that works without JavaScript: it
// refuses what the API refuses (confirmation, password rules, a bad or
// used token) by showing itself again with 422, refuses another site's
// POST, and resets the password, after which the new one signs in and the
// old one does not.
func TestResetPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		link := b.resetLink("ada@example.com")
		br := b.browser()
		a := br.get(link)
		wantPage(t, a, http.StatusOK)
		form := a.doc.Find("form#reset")
		if form.AttrOr("method", "") != "post" || form.AttrOr("action", "") != "/password-reset" {
			t.Fatalf("the reset form: %.600s", a.body)
		}
		token := form.Find(`input[type="hidden"][name="token"]`).AttrOr("value", "")
		if want := strings.TrimPrefix(strings.Split(link, "?")[0], "/password-reset/"); token != want {
			t.Errorf("the form's token: got %q, want %q", token, want)
		}
		if got := form.Find(`input[name="email"]`).AttrOr("value", ""); got != "ada@example.com" {
			t.Errorf("the form's e-mail: got %q", got)
		}
		for _, name := range []string{"password", "password_confirmation"} {
			if form.Find(`input[type="password"][name="`+name+`"]`).Length() != 1 {
				t.Errorf("no %s field", name)
			}
		}
		if a.doc.Find("script").Length() != 0 {
			t.Error("the reset page loads scripts; it must work without")
		}

		refusals := []struct {
			name string
			form url.Values
			want string
		}{
			{"mismatch", resetForm(token, "ada@example.com", "a new secret 1", "a new secret 2"), "confirmation differ"},
			{"short", resetForm(token, "ada@example.com", "short", "short"), "at least 8 characters"},
			{"wrong token", resetForm(token+"x", "ada@example.com", "a new secret", "a new secret"), "invalid or has expired"},
			{"other address", resetForm(token, "bob@example.com", "a new secret", "a new secret"), "invalid or has expired"},
		}
		for _, r := range refusals {
			a := br.postRaw("/password-reset", r.form.Encode(), "Origin", origin, "Sec-Fetch-Site", "same-origin")
			wantPage(t, a, http.StatusUnprocessableEntity)
			if got := a.text(".refusal"); !strings.Contains(got, r.want) {
				t.Errorf("%s: refusal %q, want it to say %q", r.name, got, r.want)
			}
			if got := a.doc.Find(`form#reset input[name="token"]`).AttrOr("value", ""); got != r.form.Get("token") {
				t.Errorf("%s: the form shown again lost its token: %q", r.name, got)
			}
		}
		cross := br.postRaw("/password-reset", resetForm(token, "ada@example.com", "a new secret", "a new secret").Encode(),
			"Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site")
		wantPage(t, cross, http.StatusForbidden)

		a = br.postRaw("/password-reset", resetForm(token, "ada@example.com", "a brand new secret", "a brand new secret").Encode(),
			"Origin", origin, "Sec-Fetch-Site", "same-origin")
		wantPage(t, a, http.StatusOK)
		if got := a.text("#message"); !strings.Contains(got, "Your password has been reset") {
			t.Errorf("after the reset: %q", got)
		}
		if status, out := b.api("POST", "/api/v1/login", "", map[string]any{"email": "ada@example.com", "password": "a brand new secret"}); status != http.StatusOK {
			t.Errorf("login with the new password: %d %v", status, out)
		}
		if status, _ := b.api("POST", "/api/v1/login", "", map[string]any{"email": "ada@example.com", "password": password}); status != http.StatusUnprocessableEntity {
			t.Errorf("login with the old password: %d, want 422", status)
		}
		again := br.postRaw("/password-reset", resetForm(token, "ada@example.com", "yet another secret", "yet another secret").Encode(),
			"Origin", origin, "Sec-Fetch-Site", "same-origin")
		wantPage(t, again, http.StatusUnprocessableEntity)
	})
}

// verificationPath returns the path and query of the verification link
// mailed to email.
func (b *bench) verificationPath(email string) string {
	b.t.Helper()
	return b.mailedLink(email, regexp.MustCompile(`\S*/api/v1/verify-email/\d+/[0-9a-f]+\?expires=\d+&signature=[0-9a-f]+`))
}

// getWith sends GET path with Accept accept.
func (b *bench) getWith(path, accept string) answer {
	b.t.Helper()
	req := httptest.NewRequest("GET", origin+path, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	return b.send(req)
}

// A verification link opened in a browser answers a page saying the
// address is verified, or why not; JSON clients, and clients that accept
// anything, keep the API's answers.
func TestVerificationPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.register("Bob", "bob@example.com")
		ada, bob := b.verificationPath("ada@example.com"), b.verificationPath("bob@example.com")

		a := b.getWith(ada, browserAccept)
		wantPage(t, a, http.StatusOK)
		if got := a.text("#message"); !strings.Contains(got, "now verified") {
			t.Errorf("first visit: %q", got)
		}
		a = b.getWith(ada, browserAccept)
		wantPage(t, a, http.StatusOK)
		if got := a.text("#message"); !strings.Contains(got, "verified already") {
			t.Errorf("second visit: %q", got)
		}
		tampered := ada[:len(ada)-1] + map[bool]string{true: "0", false: "1"}[!strings.HasSuffix(ada, "0")]
		a = b.getWith(tampered, browserAccept)
		wantPage(t, a, http.StatusForbidden)
		if got := a.text("#message"); !strings.Contains(got, "invalid or has expired") {
			t.Errorf("tampered link: %q", got)
		}

		for _, accept := range []string{"application/json", "", "*/*"} {
			a = b.getWith(tampered, accept)
			var body map[string]any
			if a.status != http.StatusForbidden || json.Unmarshal([]byte(a.body), &body) != nil || body["message"] != "Invalid signature." {
				t.Errorf("tampered link, Accept %q: %d %s", accept, a.status, a.body)
			}
		}
		a = b.getWith(bob, "application/json")
		if a.status != http.StatusOK || strings.TrimSpace(a.body) != `{"message":"Email verified."}` {
			t.Errorf("JSON client: %d %s", a.status, a.body)
		}
		a = b.getWith(bob, "")
		if a.status != http.StatusOK || strings.TrimSpace(a.body) != `{"message":"Email already verified."}` {
			t.Errorf("client without Accept: %d %s", a.status, a.body)
		}
	})
}

// With FRONTEND_URL the API still sends a browser's verification link to
// the front end: the hosted page stays out of the way. The reset form is
// still served.
func TestVerificationPageYieldsToFrontend(t *testing.T) {
	b := newBenchWith(t, stores[0].Open(t), "", httpapi.Config{FrontendURL: "http://front.example"})
	b.register("Ada", "ada@example.com")
	a := b.getWith(b.verificationPath("ada@example.com"), browserAccept)
	if a.status != http.StatusFound || !strings.HasPrefix(a.header.Get("Location"), "http://front.example/") {
		t.Errorf("browser with FRONTEND_URL: %d to %q", a.status, a.header.Get("Location"))
	}
	wantPage(t, b.getWith("/password-reset/sometoken?email=ada%40example.com", browserAccept), http.StatusOK)
}
