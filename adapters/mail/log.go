package mail

import (
	"context"
	"log/slog"
	"regexp"
	"strconv"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Log is the mailer of development (MAIL_MAILER=log, as Laravel's): it
// writes the mail to the log instead of sending it, as a person reads it:
// the text part as it was written, never the MIME message, whose
// quoted-printable encoding breaks a link that is copied from it (a soft
// line break, "=3D" for "="), and each link of the text part in an
// attribute of its own, "link" for the first, "link2" and on for more.
type Log struct {
	cfg Config
	log *slog.Logger
}

var _ ports.Mailer = (*Log)(nil)

// NewLog returns the log mailer.
func NewLog(cfg Config, log *slog.Logger) *Log {
	return &Log{cfg: cfg, log: log}
}

// linkPattern finds the links of a text part: the templates put each
// on a line of its own, so a link ends at white space.
var linkPattern = regexp.MustCompile(`https?://\S+`)

// Send implements ports.Mailer.
func (l *Log) Send(ctx context.Context, m domain.Mail) error {
	attrs := []any{"from", l.cfg.FromAddress, "to", m.To, "subject", m.Subject, "message_id", m.MessageID}
	for i, link := range linkPattern.FindAllString(m.Text, -1) {
		key := "link"
		if i > 0 {
			key += strconv.Itoa(i + 1)
		}
		attrs = append(attrs, key, link)
	}
	attrs = append(attrs, "text", m.Text)
	l.log.InfoContext(ctx, "mail", attrs...)
	return nil
}

// New returns the mailer cfg.Mailer names: SMTP, or the log.
func New(cfg Config, log *slog.Logger) ports.Mailer {
	if cfg.Mailer == MailerSMTP {
		return NewSMTP(cfg)
	}
	return NewLog(cfg, log)
}
