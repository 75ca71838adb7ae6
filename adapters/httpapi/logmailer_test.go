package httpapi_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/mail"
)

// TestLogMailerLinkWorks checks that MAIL_MAILER=log prints a mail a
// person can use: the verification link copied from the log line, as it
// stands there, verifies the address through the HTTP stack.
func TestLogMailerLinkWorks(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			var logged bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&logged, nil))
			h := newHarness(t, s.Open(t), options{mailer: mail.NewLog(mail.Config{FromAddress: "noreply@inkwell.test"}, log)})
			token := h.register("Ann", "ann@example.com", "password1")
			if n := h.sendDue(); n != 1 {
				t.Fatalf("the worker sent %d mails, want the verification", n)
			}
			var line map[string]any
			if err := json.Unmarshal(logged.Bytes(), &line); err != nil {
				t.Fatalf("the log holds no one JSON line: %v\n%s", err, logged.String())
			}
			link, _ := line["link"].(string)
			found := regexp.MustCompile(`^http://example\.com(/api/v1/verify-email/\S+)$`).FindStringSubmatch(link)
			if found == nil {
				t.Fatalf("the log line's link is %q, want the verification link:\n%s", link, logged.String())
			}
			if text, _ := line["text"].(string); !strings.Contains(text, "\n"+link+"\n") {
				t.Errorf("the text part does not hold the link on a line of its own:\n%s", text)
			}
			if strings.Contains(logged.String(), "=3D") || strings.Contains(logged.String(), "quoted-printable") {
				t.Errorf("the log holds quoted-printable:\n%s", logged.String())
			}
			h.do("GET", found[1], nil).expect(t, http.StatusOK, emailVerified)
			if got := h.do("GET", "/api/v1/user", nil, as(token)...).body["email_verified_at"]; got == nil {
				t.Error("the address is not verified after the logged link")
			}
		})
	}
}
