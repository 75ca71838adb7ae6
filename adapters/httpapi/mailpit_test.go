package httpapi_test

import (
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/adapters/mail/mailpittest"
	"github.com/inkwell/inkwell/domain"
)

// forEachStoreWithMailpit runs test once per store, each with a Mailpit of
// its own and a harness whose mail worker sends there by SMTP.
func forEachStoreWithMailpit(t *testing.T, test func(t *testing.T, h *harness, srv *mailpittest.Server)) {
	t.Helper()
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			srv := mailpittest.Start(t)
			test(t, newHarness(t, s.Open(t), options{mailer: mail.NewSMTP(srv.Config())}), srv)
		})
	}
}

// sendDue runs h's mail worker once, as a replica's would.
func (h *harness) sendDue() int {
	h.t.Helper()
	n, err := h.mail.SendDue(h.t.Context())
	if err != nil {
		h.t.Fatalf("SendDue: %v", err)
	}
	return n
}

// arrived waits for the n-th message and returns them all, failing the
// test when more arrived.
func arrived(t *testing.T, srv *mailpittest.Server, n int) []mailpittest.Message {
	t.Helper()
	got := srv.WaitFor(n, 5*time.Second)
	if len(got) != n {
		t.Fatalf("%d messages arrived, want %d", len(got), n)
	}
	return got
}

func mailOf(m mailpittest.Message) domain.Mail {
	return domain.Mail{MessageID: m.MessageID, Text: m.Text, HTML: m.HTML}
}

// TestPasswordResetThroughMailpit resets a password through the link
// that a real SMTP server received.
func TestPasswordResetThroughMailpit(t *testing.T) {
	forEachStoreWithMailpit(t, func(t *testing.T, h *harness, srv *mailpittest.Server) {
		h.registerAside("Ann", "ann@example.com", "password1")
		h.forgot("ann@example.com")
		if n := h.sendDue(); n != 1 {
			t.Fatalf("the worker claimed %d mails, want 1", n)
		}
		m := arrived(t, srv, 1)[0]
		if len(m.To) != 1 || m.To[0].Address != "ann@example.com" || m.Subject != "Inkwell: reset your password" || !strings.Contains(m.HTML, "<a href=") {
			t.Fatalf("arrived %+v", m)
		}
		_, token, email := resetLinkOf(t, mailOf(m))
		h.reset(token, email, "new-password").expect(t, http.StatusOK, nil)
		h.login("ann@example.com", "new-password")
		h.reset(token, email, "newer-password").expect(t, http.StatusUnprocessableEntity, invalidResetToken)
	})
}

// TestMailWaitsForTheServer has the SMTP server down when the reset is
// asked for, then back: the request answers at once, and the mail arrives
// once the server is up, with the Message-ID it was given at enqueue.
func TestMailWaitsForTheServer(t *testing.T) {
	forEachStoreWithMailpit(t, func(t *testing.T, h *harness, srv *mailpittest.Server) {
		h.registerAside("Ann", "ann@example.com", "password1")
		srv.Down()
		began := time.Now()
		h.forgot("ann@example.com")
		if took := time.Since(began); took > 2*time.Second {
			t.Errorf("the request took %v with the mail server down", took)
		}
		h.sendDue() // refused: retried after MAIL_RETRY_AFTER
		h.clock.Advance(4 * time.Second)
		if n := h.sendDue(); n != 0 {
			t.Fatalf("claimed %d mails before the backoff ran out", n)
		}
		srv.Up()
		h.clock.Advance(time.Second)
		if n := h.sendDue(); n != 1 {
			t.Fatalf("claimed %d mails after the backoff, want 1", n)
		}
		m := arrived(t, srv, 1)[0]
		_, token, _ := resetLinkOf(t, mailOf(m))
		h.reset(token, "ann@example.com", "new-password").expect(t, http.StatusOK, nil)
	})
}

// TestMailRetriesTemporaryAnswers has the server answer 451 twice: the
// mail is retried with doubling backoff and arrives once, with one
// Message-ID; a 550 fails it for good.
func TestMailRetriesTemporaryAnswers(t *testing.T) {
	forEachStoreWithMailpit(t, func(t *testing.T, h *harness, srv *mailpittest.Server) {
		h.registerAside("Ann", "ann@example.com", "password1")
		srv.Chaos(mailpittest.Trigger{}, mailpittest.Trigger{ErrorCode: 451, Probability: 100})
		h.forgot("ann@example.com")
		h.sendDue() // first attempt: 451
		h.clock.Advance(5 * time.Second)
		h.sendDue() // second attempt: 451; the next after 10 s
		h.clock.Advance(9 * time.Second)
		if n := h.sendDue(); n != 0 {
			t.Fatalf("claimed %d mails before the doubled backoff ran out", n)
		}
		srv.Chaos(mailpittest.Trigger{}, mailpittest.Trigger{})
		h.clock.Advance(time.Second)
		h.sendDue()
		first := arrived(t, srv, 1)[0]
		h.clock.Advance(time.Hour)
		h.sendDue()
		if got := srv.Messages(); len(got) != 1 || got[0].MessageID != first.MessageID {
			t.Fatalf("arrived %d messages, want the one", len(got))
		}

		h.registerAside("Bob", "bob@example.com", "password1")
		srv.Chaos(mailpittest.Trigger{}, mailpittest.Trigger{ErrorCode: 550, Probability: 100})
		h.forgot("bob@example.com")
		if _, err := h.mail.SendDue(t.Context()); err == nil || !strings.Contains(err.Error(), "550") {
			t.Errorf("SendDue after a 550: %v, want the permanent failure reported", err)
		}
		srv.Chaos(mailpittest.Trigger{}, mailpittest.Trigger{})
		h.clock.Advance(time.Hour)
		if n := h.sendDue(); n != 0 {
			t.Errorf("claimed %d mails after a permanent failure", n)
		}
		if n := len(srv.Messages()); n != 1 {
			t.Errorf("%d messages arrived, want only Ann's", n)
		}
	})
}

