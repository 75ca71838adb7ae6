package mail_test

import (
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/adapters/mail/mailpittest"
	"github.com/inkwell/inkwell/domain"
)

func sample(id, to string) domain.Mail {
	now := time.Now()
	return domain.NewMail(id, to, "Réinitialiser: reset", "Text part, ünïcode.\n", "<p>HTML part</p>", now, now.Add(time.Hour))
}

// TestSMTPSends checks what arrives: the Message-ID given at enqueue, the
// sender, the receiver, the subject, a text and an HTML part.
func TestSMTPSends(t *testing.T) {
	srv := mailpittest.Start(t)
	m := sample("<abc123@inkwell.test>", "ann@example.com")
	if err := mail.NewSMTP(srv.Config()).Send(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	got := srv.WaitFor(1, 5*time.Second)
	if len(got) != 1 {
		t.Fatalf("%d messages arrived, want 1", len(got))
	}
	g := got[0]
	if g.MessageID != "abc123@inkwell.test" || g.Subject != m.Subject || len(g.To) != 1 || g.To[0].Address != "ann@example.com" ||
		g.From.Address != "noreply@inkwell.test" || g.From.Name != "Inkwell" {
		t.Errorf("arrived %+v", g)
	}
	if strings.TrimSpace(g.Text) != strings.TrimSpace(m.Text) || !strings.Contains(g.HTML, "<p>HTML part</p>") {
		t.Errorf("parts: text %q, HTML %q", g.Text, g.HTML)
	}
}

// TestSMTPClassifiesFailures checks that 4xx answers and a server that is
// down are temporary (Unavailable) and 5xx answers permanent.
func TestSMTPClassifiesFailures(t *testing.T) {
	srv := mailpittest.Start(t)
	smtp := mail.NewSMTP(srv.Config())
	for _, tc := range []struct {
		name      string
		sender    mailpittest.Trigger
		recipient mailpittest.Trigger
		temporary bool
	}{
		{"451 to MAIL FROM", mailpittest.Trigger{ErrorCode: 451, Probability: 100}, mailpittest.Trigger{}, true},
		{"452 to RCPT TO", mailpittest.Trigger{}, mailpittest.Trigger{ErrorCode: 452, Probability: 100}, true},
		{"550 to RCPT TO", mailpittest.Trigger{}, mailpittest.Trigger{ErrorCode: 550, Probability: 100}, false},
		{"554 to MAIL FROM", mailpittest.Trigger{ErrorCode: 554, Probability: 100}, mailpittest.Trigger{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.Chaos(tc.sender, tc.recipient)
			err := smtp.Send(t.Context(), sample("<"+strings.ReplaceAll(tc.name, " ", ".")+"@inkwell.test>", "ann@example.com"))
			if err == nil {
				t.Fatal("sent, want a failure")
			}
			if got := domain.KindOf(err) == domain.Unavailable; got != tc.temporary {
				t.Errorf("%v: temporary %v, want %v", err, got, tc.temporary)
			}
		})
	}
	srv.Chaos(mailpittest.Trigger{}, mailpittest.Trigger{})
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("%d messages arrived through the failures", n)
	}

	srv.Down()
	err := smtp.Send(t.Context(), sample("<down@inkwell.test>", "ann@example.com"))
	if err == nil || domain.KindOf(err) != domain.Unavailable {
		t.Errorf("with the server down: %v, want a temporary failure", err)
	}
	srv.Up()
	if err := smtp.Send(t.Context(), sample("<up@inkwell.test>", "ann@example.com")); err != nil {
		t.Errorf("after the server came back: %v", err)
	}
}

// TestLogMailerWritesTheText checks that MAIL_MAILER=log puts the mail in
// the log as a person reads it: the Message-ID, the receiver, the text
// part as written, and its link whole in an attribute of its own, never
// the quoted-printable of the MIME message.
func TestLogMailerWritesTheText(t *testing.T) {
	var buf strings.Builder
	log := newTextLogger(&buf)
	link := "https://api.example/api/v1/verify-email/12/" + strings.Repeat("ab", 20) + "?expires=1790000000&signature=" + strings.Repeat("0f", 32)
	m := sample("<log1@inkwell.test>", "ann@example.com")
	m.Text = "Hello Ann, ünïcode,\n\nOpen this link:\n" + link + "\n\nBye.\n"
	if err := mail.NewLog(mail.Config{FromAddress: "noreply@inkwell.test", FromName: "Inkwell"}, log).Send(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"message_id=<log1@inkwell.test>", "to=ann@example.com", `link="` + link + `"`, "ünïcode", `\n` + link + `\n`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, buf.String())
		}
	}
	for _, unwanted := range []string{"=3D", "Content-Transfer-Encoding", "<p>HTML part</p>", "link2="} {
		if strings.Contains(buf.String(), unwanted) {
			t.Errorf("the log holds %q:\n%s", unwanted, buf.String())
		}
	}
}
