package httpapi_test

import (
	"net/http"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// mails returns the mails the outbox holds that no earlier call returned:
// it claims every due one, as a worker would, for an hour.
func (h *harness) mails() []domain.Mail {
	h.t.Helper()
	now := h.clock.Now()
	ms, err := h.store.Repos().Mails.Claim(h.t.Context(), now, now.Add(time.Hour), 100)
	if err != nil {
		h.t.Fatalf("Mails.Claim: %v", err)
	}
	return ms
}

// verifyLink matches the verification link in a mail's text part.
var verifyLink = regexp.MustCompile(`(https?://[^/\s]+)(/api/v1/verify-email/[^\s]+)`)

// linkIn returns the base URL and the path with query of the one
// verification link in m, checking that the HTML part carries it too.
func linkIn(t *testing.T, m domain.Mail) (base, pathAndQuery string) {
	t.Helper()
	found := verifyLink.FindAllStringSubmatch(m.Text, -1)
	if len(found) != 1 {
		t.Fatalf("mail to %s holds %d verification links, want 1:\n%s", m.To, len(found), m.Text)
	}
	if !strings.Contains(m.HTML, strings.ReplaceAll(found[0][0], "&", "&amp;")) {
		t.Errorf("the HTML part lacks the link %s:\n%s", found[0][0], m.HTML)
	}
	return found[0][1], found[0][2]
}

// onlyMail checks that exactly one mail went out, to to, and returns it.
func (h *harness) onlyMail(to string) domain.Mail {
	h.t.Helper()
	ms := h.mails()
	if len(ms) != 1 || ms[0].To != to {
		got := make([]string, len(ms))
		for i, m := range ms {
			got[i] = m.To + " (" + m.Subject + ")"
		}
		h.t.Fatalf("mails: got %v, want one to %s", got, to)
	}
	return ms[0]
}

var (
	emailVerified   = map[string]any{"message": "Email verified."}
	alreadyVerified = map[string]any{"message": "Email already verified."}
	badSignature    = map[string]any{"success": false, "message": "Invalid signature."}
)

func TestVerifyEmail(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "Ann@Example.com", "password1")
		m := h.onlyMail("Ann@Example.com")
		if !strings.Contains(m.Subject, "verify your email") {
			t.Errorf("subject %q", m.Subject)
		}
		base, link := linkIn(t, m)
		me := h.do("GET", "/api/v1/user", nil, as(token)...)
		id := jsonNumber(me.body["id"])
		wantPath := "/api/v1/verify-email/" + id + "/" + domain.EmailHash("Ann@Example.com") + "?expires="
		if base != "http://example.com" || !strings.HasPrefix(link, wantPath) {
			t.Errorf("link %s%s, want http://example.com%s…", base, link, wantPath)
		}
		if me.body["email_verified_at"] != nil {
			t.Errorf("email_verified_at before the link: %v", me.body["email_verified_at"])
		}

		path, query, _ := strings.Cut(link, "?")
		sig := query[strings.Index(query, "signature=")+len("signature="):]
		expires := query[len("expires="):strings.Index(query, "&")]
		flip := func(s string) string {
			last := s[len(s)-1]
			if last == '0' {
				return s[:len(s)-1] + "1"
			}
			return s[:len(s)-1] + "0"
		}
		bob := h.register("Bob", "bob@example.com", "password1")
		h.mails()
		bobID := jsonNumber(h.do("GET", "/api/v1/user", nil, as(bob)...).body["id"])
		for _, bad := range []struct{ name, url string }{
			{"signature changed", path + "?expires=" + expires + "&signature=" + flip(sig)},
			{"signature cut", path + "?expires=" + expires + "&signature=" + sig[:40]},
			{"no signature", path + "?expires=" + expires},
			{"no query", path},
			{"expiry moved", path + "?expires=" + flip(expires) + "&signature=" + sig},
			{"parameter added", link + "&admin=1"},
			{"signature twice", link + "&signature=" + sig},
			{"another account's id and hash", "/api/v1/verify-email/" + bobID + "/" + domain.EmailHash("bob@example.com") + "?" + query},
			{"another id", "/api/v1/verify-email/" + bobID + "/" + domain.EmailHash("Ann@Example.com") + "?" + query},
			{"hash in upper case", "/api/v1/verify-email/" + id + "/" + strings.ToUpper(domain.EmailHash("Ann@Example.com")) + "?" + query},
			{"unicode id", "/api/v1/verify-email/%D9%A1/" + domain.EmailHash("Ann@Example.com") + "?" + query},
			{"huge id", "/api/v1/verify-email/" + strings.Repeat("9", 2000) + "/x?" + query},
			{"huge query", link + "&x=" + strings.Repeat("a", 2000)},
			{"signature in unicode", path + "?expires=" + expires + "&signature=%C3%A9" + sig[2:]},
		} {
			r := h.do("GET", bad.url, nil)
			if r.status != http.StatusForbidden || !equalJSON(r.body, badSignature) {
				t.Errorf("%s: got %d %s, want 403 Invalid signature.", bad.name, r.status, r.raw)
			}
		}
		// A NUL anywhere in a path is refused before routing, as on every
		// route.
		for _, nul := range []string{path + "%00?" + query, "/api/v1/verify-email/" + id + "%00/" + domain.EmailHash("Ann@Example.com") + "?" + query} {
			h.do("GET", nul, nil).expect(t, http.StatusNotFound, map[string]any{"success": false, "message": "Resource not found."})
		}
		if got := h.do("GET", "/api/v1/user", nil, as(token)...).body["email_verified_at"]; got != nil {
			t.Fatalf("email_verified_at after refused links: %v", got)
		}

		// The link works without a token, and later than it was made.
		h.clock.Advance(59 * time.Minute)
		h.do("GET", link, nil).expect(t, http.StatusOK, emailVerified)
		me = h.do("GET", "/api/v1/user", nil, as(token)...)
		if got, want := me.body["email_verified_at"], start.Add(59*time.Minute).Format("2006-01-02T15:04:05.000000Z"); got != want {
			t.Errorf("email_verified_at: got %v, want %s", got, want)
		}
		// Used again, it changes nothing and says so.
		h.clock.Advance(time.Second)
		h.do("GET", link, nil).expect(t, http.StatusOK, alreadyVerified)
		if got := h.do("GET", "/api/v1/user", nil, as(token)...).body["email_verified_at"]; got != me.body["email_verified_at"] {
			t.Errorf("email_verified_at after a second use: got %v, want %v", got, me.body["email_verified_at"])
		}
		// A verified account asks for no mail.
		h.do("POST", "/api/v1/email/verification-notification", nil, as(token)...).expect(t, http.StatusOK, alreadyVerified)
		if ms := h.mails(); len(ms) != 0 {
			t.Errorf("a verified account was mailed %d mails", len(ms))
		}
		// Past its hour, even a good link is refused.
		h.clock.Advance(time.Minute)
		r := h.do("GET", link, nil)
		if r.status != http.StatusForbidden || !equalJSON(r.body, badSignature) {
			t.Errorf("expired link: got %d %s, want 403", r.status, r.raw)
		}
	})
}

