package app

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// SessionsConfig holds the settings of browser sessions.
type SessionsConfig struct {
	// Lifetime is how long a session may stay idle before it ends.
	Lifetime time.Duration
	// Key is APP_KEY, which signs remember-me cookies.
	Key []byte
}

// sweepEvery is how many new sessions pass between two sweeps of idle ones.
// Sessions are started by anonymous visitors too, so without a sweep the
// table would only grow; Laravel's session lottery sweeps on 2 requests in
// 100, and a count makes the same rate without randomness.
const sweepEvery = 100

// Sessions implements ports.Sessions.
type Sessions struct {
	store    ports.Store
	accounts *Accounts
	secrets  ports.SecretGenerator
	clock    ports.Clock
	cfg      SessionsConfig
	started  atomic.Uint64
}

// NewSessions returns the browser session use cases. Logins go through
// accounts, so that both kinds of login share one throttle and one
// credential check.
func NewSessions(store ports.Store, accounts *Accounts, secrets ports.SecretGenerator, clock ports.Clock, cfg SessionsConfig) *Sessions {
	return &Sessions{store: store, accounts: accounts, secrets: secrets, clock: clock, cfg: cfg}
}

var _ ports.Sessions = (*Sessions)(nil)

// Start implements ports.Sessions.
func (s *Sessions) Start(ctx context.Context, kind domain.SessionKind) (string, domain.Session, error) {
	now := s.clock.Now()
	cookie, sess := s.newSession(kind, 0, now)
	if err := s.store.Repos().Sessions.Create(ctx, sess); err != nil {
		return "", domain.Session{}, fmt.Errorf("start session: %w", err)
	}
	if s.started.Add(1)%sweepEvery == 0 {
		if _, err := s.store.Repos().Sessions.DeleteIdle(ctx, now.Add(-s.cfg.Lifetime)); err != nil {
			return "", domain.Session{}, fmt.Errorf("sweep idle sessions: %w", err)
		}
	}
	return cookie, sess, nil
}

// Find implements ports.Sessions. A value that can't be a cookie of this
// service is not looked up at all, and a session of the other kind is
// neither ended nor touched: the transport asking has no say over it.
func (s *Sessions) Find(ctx context.Context, kind domain.SessionKind, cookie string) (domain.Session, error) {
	if !wellFormed(cookie) {
		return domain.Session{}, domain.ErrNotFound
	}
	repos := s.store.Repos()
	sess, err := repos.Sessions.ByHash(ctx, domain.HashSecret(cookie))
	if err != nil {
		return domain.Session{}, fmt.Errorf("find session: %w", err)
	}
	if sess.Kind != kind {
		return domain.Session{}, fmt.Errorf("find session: a %s session asked for as %s: %w", sess.Kind, kind, domain.ErrNotFound)
	}
	now := s.clock.Now()
	if sess.Expired(now, s.cfg.Lifetime) {
		if err := repos.Sessions.Delete(ctx, sess.IDHash); err != nil {
			return domain.Session{}, fmt.Errorf("end idle session: %w", err)
		}
		return domain.Session{}, domain.ErrNotFound
	}
	if sess.NeedsTouch(now) {
		if err := repos.Sessions.Touch(ctx, sess.IDHash, now); err != nil {
			return domain.Session{}, fmt.Errorf("touch session: %w", err)
		}
		sess.LastActivity = now
	}
	return sess, nil
}

// Login implements ports.Sessions. The session that carried the login is
// replaced, not updated: a new id and a new CSRF token defeat session
// fixation, where somebody plants a cookie they know before the victim
// logs in. The kind comes from the caller, not from the session replaced,
// which may have ended since the transport found it.
func (s *Sessions) Login(ctx context.Context, kind domain.SessionKind, cookie string, in ports.LoginInput) (ports.SessionLogin, error) {
	var out ports.SessionLogin
	u, err := s.accounts.login(ctx, in, func(r ports.Repos, u domain.User, now time.Time) error {
		if err := s.signIn(ctx, r, kind, cookie, u, now, &out); err != nil {
			return err
		}
		if in.Remember {
			// One token serves every device the user is remembered on, as
			// Laravel's; it is made the first time one is asked for.
			token := u.RememberToken
			if token == "" {
				token = newRememberToken(s.secrets)
				if err := r.Users.SetRememberToken(ctx, u.ID, token); err != nil {
					return err
				}
			}
			out.Remember = domain.RememberCookie(s.cfg.Key, u.ID, token)
		}
		return nil
	})
	if err != nil {
		return ports.SessionLogin{}, err
	}
	out.User = u
	return out, nil
}

// Register implements ports.Sessions: the account is made as
// Accounts.Register makes it, with the same checks and the same first
// verification mail, and its credential is a session rather than a token.
// Only the API registers by session, so the session is an API one.
func (s *Sessions) Register(ctx context.Context, cookie string, in ports.RegisterInput) (ports.SessionLogin, error) {
	var out ports.SessionLogin
	u, err := s.accounts.register(ctx, in, func(r ports.Repos, u domain.User, now time.Time) error {
		return s.signIn(ctx, r, domain.SessionAPI, cookie, u, now, &out)
	})
	if err != nil {
		return ports.SessionLogin{}, err
	}
	out.User = u
	return out, nil
}

