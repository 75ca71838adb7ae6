package mail

import (
	"fmt"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/inkwell/inkwell/domain"
)

// message builds the MIME message of m: From, To, Subject, Date, the
// Message-ID m was given at enqueue (so a retry is the same message), and
// multipart/alternative with the text part first and the HTML part last, the
// one a reader prefers.
func message(cfg Config, m domain.Mail, now time.Time) (*gomail.Msg, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.FromFormat(cfg.FromName, cfg.FromAddress); err != nil {
		return nil, fmt.Errorf("from %q: %w", cfg.FromAddress, err)
	}
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("to %q: %w", m.To, err)
	}
	msg.Subject(m.Subject)
	msg.SetDateWithValue(now)
	msg.SetMessageIDWithValue(strings.TrimSuffix(strings.TrimPrefix(m.MessageID, "<"), ">"))
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	return msg, nil
}
