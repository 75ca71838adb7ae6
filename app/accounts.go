// Package app holds Inkwell's use cases: short transaction scripts that load
// entities through the ports, check policies, call domain methods and save.
package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// AccountsConfig holds the settings of registration, login and tokens.
type AccountsConfig struct {
	// TokenLifetime is how long issued tokens live; zero means forever.
	TokenLifetime time.Duration
	// LoginMaxAttempts is how many logins per minute one e-mail may attempt
	// from one address without succeeding; further attempts are refused
	// without a password check. Zero turns the limit off.
	LoginMaxAttempts int
	// RequireVerifiedEmail lets only accounts that proved their address
	// write (REQUIRE_VERIFIED_EMAIL): the actors authentication makes
	// carry it, and every write checks it (domain.Actor.CheckWrite).
	RequireVerifiedEmail bool
}

// loginWindow is the window over which failed logins are counted.
const loginWindow = time.Minute

// authTokenName is the name of tokens issued by registration and login.
const authTokenName = "auth_token"

// Accounts implements ports.Accounts.
type Accounts struct {
	store   ports.Store
	hasher  ports.PasswordHasher
	secrets ports.SecretGenerator
	clock   ports.Clock
	cfg     AccountsConfig
	verify  *Verification

	dummyOnce sync.Once
	dummyHash string
}

// NewAccounts returns the account use cases; registration mails the first
// verification link through verify.
func NewAccounts(store ports.Store, hasher ports.PasswordHasher, secrets ports.SecretGenerator, clock ports.Clock, cfg AccountsConfig, verify *Verification) *Accounts {
	return &Accounts{store: store, hasher: hasher, secrets: secrets, clock: clock, cfg: cfg, verify: verify}
}

var _ ports.Accounts = (*Accounts)(nil)

// Register implements ports.Accounts.
func (a *Accounts) Register(ctx context.Context, in ports.RegisterInput) (domain.User, domain.PlainToken, error) {
	var plain domain.PlainToken
	u, err := a.register(ctx, in, func(r ports.Repos, u domain.User, now time.Time) error {
		var err error
		_, plain, err = issueToken(ctx, r, a.secrets, now, u.ID, authTokenName, []string{domain.AbilityAll}, a.cfg.TokenLifetime)
		return err
	})
	if err != nil {
		return domain.User{}, domain.PlainToken{}, err
	}
	return u, plain, nil
}

// register checks and creates the account, then runs signIn in the same
// transaction to give the new user a credential: a token, or a browser
// session.
func (a *Accounts) register(ctx context.Context, in ports.RegisterInput, signIn func(r ports.Repos, u domain.User, now time.Time) error) (domain.User, error) {
	if err := domain.CheckAccount(in.Name, in.Email, in.Password); err != nil {
		return domain.User{}, err
	}
	hash, err := a.hasher.Hash(in.Password)
	if err != nil {
		return domain.User{}, fmt.Errorf("register: %w", err)
	}
	now := a.clock.Now()
	u := domain.User{Name: in.Name, Email: in.Email, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}
	err = a.store.InTx(ctx, func(r ports.Repos) error {
		if err := r.Users.Create(ctx, &u); err != nil {
			return err
		}
		if err := signIn(r, u, now); err != nil {
			return err
		}
		// The first verification mail leaves if and only if the account
		// is made.
		return a.verify.enqueueLink(ctx, r, u, in.LinkBase, now)
	})
	if err != nil {
		return domain.User{}, fmt.Errorf("register: %w", err)
	}
	a.verify.outbox.Wake()
	return u, nil
}

