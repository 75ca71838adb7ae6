package ports

import (
	"context"

	"github.com/inkwell/inkwell/domain"
)

// PasswordResetRepository keeps each account's one live password reset.
type PasswordResetRepository interface {
	// Put stores r as its user's reset, replacing the one before.
	// domain.ErrNotFound when the user does not exist.
	Put(ctx context.Context, r domain.PasswordReset) error
	// ByUser returns the user's reset; domain.ErrNotFound when there is
	// none.
	ByUser(ctx context.Context, userID int64) (domain.PasswordReset, error)
	// DeleteByUser removes the user's reset; none is not an error.
	DeleteByUser(ctx context.Context, userID int64) error
}

// ResetPasswordInput is a password reset: the mailed token, the account's
// e-mail and the new password.
type ResetPasswordInput struct {
	Token    string
	Email    string
	Password string
}

// PasswordResets is the driving port of the forgotten-password flow.
type PasswordResets interface {
	// Request mails a reset link, linkBase + "/password-reset/{token}?email=…",
	// to the account with email, if there is one and no reset mail went to
	// that address within the throttle; it answers alike, and takes about
	// as long, for every well-formed address. An Invalid error on "email"
	// when email breaks domain.CheckEmail.
	Request(ctx context.Context, email, linkBase string) error
	// Reset sets the account's password when the token is its live reset
	// token, then revokes every token and session of the account, deletes
	// its reset, rotates its remember_token and records its e-mail as
	// verified. An Invalid error naming the fields that break
	// domain.CheckEmail or domain.CheckPassword; domain.ErrResetToken for a
	// token that is wrong, used, expired or another account's.
	Reset(ctx context.Context, in ResetPasswordInput) error
}
