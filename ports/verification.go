package ports

import (
	"context"

	"github.com/inkwell/inkwell/domain"
)

// VerifyInput is a verification link as it arrived: its user id and hash
// as the route read them, and its path and query undecoded, as the request
// line carried them, which the signature covers.
type VerifyInput struct {
	ID       string
	Hash     string
	Path     string
	RawQuery string
}

// Mail templates of e-mail verification, for the MailComposer.
const (
	// MailVerifyEmail: "name", "url", "minutes" (the link's lifetime).
	MailVerifyEmail = "verify_email"
	// MailEmailChanged tells the old address of a change: "name",
	// "new_email".
	MailEmailChanged = "email_changed"
)

// Verification is the driving port of e-mail verification.
type Verification interface {
	// Send mails the actor's address a signed link below base (the
	// public base URL) and reports true; false, and no mail, when the
	// address is already verified. First what domain.Actor.CheckAbility
	// refuses for domain.WriteProfile; domain.ErrTooManyAttempts past 6
	// mails a minute per account, counted in the store.
	Send(ctx context.Context, actor domain.Actor, base string) (bool, error)
	// Verify checks a link Send mailed and records the address as
	// verified; it reports false when it already was (a link used twice
	// answers alike). domain.ErrInvalidSignature for a link whose
	// signature does not cover its path and query, that has expired, or
	// whose account is gone or has another address now.
	Verify(ctx context.Context, in VerifyInput) (bool, error)
}
