package httpapi_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
)

const resetLinkSent = "If an account uses that address, a password reset link is on its way."

// resetLink finds the password reset link in a mail's text part and
// returns it with its token and e-mail.
var resetLinkPattern = regexp.MustCompile(`(\S+)/password-reset/([A-Za-z0-9_-]+)\?email=(\S+)`)

func resetLinkOf(t *testing.T, m domain.Mail) (base, token, email string) {
	t.Helper()
	match := resetLinkPattern.FindStringSubmatch(m.Text)
	if match == nil {
		t.Fatalf("no reset link in the mail's text:\n%s", m.Text)
	}
	email, err := url.QueryUnescape(match[3])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.HTML, match[2]) {
		t.Errorf("the HTML part lacks the token:\n%s", m.HTML)
	}
	return match[1], match[2], email
}

// forgot asks for a reset of email and checks the uniform answer.
func (h *harness) forgot(email string) {
	h.t.Helper()
	h.do("POST", "/api/v1/forgot-password", map[string]any{"email": email}).expect(h.t, http.StatusOK, map[string]any{"message": resetLinkSent})
}

// sendMail runs the mail worker once and returns what it sent.
func (h *harness) sendMail() []domain.Mail {
	h.t.Helper()
	before := len(h.inbox.Sent())
	if _, err := h.mail.SendDue(h.t.Context()); err != nil {
		h.t.Fatalf("SendDue: %v", err)
	}
	return h.inbox.Sent()[before:]
}

func (h *harness) reset(token, email, password string) response {
	h.t.Helper()
	return h.do("POST", "/api/v1/reset-password", map[string]any{
		"token": token, "email": email, "password": password, "password_confirmation": password,
	})
}

var invalidResetToken = map[string]any{"errors": map[string]any{"email": []string{"This password reset token is invalid."}}}

func TestPasswordReset(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		old := h.registerAside("Ann", "ann@example.com", "password1")
		b := h.browser(spaOrigin)
		b.signIn("ann@example.com")
		b.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, nil)
		h.do("GET", "/api/v1/user", nil, as(old)...).expect(t, http.StatusOK, map[string]any{"email_verified_at": nil})

		h.forgot("ANN@example.com")
		if n := len(h.inbox.Sent()); n != 0 {
			t.Fatalf("%d mails sent during the request, want none: requests never wait for mail", n)
		}
		sent := h.sendMail()
		if len(sent) != 1 || sent[0].To != "ann@example.com" || sent[0].Subject != "Inkwell: reset your password" {
			t.Fatalf("sent %+v, want one reset mail to ann@example.com", sent)
		}
		base, token, email := resetLinkOf(t, sent[0])
		if base != "http://example.com" || email != "ann@example.com" || len(token) != 43 {
			t.Errorf("link base %q, email %q, token %q (%d characters)", base, email, token, len(token))
		}

		h.reset(token, "ann@example.com", "new-password").expect(t, http.StatusOK, map[string]any{"message": "Your password has been reset."})
		h.do("GET", "/api/v1/user", nil, as(old)...).expect(t, http.StatusUnauthorized, nil)
		b.do("GET", "/api/v1/user", nil).expect(t, http.StatusUnauthorized, nil)
		h.do("POST", "/api/v1/login", map[string]any{"email": "ann@example.com", "password": "password1"}).expect(t, http.StatusUnprocessableEntity, nil)
		fresh := h.login("ann@example.com", "new-password")
		r := h.do("GET", "/api/v1/user", nil, as(fresh)...)
		r.expect(t, http.StatusOK, nil)
		if r.body["email_verified_at"] == nil {
			t.Errorf("email_verified_at is null after a reset: the mailbox was proven")
		}
		u, err := h.store.Repos().Users.ByEmail(t.Context(), "ann@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if u.RememberToken == "" {
			t.Errorf("remember_token not rotated")
		}

		// The token is used up.
		h.reset(token, "ann@example.com", "third-password").expect(t, http.StatusUnprocessableEntity, invalidResetToken)
	})
}

// TestForgotPasswordAnswersAlike checks that an unknown address gets the
// known one's answer and no mail, that a malformed one is refused, and
// that the throttle holds further mails back and keeps the link.
func TestForgotPasswordAnswersAlike(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.registerAside("Ann", "ann@example.com", "password1")
		h.forgot("nobody@example.com")
		if sent := h.sendMail(); len(sent) != 0 {
			t.Fatalf("mailed an unknown address: %+v", sent)
		}
		for _, bad := range []any{"not-an-email", "ann@example.com\x00", "", 42, nil, strings.Repeat("a", 250) + "@example.com"} {
			r := h.do("POST", "/api/v1/forgot-password", map[string]any{"email": bad})
			r.expect(t, http.StatusUnprocessableEntity, nil)
			if _, ok := r.body["errors"].(map[string]any)["email"]; !ok {
				t.Errorf("email %q: errors %v, want one on email", bad, r.body["errors"])
			}
		}
		h.do("POST", "/api/v1/forgot-password", `{"email": "ann@example.com"`).expect(t, http.StatusBadRequest, nil)
		h.do("POST", "/api/v1/forgot-password", `["ann@example.com"]`).expect(t, http.StatusBadRequest, nil)

		// Addresses beyond ASCII are addresses like any other.
		h.registerAside("Zoë", "zoë@exämple.com", "password1")
		h.forgot("zoë@exämple.com")
		h.forgot("nöbody@exämple.com")
		zoe := h.sendMail()
		if len(zoe) != 1 || zoe[0].To != "zoë@exämple.com" {
			t.Fatalf("sent %+v, want one mail to zoë@exämple.com", zoe)
		}
		_, token, email := resetLinkOf(t, zoe[0])
		if email != "zoë@exämple.com" {
			t.Errorf("the link's email is %q", email)
		}
		h.reset(token, email, "new-password").expect(t, http.StatusOK, nil)

		h.forgot("ann@example.com")
		first := h.sendMail()
		h.clock.Advance(30 * time.Second)
		h.forgot("ann@example.com")
		h.forgot("Ann@Example.com")
		if sent := h.sendMail(); len(first) != 1 || len(sent) != 0 {
			t.Fatalf("sent %d then %d mails, want 1 then none within the throttle", len(first), len(sent))
		}
		_, token, _ = resetLinkOf(t, first[0])
		h.clock.Advance(31 * time.Second)
		h.forgot("ann@example.com")
		second := h.sendMail()
		if len(second) != 1 {
			t.Fatalf("sent %d mails after the throttle, want 1", len(second))
		}
		// The new request replaced the first link.
		h.reset(token, "ann@example.com", "new-password").expect(t, http.StatusUnprocessableEntity, invalidResetToken)
		_, token, _ = resetLinkOf(t, second[0])
		h.reset(token, "ann@example.com", "new-password").expect(t, http.StatusOK, nil)
	})
}

