package app_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// sessionSecret is the shape of session ids and CSRF tokens.
var sessionSecret = regexp.MustCompile(`^[A-Za-z0-9]{40}$`)

func TestSessionLifecycle(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			cookie, sess, err := w.sessions.Start(ctx, domain.SessionAPI)
			if err != nil {
				t.Fatal(err)
			}
			if !sessionSecret.MatchString(cookie) || !sessionSecret.MatchString(sess.CSRFToken) || cookie == sess.CSRFToken {
				t.Errorf("Start: cookie %q, CSRF token %q", cookie, sess.CSRFToken)
			}
			if sess.IDHash != domain.HashSecret(cookie) || sess.UserID != 0 {
				t.Errorf("Start: got %+v", sess)
			}
			stored, err := w.store.Repos().Sessions.ByHash(ctx, domain.HashSecret(cookie))
			if err != nil || stored.CSRFToken != sess.CSRFToken {
				t.Fatalf("the stored session: got %+v, %v", stored, err)
			}
			if _, err := w.sessions.Actor(ctx, sess); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("Actor of a session without a user: got %v", err)
			}

			for _, bad := range []string{"", "short", cookie + "x", "../" + cookie[3:], unknownSession} {
				if _, err := w.sessions.Find(ctx, domain.SessionAPI, bad); !errors.Is(err, domain.ErrNotFound) {
					t.Errorf("Find(%q): got %v, want domain.ErrNotFound", bad, err)
				}
			}

			// Activity within a minute is not written; later it is.
			w.clock.Advance(30 * time.Second)
			if got, err := w.sessions.Find(ctx, domain.SessionAPI, cookie); err != nil || !got.LastActivity.Equal(t0) {
				t.Errorf("Find after 30s: got %v, %v; want last activity unchanged", got.LastActivity, err)
			}
			w.clock.Advance(time.Hour)
			if got, err := w.sessions.Find(ctx, domain.SessionAPI, cookie); err != nil || !got.LastActivity.Equal(w.clock.Now()) {
				t.Errorf("Find after an hour: got %v, %v; want last activity now", got.LastActivity, err)
			}
			stored, _ = w.store.Repos().Sessions.ByHash(ctx, domain.HashSecret(cookie))
			if !stored.LastActivity.Equal(w.clock.Now()) {
				t.Errorf("stored last activity: got %v, want %v", stored.LastActivity, w.clock.Now())
			}

			// Idle for the whole lifetime, the session ends and is gone.
			w.clock.Advance(2 * time.Hour)
			if _, err := w.sessions.Find(ctx, domain.SessionAPI, cookie); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("Find of an idle session: got %v, want domain.ErrNotFound", err)
			}
			if _, err := w.store.Repos().Sessions.ByHash(ctx, domain.HashSecret(cookie)); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the idle session is still stored: %v", err)
			}

			cookie, _, _ = w.sessions.Start(ctx, domain.SessionAPI)
			if err := w.sessions.Logout(ctx, domain.SessionAPI, cookie); err != nil {
				t.Fatal(err)
			}
			if _, err := w.sessions.Find(ctx, domain.SessionAPI, cookie); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("Find after Logout: got %v", err)
			}
		})
	}
}

// unknownSession is a well-formed session id that names no session.
const unknownSession = "A123456789b123456789C123456789d123456789"

