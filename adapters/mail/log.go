package mail

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Log is the mailer of development (MAIL_MAILER=log, as Laravel's): it
// writes the whole MIME message to the log instead of sending it.
type Log struct {
	cfg Config
	log *slog.Logger
}

var _ ports.Mailer = (*Log)(nil)

// NewLog returns the log mailer.
func NewLog(cfg Config, log *slog.Logger) *Log {
	return &Log{cfg: cfg, log: log}
}

// Send implements ports.Mailer.
func (l *Log) Send(ctx context.Context, m domain.Mail) error {
	msg, err := message(l.cfg, m, time.Now())
	if err != nil {
		return fmt.Errorf("log mail: %w", err)
	}
	var buf bytes.Buffer
	if _, err := msg.WriteTo(&buf); err != nil {
		return fmt.Errorf("log mail: %w", err)
	}
	l.log.InfoContext(ctx, "mail", "to", m.To, "subject", m.Subject, "message_id", m.MessageID, "message", buf.String())
	return nil
}

// New returns the mailer cfg.Mailer names: SMTP, or the log.
func New(cfg Config, log *slog.Logger) ports.Mailer {
	if cfg.Mailer == MailerSMTP {
		return NewSMTP(cfg)
	}
	return NewLog(cfg, log)
}
