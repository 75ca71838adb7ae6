package mail

import (
	"context"
	"slices"
	"sync"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Inbox is the Mailer of unit tests: it keeps what it is given, and fails
// as a test tells it to.
type Inbox struct {
	mu   sync.Mutex
	sent []domain.Mail
	fail []error
}

var _ ports.Mailer = (*Inbox)(nil)

// NewInbox returns an empty inbox.
func NewInbox() *Inbox { return &Inbox{} }

// Send implements ports.Mailer: it keeps m, or returns the next error that
// FailNext queued.
func (b *Inbox) Send(ctx context.Context, m domain.Mail) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.fail) > 0 {
		err := b.fail[0]
		b.fail = b.fail[1:]
		return err
	}
	b.sent = append(b.sent, m)
	return nil
}

// FailNext makes the next len(errs) sends fail with errs, in order.
func (b *Inbox) FailNext(errs ...error) {
	b.mu.Lock()
	b.fail = append(b.fail, errs...)
	b.mu.Unlock()
}

// Sent returns the mails sent so far, oldest first.
func (b *Inbox) Sent() []domain.Mail {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.sent)
}