func TestSessionLogin(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			ann := w.register(t, "ann@example.com")
			before, first, err := w.sessions.Start(ctx, domain.SessionAPI)
			if err != nil {
				t.Fatal(err)
			}
			in := ports.LoginInput{Email: "ANN@example.com", Password: "password1", IP: "192.0.2.1"}
			login, err := w.sessions.Login(ctx, domain.SessionAPI, before, in)
			if err != nil {
				t.Fatal(err)
			}
			cookie, sess, u := login.Cookie, login.Session, login.User
			if u.ID != ann.User.ID || sess.UserID != u.ID {
				t.Errorf("Login: user %d, session user %d; want %d", u.ID, sess.UserID, ann.User.ID)
			}
			// Session fixation: the id known before login is worthless.
			if cookie == before || sess.CSRFToken == first.CSRFToken || !sessionSecret.MatchString(cookie) {
				t.Errorf("Login kept the id or the CSRF token: %q → %q", before, cookie)
			}
			if _, err := w.sessions.Find(ctx, domain.SessionAPI, before); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("Find of the id before login: got %v", err)
			}
			found, err := w.sessions.Find(ctx, domain.SessionAPI, cookie)
			if err != nil {
				t.Fatal(err)
			}
			actor, err := w.sessions.Actor(ctx, found)
			if err != nil || actor.User.ID != ann.User.ID || actor.Token != nil || !actor.CanAll("posts:write", "profile:update") {
				t.Errorf("Actor: got %+v, %v", actor, err)
			}
			// Session logins leave the user's tokens alone.
			if list, _ := w.tokens.List(ctx, ann); len(list) != 1 {
				t.Errorf("tokens after a session login: got %d, want 1", len(list))
			}

			// Failures count against the throttle that token logins use.
			wrong := ports.LoginInput{Email: "ann@example.com", Password: "nope-nope", IP: "192.0.2.7"}
			for range 2 {
				if _, _, err := w.accounts.Login(ctx, wrong); !errors.Is(err, domain.ErrBadCredentials) {
					t.Fatalf("token login with a wrong password: %v", err)
				}
			}
			if _, err := w.sessions.Login(ctx, domain.SessionAPI, cookie, wrong); !errors.Is(err, domain.ErrBadCredentials) {
				t.Fatalf("session login with a wrong password: %v", err)
			}
			right := wrong
			right.Password = "password1"
			if _, err := w.sessions.Login(ctx, domain.SessionAPI, cookie, right); !errors.Is(err, domain.ErrTooManyAttempts) {
				t.Errorf("session login past the limit: got %v, want domain.ErrTooManyAttempts", err)
			}

			// A user deleted after login leaves a session without an actor.
			if err := w.store.Repos().Users.Delete(ctx, ann.User.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := w.sessions.Actor(ctx, found); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("Actor of a deleted user: got %v", err)
			}
		})
	}
}

func TestSessionSweep(t *testing.T) {
	ctx := context.Background()
	w := newAccountWorld(t, directoryStores[0].Open(t))
	idle, _, err := w.sessions.Start(ctx, domain.SessionAPI)
	if err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(3 * time.Hour)
	for range 98 {
		if _, _, err := w.sessions.Start(ctx, domain.SessionAPI); err != nil {
			t.Fatal(err)
		}
	}
	hash := domain.HashSecret(idle)
	if _, err := w.store.Repos().Sessions.ByHash(ctx, hash); err != nil {
		t.Fatalf("the idle session before the sweep: %v", err)
	}
	if _, _, err := w.sessions.Start(ctx, domain.SessionAPI); err != nil {
		t.Fatal(err)
	}
	if _, err := w.store.Repos().Sessions.ByHash(ctx, hash); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the idle session after the 100th start: got %v, want domain.ErrNotFound", err)
	}
}