func TestVerificationNotification(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		_, first := linkIn(t, h.onlyMail("ann@example.com"))
		h.clock.Advance(2 * time.Hour)
		h.do("GET", first, nil).expect(t, http.StatusForbidden, badSignature)

		// Six mails a minute, the seventh refused, counted per account.
		var links []string
		for i := range 6 {
			r := h.do("POST", "/api/v1/email/verification-notification", nil, as(token)...)
			if r.status != http.StatusAccepted || !equalJSON(r.body, map[string]any{"message": "Verification link sent."}) {
				t.Fatalf("request %d: got %d %s, want 202", i+1, r.status, r.raw)
			}
			_, l := linkIn(t, h.onlyMail("ann@example.com"))
			links = append(links, l)
		}
		r := h.do("POST", "/api/v1/email/verification-notification", nil, as(token)...)
		r.expect(t, http.StatusTooManyRequests, map[string]any{"success": false, "message": "Too Many Attempts."})
		if r.header.Get("Retry-After") == "" {
			t.Errorf("429 without Retry-After")
		}
		if ms := h.mails(); len(ms) != 0 {
			t.Errorf("the refused request mailed %d mails", len(ms))
		}
		other := h.register("Bob", "bob@example.com", "password1")
		h.mails()
		h.do("POST", "/api/v1/email/verification-notification", nil, as(other)...).expect(t, http.StatusAccepted, nil)
		h.onlyMail("bob@example.com")

		// Any of the fresh links verifies; the next minute counts anew.
		h.do("GET", links[2], nil).expect(t, http.StatusOK, emailVerified)
		h.do("GET", links[5], nil).expect(t, http.StatusOK, alreadyVerified)
		h.clock.Advance(time.Minute)
		h.do("POST", "/api/v1/email/verification-notification", nil, as(token)...).expect(t, http.StatusOK, alreadyVerified)

		h.do("POST", "/api/v1/email/verification-notification", nil).expect(t, http.StatusUnauthorized, nil)
	})
}