// Login implements ports.Accounts: the user's earlier tokens make way for
// one with posts:read and posts:write.
//
// The revocation is recorded only when a deleted token had opened an event
// stream: a stream marks its token before it starts (Events.Follow), so a
// token deleted unmarked has no stream to end, and one marked concurrently
// is counted here or refused there. Every other login skips the record and
// with it the event id counter's lock, which appends hold until they
// commit, so that logins do not wait for each other's commits.
func (a *Accounts) Login(ctx context.Context, in ports.LoginInput) (domain.User, domain.PlainToken, error) {
	var plain domain.PlainToken
	u, err := a.login(ctx, in, func(r ports.Repos, u domain.User, now time.Time) error {
		streamed, err := r.Tokens.DeleteByUserStreamed(ctx, u.ID)
		if err != nil {
			return err
		}
		_, plain, err = issueToken(ctx, r, a.secrets, now, u.ID, authTokenName, []string{domain.AbilityPostsRead, domain.AbilityPostsWrite}, a.cfg.TokenLifetime)
		if err != nil || streamed == 0 {
			return err
		}
		// The streams of the new token start after this commit, so the
		// record ends only those of the tokens deleted here.
		return revoke(ctx, r, domain.Revocation{UserID: u.ID, AllTokens: true}, now)
	})
	if err != nil {
		return domain.User{}, domain.PlainToken{}, err
	}
	return u, plain, nil
}

// login is every login's common part, for tokens and browser sessions
// alike: the failed-attempt throttle, the credential check and the rehash of
// an outdated password hash. The attempt is counted before the password is
// checked, by one atomic increment in the store, so that concurrent
// attempts, on one replica or several, each see their own place in the
// window and no more than the limit ever reach the check. The password is
// checked outside the transaction, so the slow hash holds no lock; bind then
// runs in a transaction that holds the user's row, so that concurrent logins
// of one user replace each other's credentials one after the other and never
// leave two behind. The throttle's count is cleared once bind has committed.
func (a *Accounts) login(ctx context.Context, in ports.LoginInput, bind func(r ports.Repos, u domain.User, now time.Time) error) (domain.User, error) {
	key := "login:" + domain.EmailKey(in.Email) + "|" + in.IP
	now := a.clock.Now()
	// With the limit off nothing is counted.
	throttled := a.cfg.LoginMaxAttempts > 0
	if throttled {
		hits, resetAt, err := a.store.Repos().RateLimits.Hit(ctx, key, loginWindow, now)
		if err != nil {
			return domain.User{}, fmt.Errorf("login: %w", err)
		}
		if hits > a.cfg.LoginMaxAttempts {
			return domain.User{}, tooManyAttempts(resetAt.Sub(now))
		}
	}

	u, ok, err := a.checkCredentials(ctx, in.Email, in.Password)
	if err != nil {
		return domain.User{}, fmt.Errorf("login: %w", err)
	}
	if !ok || (in.AdminOnly && !u.IsAdmin) {
		return domain.User{}, domain.ErrBadCredentials
	}

	var rehash string
	if a.hasher.NeedsRehash(u.PasswordHash) {
		if rehash, err = a.hasher.Hash(in.Password); err != nil {
			return domain.User{}, fmt.Errorf("login: %w", err)
		}
	}
	err = a.store.InTx(ctx, func(r ports.Repos) error {
		locked, err := r.Users.Lock(ctx, u.ID)
		if err != nil {
			return err
		}
		if rehash != "" {
			locked.PasswordHash = rehash
			if err := r.Users.Update(ctx, locked); err != nil {
				return err
			}
		}
		u = locked
		return bind(r, u, now)
	})
	if errors.Is(err, domain.ErrNotFound) {
		// The account was deleted between the password check and the lock.
		return domain.User{}, domain.ErrBadCredentials
	}
	if err != nil {
		return domain.User{}, fmt.Errorf("login: %w", err)
	}
	if throttled {
		if err := a.store.Repos().RateLimits.Clear(ctx, key); err != nil {
			return domain.User{}, fmt.Errorf("login: %w", err)
		}
	}
	return u, nil
}

// checkCredentials finds the user and checks the password. An unknown e-mail
// is checked against a dummy hash so that it costs as long as a wrong password
// and the two can't be told apart by timing.
func (a *Accounts) checkCredentials(ctx context.Context, email, password string) (domain.User, bool, error) {
	u, err := a.store.Repos().Users.ByEmail(ctx, email)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		if _, err := a.hasher.Check(a.dummy(), password); err != nil {
			return domain.User{}, false, err
		}
		return domain.User{}, false, nil
	case err != nil:
		return domain.User{}, false, err
	}
	ok, err := a.hasher.Check(u.PasswordHash, password)
	return u, ok, err
}

