package ports

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// RegisterInput is a validated registration.
type RegisterInput struct {
	Name     string
	Email    string
	Password string
}

// LoginInput is a validated login. IP keys the failed-attempt limit together
// with the e-mail.
type LoginInput struct {
	Email    string
	Password string
	IP       string
}

// Accounts is the driving port of registration, login, logout and bearer
// authentication.
type Accounts interface {
	// Register creates the user and issues a token with every ability.
	// domain.ErrEmailTaken when the e-mail is in use.
	Register(ctx context.Context, in RegisterInput) (domain.User, domain.PlainToken, error)
	// Login checks the credentials, deletes the user's earlier tokens and
	// issues one with posts:read and posts:write, all in one transaction.
	// domain.ErrBadCredentials for an unknown e-mail or a wrong password
	// (alike, and alike slow), domain.ErrTooManyAttempts past the limit.
	Login(ctx context.Context, in LoginInput) (domain.User, domain.PlainToken, error)
	// Logout deletes the token the actor presented.
	Logout(ctx context.Context, actor domain.Actor) error
	// Authenticate resolves a presented bearer token to its actor.
	// domain.ErrUnauthenticated for a malformed, unknown, forged, expired or
	// orphaned token.
	Authenticate(ctx context.Context, bearer string) (domain.Actor, error)
}

// TokenInput asks for a personal token. ExpiresIn zero means the configured
// lifetime; Abilities nil means the same abilities as the presenting token.
type TokenInput struct {
	Name      string
	Abilities []string
	ExpiresIn time.Duration
}

// Tokens is the driving port of personal token management, for users through
// the API and for operators through the command line.
type Tokens interface {
	// List returns the actor's tokens, oldest first.
	List(ctx context.Context, actor domain.Actor) ([]domain.Token, error)
	// Create issues a token for the actor. domain.ErrInvalidAbility when it
	// asks for an ability the actor's own token lacks.
	Create(ctx context.Context, actor domain.Actor, in TokenInput) (domain.Token, domain.PlainToken, error)
	// Delete revokes one of the actor's tokens; domain.ErrNotFound for a
	// token that is not the actor's.
	Delete(ctx context.Context, actor domain.Actor, id int64) error
	// RevokeByName revokes the tokens named name of the user with email.
	// domain.ErrNotFound for an unknown e-mail.
	RevokeByName(ctx context.Context, email, name string) (int64, error)
	// RevokeAll revokes every token of the user with email.
	// domain.ErrNotFound for an unknown e-mail.
	RevokeAll(ctx context.Context, email string) (int64, error)
	// Prune deletes every expired token.
	Prune(ctx context.Context) (int64, error)
}
