package mail_test

import (
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func TestComposePasswordReset(t *testing.T) {
	c, err := mail.NewComposer(mail.Config{AppName: "Ink<well>"})
	if err != nil {
		t.Fatal(err)
	}
	url := "https://app.example/password-reset/abc?email=a%2Bb%40example.com&x=<y>"
	got, err := c.Compose(ports.MailPasswordReset, map[string]string{"name": "Ann <b>", "url": url, "minutes": "60"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Subject != "Ink<well>: reset your password" {
		t.Errorf("subject %q", got.Subject)
	}
	for _, want := range []string{"Hello Ann <b>,", url, "expire in 60 minutes"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("text part lacks %q:\n%s", want, got.Text)
		}
	}
	// The HTML part escapes what the data brings.
	for _, want := range []string{"Hello Ann &lt;b&gt;,", `href="https://app.example/password-reset/abc?email=a%2Bb%40example.com&amp;x=%3cy%3e"`} {
		if !strings.Contains(got.HTML, want) {
			t.Errorf("HTML part lacks %q:\n%s", want, got.HTML)
		}
	}
	if strings.Contains(got.HTML, "<b>") {
		t.Errorf("HTML part holds unescaped markup:\n%s", got.HTML)
	}
}

func TestComposeRefusesWhatItCannotRender(t *testing.T) {
	c, err := mail.NewComposer(mail.Config{AppName: "Inkwell"})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]map[string]string{
		"no_such_mail":          {},
		ports.MailPasswordReset: {"name": "Ann"}, // no url, no minutes
	} {
		if _, err := c.Compose(name, data); err == nil || domain.KindOf(err) != domain.Internal {
			t.Errorf("Compose(%q, %v) = %v, want an internal error", name, data, err)
		}
	}
}

func TestComposeVerification(t *testing.T) {
	c, err := mail.NewComposer(mail.Config{AppName: "Inkwell"})
	if err != nil {
		t.Fatal(err)
	}
	url := "https://api.example/api/v1/verify-email/1/abc?expires=1&signature=f0"
	got, err := c.Compose(ports.MailVerifyEmail, map[string]string{"name": "Ann", "url": url, "minutes": "60"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Subject != "Inkwell: verify your email address" || !strings.Contains(got.Text, url) ||
		!strings.Contains(got.Text, "expire in 60 minutes") || !strings.Contains(got.HTML, `href="https://api.example/api/v1/verify-email/1/abc?expires=1&amp;signature=f0"`) {
		t.Errorf("verification mail:\n%s\n%s\n%s", got.Subject, got.Text, got.HTML)
	}
	got, err = c.Compose(ports.MailEmailChanged, map[string]string{"name": "Ann", "new_email": "ann@new.example"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Subject != "Inkwell: your email address was changed" || !strings.Contains(got.Text, "ann@new.example") || !strings.Contains(got.HTML, "ann@new.example") {
		t.Errorf("notice:\n%s\n%s\n%s", got.Subject, got.Text, got.HTML)
	}
	if _, err := c.Compose(ports.MailVerifyEmail, map[string]string{"name": "Ann"}); err == nil {
		t.Errorf("a verification mail without its link rendered")
	}
}
