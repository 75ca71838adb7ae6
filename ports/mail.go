package ports

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// MailRepository is the outbox of mails. A mail is enqueued through the
// Repos of the transaction that makes what it is about (a reset token, a
// changed address), so it leaves if and only if that commits; workers on
// every replica then claim it with a lease and send it.
type MailRepository interface {
	// Enqueue stores m and sets its ID. domain.ErrConflict when another
	// mail has its MessageID.
	Enqueue(ctx context.Context, m *domain.Mail) error
	// Get returns domain.ErrNotFound when there is no such mail.
	Get(ctx context.Context, id int64) (domain.Mail, error)
	// Claim leases up to limit pending mails due at now, not expired at
	// now, whose lease, if any, has run out, and returns them leased until
	// until, oldest due first. Replicas that claim at once never get the
	// same mail.
	Claim(ctx context.Context, now, until time.Time, limit int) ([]domain.Mail, error)
	// Update writes the outcome of an attempt, as domain.Mail's Sent and
	// Failed record it: status, attempts, next attempt, lease, last error,
	// sent time and the body (which they erase). domain.ErrNotFound.
	Update(ctx context.Context, m domain.Mail) error
	// Expire marks every pending mail whose expiry is at or before now
	// expired, erases its body, and says how many it marked.
	Expire(ctx context.Context, now time.Time) (int64, error)
	// Prune deletes the mails that are no longer pending (sent, failed or
	// expired) and were last updated at or before before, and says how
	// many went.
	Prune(ctx context.Context, before time.Time) (int64, error)
	// Pending counts the mails still pending: waiting, due or being sent.
	Pending(ctx context.Context) (int64, error)
}

// MailContent is a rendered mail: its subject, a plain-text part and an
// HTML part.
type MailContent struct {
	Subject string
	Text    string
	HTML    string
}

// Mail templates the core asks a MailComposer for. Data keys each one reads
// are listed beside it.
const (
	// MailPasswordReset: "name", "url", "minutes" (the link's lifetime).
	MailPasswordReset = "password_reset"
)

// MailComposer renders mails from templates kept outside the core, so that
// their wording lives with the adapters, as the API's messages do.
type MailComposer interface {
	// Compose renders template with data. An unknown template, or one that
	// fails to render, is an error of kind Internal.
	Compose(template string, data map[string]string) (MailContent, error)
}

// Mailer hands one mail to a mail server. An error of kind
// domain.Unavailable is temporary (a 4xx answer, a server that cannot be
// reached): the mail is tried again later. Any other error is permanent.
type Mailer interface {
	Send(ctx context.Context, m domain.Mail) error
}
