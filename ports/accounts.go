package ports

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// RegisterInput is a registration. Register checks it with
// domain.CheckAccount, so a transport need only decode it.
type RegisterInput struct {
	Name     string
	Email    string
	Password string
	// LinkBase is the public base URL that the verification link mailed
	// to the new account starts with.
	LinkBase string
}

// LoginInput is a validated login. IP keys the failed-attempt limit together
// with the e-mail.
type LoginInput struct {
	Email    string
	Password string
	IP       string
	// Remember asks a browser session login for a remember-me cookie too;
	// a token login ignores it.
	Remember bool
	// AdminOnly refuses an account without admin rights exactly as a wrong
	// password is refused (domain.ErrBadCredentials, a failed attempt for
	// the throttle), so that the console's sign-in tells nobody which
	// addresses belong to accounts.
	AdminOnly bool
}

// SessionLogin is a browser session login: the cookie value naming the new
// session, the session, its user, and the remember-me cookie value when the
// login asked for one.
type SessionLogin struct {
	Cookie   string
	Session  domain.Session
	User     domain.User
	Remember string
}

// Accounts is the driving port of registration, login, logout and bearer
// authentication.
type Accounts interface {
	// Register creates the user and issues a token with every ability. An
	// Invalid error naming each field that breaks domain.CheckAccount;
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

// Tokens is the driving port of a user's personal token management, for
// any transport; the operator's, by e-mail, is OperatorTokens.
// Every method that writes for an actor (creates, changes or deletes)
// first returns what domain.Actor.CheckAbility refuses for domain.WriteTokens
// (domain.ErrUnauthenticated, domain.ErrInvalidAbility), then
// domain.ErrEmailNotVerified when domain.Actor.CheckWrite refuses the
// actor.
type Tokens interface {
	// List returns the actor's tokens, oldest first.
	List(ctx context.Context, actor domain.Actor) ([]domain.Token, error)
	// Create issues a token for the actor. An Invalid error naming each
	// field that breaks domain.CheckTokenRequest (name, abilities, lifetime);
	// domain.ErrInvalidAbility when it asks for an ability the actor's own
	// token lacks.
	Create(ctx context.Context, actor domain.Actor, in TokenInput) (domain.Token, domain.PlainToken, error)
	// Delete revokes one of the actor's tokens, or by admin right
	// anybody's (audited as token.revoke), and ends the streams read with
	// it; domain.ErrNotFound for a token that is not the actor's,
	// domain.ErrForbidden for an actor claiming admin rights it does not
	// hold now. A token revoking itself logs out and needs no ability.
	Delete(ctx context.Context, actor domain.Acting, id int64) error
}

// ProfileInput is a profile update. CurrentPassword must be the user's
// password when Email or Password changes.
type ProfileInput struct {
	Name            Optional[string]
	Email           Optional[string]
	Password        Optional[string]
	CurrentPassword string
	// LinkBase is the public base URL that the verification link mailed
	// to a changed address starts with.
	LinkBase string
}

// Profile is the driving port of a user's own account. Every method first
// returns what domain.Actor.CheckAbility refuses for domain.WriteProfile
// (domain.ErrUnauthenticated, domain.ErrInvalidAbility).
type Profile interface {
	// Update changes what in sets. An Invalid error naming each set field
	// that breaks its domain check (domain.CheckUserName, domain.CheckEmail,
	// domain.CheckPassword). A changed e-mail or password needs the
	// current password (an invalid field "current_password" otherwise);
	// domain.ErrEmailTaken. A password change revokes every token and
	// session of the user and returns a fresh token, nil otherwise.
	// domain.ErrPreconditionFailed when pre does not allow the version found.
	Update(ctx context.Context, actor domain.Actor, in ProfileInput, pre Precondition) (domain.User, *domain.PlainToken, error)
	// SetAvatar stores img as the user's avatar and removes the old one.
	// An Invalid error on avatar when img breaks domain.CheckImage (of at
	// most domain.MaxAvatarKilobytes).
	SetAvatar(ctx context.Context, actor domain.Actor, img Image) (domain.User, error)
	// Delete removes the account with its tokens, sessions, posts, comments
	// and files, after checking the current password (an invalid field
	// "current_password" otherwise). domain.ErrPreconditionFailed when pre does not allow the version found.
	Delete(ctx context.Context, actor domain.Actor, currentPassword string, pre Precondition) error
}

// Sessions is the driving port of browser sessions (Sanctum's stateful
// mode). A session is named by the value of its cookie, which only the
// browser holds; the store keeps its digest. Each session has a kind, the
// transport that started it (domain.SessionKind), and every call names the
// kind its transport accepts: a session of the other kind is answered as
// an unknown cookie is, and left as it is.
type Sessions interface {
	// Start opens a session of kind without a user and returns its cookie
	// value.
	Start(ctx context.Context, kind domain.SessionKind) (string, domain.Session, error)
	// Find returns the live session of kind a cookie names, marking it
	// active. domain.ErrNotFound when there is none, it is of the other
	// kind, or it has been idle too long.
	Find(ctx context.Context, kind domain.SessionKind, cookie string) (domain.Session, error)
	// Login checks the credentials as Accounts.Login does (same throttle,
	// same errors) and binds the user to a new session of kind that
	// replaces the one of kind cookie names, so an id known before login
	// is worthless after it. With in.Remember it also returns a
	// remember-me cookie value, built on the user's remember_token (made
	// now if the user has none).
	Login(ctx context.Context, kind domain.SessionKind, cookie string, in LoginInput) (SessionLogin, error)
	// Register makes an account as Accounts.Register does (the same
	// errors, the same first verification mail) but issues no token: the
	// new user is bound to a new API session that replaces the API session
	// cookie names, as Login binds one.
	Register(ctx context.Context, cookie string, in RegisterInput) (SessionLogin, error)
	// Resume opens a fresh API session (remember-me cookies are the API's)
	// for the user a remember-me cookie names, replacing the API session
	// cookie names (an anonymous or ended one), and returns the new
	// session's cookie value. domain.ErrUnauthenticated for a cookie that
	// is tampered with, made with another key, or built on a
	// remember_token rotated since, or whose user is gone.
	Resume(ctx context.Context, cookie, remember string) (string, domain.Session, error)
	// Logout deletes the session of kind cookie names and, when a user is
	// signed in to it, rotates the user's remember_token, so that every
	// remember-me cookie of the user stops working.
	Logout(ctx context.Context, kind domain.SessionKind, cookie string) error
	// Actor returns who acts through session s: its user, with every
	// ability. domain.ErrUnauthenticated for a session without a user or
	// whose user is gone.
	Actor(ctx context.Context, s domain.Session) (domain.Actor, error)
}