// TestMailSurvivesTheReplica has the replica that committed the reset die
// before sending, and another die holding the mail's lease: a fresh
// replica on the same store sends it once the lease runs out.
func TestMailSurvivesTheReplica(t *testing.T) {
	forEachStoreWithMailpit(t, func(t *testing.T, h *harness, srv *mailpittest.Server) {
		h.registerAside("Ann", "ann@example.com", "password1")
		h.forgot("ann@example.com") // committed; this replica never sends

		// A second replica claims the mail and dies mid-send.
		now := h.clock.Now()
		claimed, err := h.store.Repos().Mails.Claim(t.Context(), now, now.Add(time.Minute), 10)
		if err != nil || len(claimed) != 1 {
			t.Fatalf("Claim: %v, %d mails", err, len(claimed))
		}

		fresh := newHarness(t, h.store, options{mailer: mail.NewSMTP(srv.Config())})
		fresh.clock.Advance(now.Sub(start))
		if n := fresh.sendDue(); n != 0 {
			t.Fatalf("claimed %d mails under another replica's lease", n)
		}
		fresh.clock.Advance(time.Minute)
		if n := fresh.sendDue(); n != 1 {
			t.Fatalf("claimed %d mails after the lease, want 1", n)
		}
		m := arrived(t, srv, 1)[0]
		if m.MessageID != strings.Trim(claimed[0].MessageID, "<>") {
			t.Errorf("Message-ID %q, want the enqueued %q", m.MessageID, claimed[0].MessageID)
		}
		_, token, _ := resetLinkOf(t, mailOf(m))
		fresh.reset(token, "ann@example.com", "new-password").expect(t, http.StatusOK, nil)
		stored, err := h.store.Repos().Mails.Get(t.Context(), claimed[0].ID)
		if err != nil || stored.Status != domain.MailSent || stored.Text != "" || stored.HTML != "" {
			t.Errorf("stored after sending: %+v, %v; want sent with its body erased", stored, err)
		}
	})
}

// TestPasswordResetPageThroughMailpit follows the reset link that a real
// SMTP server received, as a browser without a front end would: the link
// opens the service's own form (not a JSON 404), whose POST from the same
// origin sets the password, and the new password logs in.
func TestPasswordResetPageThroughMailpit(t *testing.T) {
	forEachStoreWithMailpit(t, func(t *testing.T, h *harness, srv *mailpittest.Server) {
		h.registerAside("Ann", "ann@example.com", "password1")
		h.forgot("ann@example.com")
		h.sendDue()
		m := arrived(t, srv, 1)[0]
		href := regexp.MustCompile(`href="([^"]*/password-reset/[^"]+)"`).FindStringSubmatch(m.HTML)
		if href == nil {
			t.Fatalf("no reset link in the mail's HTML:\n%s", m.HTML)
		}
		link, err := url.Parse(html.UnescapeString(href[1]))
		if err != nil {
			t.Fatal(err)
		}
		base := h.listen()
		page := browse(t, "GET", base+link.RequestURI(), nil, base)
		if page.status != http.StatusOK || !strings.HasPrefix(page.header.Get("Content-Type"), "text/html") {
			t.Fatalf("the mailed link: %d %s %.300s", page.status, page.header.Get("Content-Type"), page.raw)
		}
		token := regexp.MustCompile(`name="token" value="([^"]+)"`).FindSubmatch(page.raw)
		email := regexp.MustCompile(`name="email" value="([^"]+)"`).FindSubmatch(page.raw)
		if token == nil || email == nil || string(email[1]) != "ann@example.com" {
			t.Fatalf("the reset form lacks its token or e-mail: %s", page.raw)
		}
		form := url.Values{"token": {string(token[1])}, "email": {string(email[1])}, "password": {"new-password"}, "password_confirmation": {"new-password"}}
		done := browse(t, "POST", base+"/password-reset", form, base)
		if done.status != http.StatusOK || !strings.Contains(string(done.raw), "Your password has been reset") {
			t.Fatalf("the form's POST: %d %s", done.status, done.raw)
		}
		h.login("ann@example.com", "new-password")
	})
}

// browse sends a browser's request to url: a GET following a link, or a
// form's POST from a page of origin.
func browse(t *testing.T, method, target string, form url.Values, origin string) response {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, raw: raw}
}