// dummy returns a hash made with the current parameters, computed once.
func (a *Accounts) dummy() string {
	a.dummyOnce.Do(func() {
		h, err := a.hasher.Hash("inkwell-dummy-password")
		if err == nil {
			a.dummyHash = h
		}
	})
	return a.dummyHash
}

// Logout implements ports.Accounts.
func (a *Accounts) Logout(ctx context.Context, actor domain.Actor) error {
	if actor.Token == nil {
		return nil
	}
	err := a.store.InTx(ctx, func(r ports.Repos) error {
		if err := r.Tokens.Delete(ctx, actor.User.ID, actor.Token.ID); err != nil {
			return err
		}
		return revoke(ctx, r, domain.Revocation{UserID: actor.User.ID, TokenID: actor.Token.ID}, a.clock.Now())
	})
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return fmt.Errorf("logout: %w", err)
	}
	return nil
}

// Authenticate implements ports.Accounts. A token with an "id|" prefix is
// found with its user by its id, in one query, and its secret compared in
// constant time; one without is found by its digest, as Sanctum does, and
// its user read after it. Either way the user is only used once the token
// has passed every check.
func (a *Accounts) Authenticate(ctx context.Context, bearer string) (domain.Actor, error) {
	p, ok := domain.ParsePlainToken(bearer)
	if !ok {
		return domain.Actor{}, domain.ErrUnauthenticated
	}
	repos := a.store.Repos()
	var t domain.Token
	var u domain.User
	var err error
	if p.ID != 0 {
		t, u, err = repos.Tokens.ByIDWithUser(ctx, p.ID)
		if err == nil && !t.MatchesSecret(p.Secret) {
			err = domain.ErrNotFound
		}
	} else {
		t, err = repos.Tokens.ByHash(ctx, domain.HashSecret(p.Secret))
		if err == nil {
			u, err = repos.Users.ByID(ctx, t.UserID)
		}
	}
	now := a.clock.Now()
	if err == nil && t.Expired(now) {
		err = domain.ErrNotFound
	}
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Actor{}, domain.ErrUnauthenticated
	}
	if err != nil {
		return domain.Actor{}, fmt.Errorf("authenticate: %w", err)
	}
	if t.NeedsTouch(now) {
		if err := repos.Tokens.Touch(ctx, t.ID, now); err != nil {
			return domain.Actor{}, fmt.Errorf("authenticate: %w", err)
		}
		t.LastUsedAt = &now
	}
	return domain.Actor{User: u, Token: &t, VerifiedEmailRequired: a.cfg.RequireVerifiedEmail}, nil
}

// issueToken creates a token for userID and returns its plain text, which
// exists only in this return value.
func issueToken(ctx context.Context, r ports.Repos, secrets ports.SecretGenerator, now time.Time, userID int64, name string, abilities []string, lifetime time.Duration) (domain.Token, domain.PlainToken, error) {
	secret := domain.NewSecret(secrets.TokenEntropy())
	t := domain.NewToken(userID, name, domain.HashSecret(secret), abilities, now, lifetime)
	if err := r.Tokens.Create(ctx, &t); err != nil {
		return domain.Token{}, domain.PlainToken{}, err
	}
	return t, domain.PlainToken{ID: t.ID, Secret: secret}, nil
}

func tooManyAttempts(retryAfter time.Duration) error {
	e := *domain.ErrTooManyAttempts
	if retryAfter < time.Second {
		retryAfter = time.Second
	}
	e.RetryAfter = retryAfter
	return &e
}

// newRememberToken makes a remember_token: RememberTokenLength random
// letters and digits, Laravel's Str::random(60).
func newRememberToken(secrets ports.SecretGenerator) string {
	var b strings.Builder
	for b.Len() < domain.RememberTokenLength {
		b.WriteString(secrets.TokenEntropy())
	}
	return b.String()[:domain.RememberTokenLength]
}