// TestVerificationBehindProxies makes the link through a proxy that says
// HTTPS and another host, and opens it without any: the signature covers
// neither scheme nor host.
func TestVerificationBehindProxies(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{trustedProxies: []netip.Prefix{netip.MustParsePrefix("0.0.0.0/32")}})
			h.do("POST", "/api/v1/register", map[string]any{
				"name": "Ann", "email": "ann@example.com", "password": "password1", "password_confirmation": "password1",
			}, "X-Forwarded-Proto", "https", "X-Forwarded-Host", "api.example.org").expect(t, http.StatusCreated, nil)
			base, link := linkIn(t, h.onlyMail("ann@example.com"))
			if base != "https://api.example.org" {
				t.Errorf("link base %s, want https://api.example.org", base)
			}
			h.do("GET", link, nil, "X-Forwarded-Proto", "http", "X-Forwarded-Host", "internal:8080").expect(t, http.StatusOK, emailVerified)
		})
	}
}

func TestVerificationRedirectsToTheFrontEnd(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{frontendURL: "https://app.example.net/"})
			h.register("Ann", "ann@example.com", "password1")
			_, link := linkIn(t, h.onlyMail("ann@example.com"))
			for range 2 {
				r := h.do("GET", link, nil)
				if r.status != http.StatusFound || r.header.Get("Location") != "https://app.example.net/dashboard?verified=1" {
					t.Errorf("got %d to %q, want 302 to the front end", r.status, r.header.Get("Location"))
				}
			}
			r := h.do("GET", link+"x", nil)
			r.expect(t, http.StatusForbidden, badSignature)
		})
	}
}

// TestEmailChangeNeedsVerification changes the address: its verification
// goes, the new address gets a link, the old one a notice, and the links to
// the old address stop working.
func TestEmailChangeNeedsVerification(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		_, old := linkIn(t, h.onlyMail("ann@example.com"))
		h.do("GET", old, nil).expect(t, http.StatusOK, emailVerified)
		h.do("POST", "/api/v1/email/verification-notification", nil, as(token)...).expect(t, http.StatusOK, alreadyVerified)

		h.do("PUT", "/api/v1/user", map[string]any{"email": "ann@new.example", "current_password": "password1"}, as(token)...).
			expect(t, http.StatusOK, map[string]any{"user": map[string]any{
				"id": h.do("GET", "/api/v1/user", nil, as(token)...).body["id"], "name": "Ann", "email": "ann@new.example",
				"email_verified_at": nil, "avatar_url": nil,
				"created_at": "2026-11-20T10:00:00.000000Z", "updated_at": "2026-11-20T10:00:00.000000Z",
			}})
		ms := h.mails()
		byTo := map[string]domain.Mail{}
		for _, m := range ms {
			byTo[m.To] = m
		}
		if len(ms) != 2 || byTo["ann@new.example"].ID == 0 || byTo["ann@example.com"].ID == 0 {
			t.Fatalf("mails after the change: %v, want one to each address", ms)
		}
		notice := byTo["ann@example.com"]
		if verifyLink.MatchString(notice.Text) || !strings.Contains(notice.Text, "ann@new.example") {
			t.Errorf("the old address's notice:\n%s", notice.Text)
		}
		_, fresh := linkIn(t, byTo["ann@new.example"])

		// The link to the old address proves nothing about the new one.
		h.do("GET", old, nil).expect(t, http.StatusForbidden, badSignature)
		h.do("GET", fresh, nil).expect(t, http.StatusOK, emailVerified)

		// A name change keeps the verification and mails nobody.
		h.do("PUT", "/api/v1/user", map[string]any{"name": "Ann B"}, as(token)...).expect(t, http.StatusOK, nil)
		if got := h.do("GET", "/api/v1/user", nil, as(token)...).body["email_verified_at"]; got == nil {
			t.Errorf("a name change cleared email_verified_at")
		}
		if ms := h.mails(); len(ms) != 0 {
			t.Errorf("a name change mailed %d mails", len(ms))
		}
	})
}

// TestVerificationLinkOfAGoneAccount deletes the account before its link
// is used.
func TestVerificationLinkOfAGoneAccount(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		_, link := linkIn(t, h.onlyMail("ann@example.com"))
		h.do("DELETE", "/api/v1/user", map[string]any{"current_password": "password1"}, as(token)...).expect(t, http.StatusOK, nil)
		h.do("GET", link, nil).expect(t, http.StatusForbidden, badSignature)
	})
}

var notVerified = map[string]any{"success": false, "message": "Your email address is not verified."}

