package mail

import "time"

// Mailers are the values of Config.Mailer.
const (
	MailerLog  = "log"
	MailerSMTP = "smtp"
)

// Schemes are the values of Config.Scheme.
const (
	// SchemeSMTP is plain SMTP, upgraded with STARTTLS when the server
	// offers it.
	SchemeSMTP = "smtp"
	// SchemeSMTPS is SMTP inside TLS from the first byte.
	SchemeSMTPS = "smtps"
)

// Config holds the mail settings, with Laravel's names in the environment
// (MAIL_MAILER, MAIL_HOST, …).
type Config struct {
	// Mailer is MailerLog or MailerSMTP.
	Mailer   string
	Host     string
	Port     int
	Scheme   string
	Username string
	Password string
	// FromAddress and FromName make the From header.
	FromAddress string
	FromName    string
	// EHLODomain is the name the client gives in EHLO; the host's name
	// when empty.
	EHLODomain string
	// Timeout bounds one connection's dialling and each command; 10
	// seconds when zero.
	Timeout time.Duration
	// AppName names the application in the mails' text.
	AppName string
}