// Each session keeps the kind it was started with, through the login that
// replaces it, and is an unknown cookie to the other kind: not found, not
// replaced by its login and not ended by its logout. Remember-me cookies
// resume API sessions only.
func TestSessionKinds(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			w.register(t, "ann@example.com")
			in := ports.LoginInput{Email: "ann@example.com", Password: "password1", IP: "192.0.2.1", Remember: true}
			others := map[domain.SessionKind]domain.SessionKind{domain.SessionAPI: domain.SessionConsole, domain.SessionConsole: domain.SessionAPI}
			signedIn := map[domain.SessionKind]ports.SessionLogin{}
			for kind, other := range others {
				cookie, sess, err := w.sessions.Start(ctx, kind)
				if err != nil || sess.Kind != kind {
					t.Fatalf("Start(%s): got kind %q, %v", kind, sess.Kind, err)
				}
				if _, err := w.sessions.Find(ctx, other, cookie); !errors.Is(err, domain.ErrNotFound) {
					t.Errorf("Find(%s) of a %s session: got %v, want domain.ErrNotFound", other, kind, err)
				}
				if err := w.sessions.Logout(ctx, other, cookie); err != nil {
					t.Fatal(err)
				}
				theirs, err := w.sessions.Login(ctx, other, cookie, in)
				if err != nil || theirs.Session.Kind != other {
					t.Fatalf("Login(%s) with a %s session: got kind %q, %v", other, kind, theirs.Session.Kind, err)
				}
				if got, err := w.sessions.Find(ctx, kind, cookie); err != nil || got.Kind != kind {
					t.Errorf("the %s session after the %s logout and login: got %+v, %v", kind, other, got, err)
				}

				login, err := w.sessions.Login(ctx, kind, cookie, in)
				if err != nil || login.Session.Kind != kind {
					t.Fatalf("Login(%s): got kind %q, %v", kind, login.Session.Kind, err)
				}
				if _, err := w.sessions.Find(ctx, kind, cookie); !errors.Is(err, domain.ErrNotFound) {
					t.Errorf("Find(%s) of the session Login replaced: got %v", kind, err)
				}
				stored, err := w.store.Repos().Sessions.ByHash(ctx, domain.HashSecret(login.Cookie))
				if err != nil || stored.Kind != kind || stored.UserID == 0 {
					t.Errorf("the stored %s session after Login: got %+v, %v", kind, stored, err)
				}
				if _, err := w.sessions.Find(ctx, other, login.Cookie); !errors.Is(err, domain.ErrNotFound) {
					t.Errorf("Find(%s) of a signed-in %s session: got %v, want domain.ErrNotFound", other, kind, err)
				}
				signedIn[kind] = login
			}

			console := signedIn[domain.SessionConsole]
			value, sess, err := w.sessions.Resume(ctx, console.Cookie, console.Remember)
			if err != nil || sess.Kind != domain.SessionAPI {
				t.Fatalf("Resume: got kind %q, %v; want an API session", sess.Kind, err)
			}
			if _, err := w.sessions.Find(ctx, domain.SessionAPI, value); err != nil {
				t.Errorf("Find(api) of the resumed session: %v", err)
			}
			if _, err := w.sessions.Find(ctx, domain.SessionConsole, console.Cookie); err != nil {
				t.Errorf("the console session after a Resume that named it: %v", err)
			}
		})
	}
}

// TestSessionRegister checks that a registration by session makes the
// account as a token registration does, mails its first verification link,
// issues no token and signs in a new session in place of the anonymous one;
// a taken address changes nothing.
func TestSessionRegister(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			cookie, _, err := w.sessions.Start(ctx, domain.SessionAPI)
			if err != nil {
				t.Fatal(err)
			}
			in := ports.RegisterInput{Name: "Ann", Email: "ann@example.com", Password: "password1", LinkBase: "https://api.example.org"}
			login, err := w.sessions.Register(ctx, cookie, in)
			if err != nil {
				t.Fatal(err)
			}
			if login.User.ID == 0 || login.User.Email != "ann@example.com" || login.Remember != "" || login.Cookie == cookie {
				t.Errorf("Register: got %+v", login)
			}
			if _, err := w.sessions.Find(ctx, domain.SessionAPI, cookie); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the anonymous session lives on: %v", err)
			}
			sess, err := w.sessions.Find(ctx, domain.SessionAPI, login.Cookie)
			if err != nil || sess.UserID != login.User.ID {
				t.Fatalf("the new session: got %+v, %v", sess, err)
			}
			if actor, err := w.sessions.Actor(ctx, sess); err != nil || actor.User.ID != login.User.ID {
				t.Errorf("Actor: got %+v, %v", actor, err)
			}
			if tokens, err := w.store.Repos().Tokens.ListByUser(ctx, login.User.ID); err != nil || len(tokens) != 0 {
				t.Errorf("tokens: got %d, %v; want none", len(tokens), err)
			}
			now := w.clock.Now()
			mails, err := w.store.Repos().Mails.Claim(ctx, now, now.Add(time.Hour), 10)
			if err != nil || len(mails) != 1 || mails[0].To != "ann@example.com" || !strings.Contains(mails[0].Text, "https://api.example.org/api/v1/verify-email/") {
				t.Errorf("mails: got %+v, %v; want Ann's verification link", mails, err)
			}

			other, _, _ := w.sessions.Start(ctx, domain.SessionAPI)
			if _, err := w.sessions.Register(ctx, other, in); !errors.Is(err, domain.ErrEmailTaken) {
				t.Errorf("Register of a taken address: got %v, want domain.ErrEmailTaken", err)
			}
			if sess, err := w.sessions.Find(ctx, domain.SessionAPI, other); err != nil || sess.UserID != 0 {
				t.Errorf("the session of a refused registration: got %+v, %v", sess, err)
			}
		})
	}
}