// signIn binds u to a new session of kind in r, ending the one of that
// kind cookie names, and puts the new session and its cookie into out.
func (s *Sessions) signIn(ctx context.Context, r ports.Repos, kind domain.SessionKind, cookie string, u domain.User, now time.Time, out *ports.SessionLogin) error {
	ended, err := endSession(ctx, r, kind, domain.HashSecret(cookie))
	if err != nil {
		return err
	}
	out.Cookie, out.Session = s.newSession(kind, u.ID, now)
	if err := r.Sessions.Create(ctx, out.Session); err != nil {
		return err
	}
	if ended == nil {
		return nil
	}
	return revoke(ctx, r, *ended, now)
}

// Resume implements ports.Sessions. Remember-me cookies are set by the
// API's session login only, so the session resumed is an API one. The
// cookie's signature is checked
// before anything is read; the token is then compared in constant time
// with the user's, inside the transaction that makes the session, so that
// a rotation at the same moment wins.
func (s *Sessions) Resume(ctx context.Context, cookie, remember string) (string, domain.Session, error) {
	id, token, ok := domain.ParseRememberCookie(s.cfg.Key, remember)
	if !ok {
		return "", domain.Session{}, domain.ErrUnauthenticated
	}
	now := s.clock.Now()
	var value string
	var sess domain.Session
	err := s.store.InTx(ctx, func(r ports.Repos) error {
		u, err := r.Users.Lock(ctx, id)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.ErrUnauthenticated
		}
		if err != nil {
			return err
		}
		if u.RememberToken == "" || subtle.ConstantTimeCompare([]byte(u.RememberToken), []byte(token)) != 1 {
			return domain.ErrUnauthenticated
		}
		var ended *domain.Revocation
		if cookie != "" {
			if ended, err = endSession(ctx, r, domain.SessionAPI, domain.HashSecret(cookie)); err != nil {
				return err
			}
		}
		value, sess = s.newSession(domain.SessionAPI, u.ID, now)
		if err := r.Sessions.Create(ctx, sess); err != nil || ended == nil {
			return err
		}
		return revoke(ctx, r, *ended, now)
	})
	if err != nil {
		return "", domain.Session{}, fmt.Errorf("resume session: %w", err)
	}
	return value, sess, nil
}

// Logout implements ports.Sessions. It also rotates the user's
// remember_token, so that no remember-me cookie outlives the logout.
func (s *Sessions) Logout(ctx context.Context, kind domain.SessionKind, cookie string) error {
	err := s.store.InTx(ctx, func(r ports.Repos) error {
		ended, err := endSession(ctx, r, kind, domain.HashSecret(cookie))
		if err != nil || ended == nil {
			return err
		}
		err = r.Users.SetRememberToken(ctx, ended.UserID, newRememberToken(s.secrets))
		if errors.Is(err, domain.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return revoke(ctx, r, *ended, s.clock.Now())
	})
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// endSession deletes the session of kind idHash names and returns the
// revocation to record when a user was signed in with it; nil when it was
// nobody's or is gone already, since no event stream can have been read
// with it. A session of the other kind is left alone, as Find leaves it.
func endSession(ctx context.Context, r ports.Repos, kind domain.SessionKind, idHash string) (*domain.Revocation, error) {
	sess, err := r.Sessions.ByHash(ctx, idHash)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if sess.Kind != kind {
		return nil, nil
	}
	if err := r.Sessions.Delete(ctx, idHash); err != nil {
		return nil, err
	}
	if sess.UserID == 0 {
		return nil, nil
	}
	return &domain.Revocation{UserID: sess.UserID, SessionHash: idHash}, nil
}

// Actor implements ports.Sessions. The actor has no token, which the
// domain reads as every ability, as Sanctum treats its session guard.
func (s *Sessions) Actor(ctx context.Context, sess domain.Session) (domain.Actor, error) {
	if sess.UserID == 0 {
		return domain.Actor{}, domain.ErrUnauthenticated
	}
	u, err := s.store.Repos().Users.ByID(ctx, sess.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Actor{}, domain.ErrUnauthenticated
	}
	if err != nil {
		return domain.Actor{}, fmt.Errorf("session user: %w", err)
	}
	return domain.Actor{User: u, VerifiedEmailRequired: s.accounts.cfg.RequireVerifiedEmail}, nil
}

// newSession makes a session of kind for userID (0: nobody yet) and the
// cookie value that names it, which exists only in this return value.
func (s *Sessions) newSession(kind domain.SessionKind, userID int64, now time.Time) (string, domain.Session) {
	cookie := s.secrets.TokenEntropy()
	return cookie, domain.Session{
		IDHash:       domain.HashSecret(cookie),
		Kind:         kind,
		UserID:       userID,
		CSRFToken:    s.secrets.TokenEntropy(),
		LastActivity: now,
		CreatedAt:    now,
	}
}

// wellFormed reports whether cookie has the shape of a session id: 40
// letters and digits, as ports.SecretGenerator makes them.
func wellFormed(cookie string) bool {
	if len(cookie) != 40 {
		return false
	}
	for i := 0; i < len(cookie); i++ {
		c := cookie[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