// TestResetPasswordRefuses checks every token that must not work, and the
// input rules.
func TestResetPasswordRefuses(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.registerAside("Ann", "ann@example.com", "password1")
		h.registerAside("Bob", "bob@example.com", "password1")
		h.forgot("ann@example.com")
		h.forgot("bob@example.com")
		sent := h.sendMail()
		if len(sent) != 2 {
			t.Fatalf("sent %d mails, want 2", len(sent))
		}
		tokens := map[string]string{}
		for _, m := range sent {
			_, token, email := resetLinkOf(t, m)
			tokens[email] = token
		}
		ann, bob := tokens["ann@example.com"], tokens["bob@example.com"]
		for name, tc := range map[string]struct{ token, email string }{
			"another account's token": {bob, "ann@example.com"},
			"truncated":               {ann[:42], "ann@example.com"},
			"one character more":      {ann + "A", "ann@example.com"},
			"unknown address":         {ann, "nobody@example.com"},
			"unicode":                 {"ä" + ann[1:], "ann@example.com"},
		} {
			t.Run(name, func(t *testing.T) {
				h.reset(tc.token, tc.email, "new-password").expect(t, http.StatusUnprocessableEntity, invalidResetToken)
			})
		}
		for name, tc := range map[string]struct {
			body  map[string]any
			field string
		}{
			"NUL in the token":   {map[string]any{"token": ann + "\x00", "email": "ann@example.com", "password": "new-password", "password_confirmation": "new-password"}, "token"},
			"NUL in the e-mail":  {map[string]any{"token": ann, "email": "ann@example.com\x00", "password": "new-password", "password_confirmation": "new-password"}, "email"},
			"no token":           {map[string]any{"email": "ann@example.com", "password": "new-password", "password_confirmation": "new-password"}, "token"},
			"short password":     {map[string]any{"token": ann, "email": "ann@example.com", "password": "short", "password_confirmation": "short"}, "password"},
			"unconfirmed":        {map[string]any{"token": ann, "email": "ann@example.com", "password": "new-password", "password_confirmation": "other-password"}, "password"},
			"token not a string": {map[string]any{"token": 7, "email": "ann@example.com", "password": "new-password", "password_confirmation": "new-password"}, "token"},
		} {
			t.Run(name, func(t *testing.T) {
				r := h.do("POST", "/api/v1/reset-password", tc.body)
				r.expect(t, http.StatusUnprocessableEntity, nil)
				if _, ok := r.body["errors"].(map[string]any)[tc.field]; !ok {
					t.Errorf("errors %v, want one on %s", r.body["errors"], tc.field)
				}
			})
		}
		h.do("POST", "/api/v1/reset-password", `{"token":`).expect(t, http.StatusBadRequest, nil)

		// Neither token was spent by the refusals; both expire after an hour.
		h.reset(bob, "bob@example.com", "new-password").expect(t, http.StatusOK, nil)
		h.clock.Advance(time.Hour)
		h.reset(ann, "ann@example.com", "new-password").expect(t, http.StatusUnprocessableEntity, invalidResetToken)
		h.login("ann@example.com", "password1")
	})
}

// TestForgotPasswordBursts sends many requests at once, for one address
// and for many: one mail per address, whatever the race.
func TestForgotPasswordBursts(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		const accounts, each = 8, 4
		emails := make([]string, accounts)
		for i := range emails {
			emails[i] = string(rune('a'+i)) + "@example.com"
			h.registerAside("User", emails[i], "password1")
		}
		var wg sync.WaitGroup
		for range each {
			for _, e := range emails {
				wg.Go(func() { h.forgot(e) })
			}
		}
		wg.Wait()
		var sent []domain.Mail
		for {
			more := h.sendMail()
			if len(more) == 0 {
				break
			}
			sent = append(sent, more...)
		}
		got := map[string]int{}
		for _, m := range sent {
			got[m.To]++
		}
		for _, e := range emails {
			if got[e] != 1 {
				t.Errorf("%s got %d mails, want 1", e, got[e])
			}
		}
		if len(sent) != accounts {
			t.Errorf("%d mails sent, want %d", len(sent), accounts)
		}
	})
}