// TestRequireVerifiedEmail turns REQUIRE_VERIFIED_EMAIL on: an account
// writes nothing, by token or by session, until its address is verified,
// and again nothing once it changes its address; reading, its profile and
// asking for a link stay open.
func TestRequireVerifiedEmail(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{requireVerified: true})
			ann := h.register("Ann", "ann@example.com", "password1")
			_, link := linkIn(t, h.onlyMail("ann@example.com"))
			writes := func(post, comment, webhook, token string) []struct {
				method, path string
				body         any
			} {
				return []struct {
					method, path string
					body         any
				}{
					{"POST", "/api/v1/posts", map[string]any{"title": "T", "body": "B", "status": "draft"}},
					{"POST", "/api/v2/posts", map[string]any{"title": "T", "body": "B", "status": "draft"}},
					{"POST", "/api/v1/tags", map[string]any{"name": "go"}},
					{"POST", "/api/v1/tokens", map[string]any{"name": "ci"}},
					{"POST", "/api/v1/webhooks", map[string]any{"url": "https://hooks.example.com/", "events": []any{"post.created"}}},
					{"PUT", "/api/v1/posts/" + post, map[string]any{"title": "T2"}},
					{"PATCH", "/api/v2/posts/" + post, map[string]any{"title": "T3"}},
					{"POST", "/api/v1/posts/" + post + "/comments", map[string]any{"body": "C"}},
					{"PUT", "/api/v1/comments/" + comment, map[string]any{"body": "C2"}},
					{"DELETE", "/api/v1/comments/" + comment, nil},
					{"PUT", "/api/v1/webhooks/" + webhook, map[string]any{"url": "https://hooks.example.com/2", "events": []any{"post.created"}}},
					{"DELETE", "/api/v1/webhooks/" + webhook, nil},
					{"DELETE", "/api/v1/tokens/" + token, nil},
					{"DELETE", "/api/v1/posts/" + post, nil},
					{"DELETE", "/api/v2/posts/" + post, nil},
				}
			}
			for _, w := range writes("1", "1", "1", "1") {
				h.do(w.method, w.path, w.body, as(ann)...).expect(t, http.StatusConflict, notVerified)
			}
			h.do("GET", "/api/v1/posts", nil, as(ann)...).expect(t, http.StatusOK, nil)
			h.do("PUT", "/api/v1/user", map[string]any{"name": "Ann B"}, as(ann)...).expect(t, http.StatusOK, nil)

			// A browser session is held to the same rule.
			b := h.browser(spaOrigin)
			b.signIn("ann@example.com")
			b.do("POST", "/api/v1/tags", map[string]any{"name": "go"}).expect(t, http.StatusConflict, notVerified)

			// Verified, it writes.
			h.do("GET", link, nil).expect(t, http.StatusOK, emailVerified)
			post := h.v1NewPost(ann, "First", "draft")
			comment := jsonNumber(h.commentOn(ann, post, "Hi")["id"])
			hook := h.do("POST", "/api/v1/webhooks", map[string]any{"url": "https://hooks.example.com/", "events": []any{"post.created"}}, as(ann)...)
			hook.expect(t, http.StatusCreated, nil)
			tok := h.do("POST", "/api/v1/tokens", map[string]any{"name": "ci"}, as(ann)...)
			tok.expect(t, http.StatusCreated, nil)
			b.do("POST", "/api/v1/tags", map[string]any{"name": "go"}).expect(t, http.StatusCreated, nil)

			// A new address must be verified again before the next write.
			h.do("PUT", "/api/v1/user", map[string]any{"email": "ann@new.example", "current_password": "password1"}, as(ann)...).expect(t, http.StatusOK, nil)
			h.mails()
			hookID := jsonNumber(hook.body["data"].(map[string]any)["id"])
			tokID := jsonNumber(tok.body["data"].(map[string]any)["id"])
			for _, w := range writes(post, comment, hookID, tokID) {
				r := h.do(w.method, w.path, w.body, as(ann)...)
				if r.status != http.StatusConflict || !equalJSON(r.body, notVerified) {
					t.Errorf("%s %s after the address changed: got %d %s, want 409", w.method, w.path, r.status, r.raw)
				}
			}
			h.do("GET", "/api/v1/posts/"+post, nil, as(ann)...).expect(t, http.StatusOK, nil)
			h.do("POST", "/api/v1/email/verification-notification", nil, as(ann)...).expect(t, http.StatusAccepted, nil)
		})
	}
}

// registerAside registers an account and takes its verification mail out
// of the outbox, for tests about other mail: a claim leased for an hour,
// the link's lifetime, so no worker ever sends it.
func (h *harness) registerAside(name, email, password string) string {
	h.t.Helper()
	token := h.register(name, email, password)
	h.onlyMail(email)
	return token
}
