package mail

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/textproto"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// SMTP sends mail to an SMTP server, one connection per mail: mail is
// rare (resets, verifications) and a connection kept open would go stale
// between mails.
type SMTP struct {
	cfg  Config
	opts []gomail.Option
	now  func() time.Time
}

var _ ports.Mailer = (*SMTP)(nil)

// NewSMTP returns the SMTP mailer of cfg: STARTTLS when the server offers
// it on SchemeSMTP, TLS from the start on SchemeSMTPS, and authentication
// (the best mechanism the server offers) when cfg has a username.
func NewSMTP(cfg Config) *SMTP {
	opts := []gomail.Option{
		gomail.WithPort(cfg.Port),
		gomail.WithTimeout(cmp.Or(cfg.Timeout, 10*time.Second)),
	}
	if cfg.Scheme == SchemeSMTPS {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if cfg.EHLODomain != "" {
		opts = append(opts, gomail.WithHELO(cfg.EHLODomain))
	}
	if cfg.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(cfg.Username), gomail.WithPassword(cfg.Password))
	}
	return &SMTP{cfg: cfg, opts: opts, now: time.Now}
}

// Send implements ports.Mailer. A 5xx answer is permanent; a 4xx answer,
// a server that cannot be reached or a connection that broke is temporary
// (domain.Unavailable).
func (s *SMTP) Send(ctx context.Context, m domain.Mail) error {
	msg, err := message(s.cfg, m, s.now())
	if err != nil {
		return fmt.Errorf("smtp: %w", err) // the address will not get better
	}
	client, err := gomail.NewClient(s.cfg.Host, s.opts...)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return classify(err)
	}
	return nil
}

// classify tells a permanent failure, a 5xx answer of the server, from
// every other, which is temporary: a 4xx answer, no answer at all
// (connection refused, timeouts, a connection that broke), or an error of
// go-mail's own that carries no code.
func classify(err error) error {
	code := 0
	var send *gomail.SendError
	var proto *textproto.Error
	switch {
	case errors.As(err, &send):
		code = send.ErrorCode()
	case errors.As(err, &proto):
		code = proto.Code
	}
	if code >= 500 {
		return fmt.Errorf("smtp: %w", err)
	}
	return fmt.Errorf("smtp: %w: %w", err, domain.ErrUnavailable)
}
