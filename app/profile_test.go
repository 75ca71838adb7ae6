package app_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// memFiles is a ports.FileStore in memory that remembers what it holds.
type memFiles struct {
	mu    sync.Mutex
	n     int
	files map[string][]byte
}

func (f *memFiles) Save(_ context.Context, dir string, data []byte, ext string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	path := fmt.Sprintf("%s/%d%s", dir, f.n, ext)
	if f.files == nil {
		f.files = map[string][]byte{}
	}
	f.files[path] = bytes.Clone(data)
	return path, nil
}

func (f *memFiles) Open(_ context.Context, path string) (ports.StoredFile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	data, ok := f.files[path]
	if !ok {
		return ports.StoredFile{}, domain.ErrNotFound
	}
	return ports.StoredFile{Body: io.NopCloser(bytes.NewReader(data)), Size: int64(len(data))}, nil
}

func (f *memFiles) Delete(_ context.Context, path string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.files, path)
	delete(f.files, ports.TrashedFilePath(path))
	return nil
}

func (f *memFiles) MoveToTrash(_ context.Context, path string) error {
	f.move(path, ports.TrashedFilePath(path))
	return nil
}

func (f *memFiles) MoveFromTrash(_ context.Context, path string) error {
	f.move(ports.TrashedFilePath(path), path)
	return nil
}

func (f *memFiles) move(from, to string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if data, ok := f.files[from]; ok {
		f.files[to] = data
		delete(f.files, from)
	}
}

// held lists the files kept, sorted.
func (f *memFiles) held() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for p := range f.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// accountWorld is the service's use cases over one store, with a clock tests
// move and files tests inspect.
type accountWorld struct {
	store    ports.Store
	clock    *clock.Fixed
	files    *memFiles
	accounts ports.Accounts
	tokens   ports.Tokens
	profile  ports.Profile
	sessions ports.Sessions
	posts    ports.Posts
	comments ports.Comments
	webhooks ports.Webhooks
	tags     ports.Tags
}

const lifetime = 10080 * time.Minute

func newAccountWorld(t *testing.T, store ports.Store) *accountWorld {
	files := &memFiles{}
	stack := stacktest.NewStack(t, store, stacktest.Options{LoginMaxAttempts: 3, TokenLifetime: lifetime, SessionLifetime: 2 * time.Hour, Files: files})
	svc := stack.Services
	return &accountWorld{
		store:    store,
		clock:    stack.Clock,
		files:    files,
		accounts: svc.Accounts,
		tokens:   svc.Tokens,
		profile:  svc.Profile,
		sessions: svc.Sessions,
		posts:    svc.Posts,
		comments: svc.Comments,
		webhooks: svc.Webhooks,
		tags:     svc.Tags,
	}
}

// register makes an account with the password "password1" and returns the
// actor of its registration token.
func (w *accountWorld) register(t *testing.T, email string) domain.Actor {
	t.Helper()
	ctx := context.Background()
	_, plain, err := w.accounts.Register(ctx, ports.RegisterInput{Name: "Ann", Email: email, Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	actor, err := w.accounts.Authenticate(ctx, plain.String())
	if err != nil {
		t.Fatal(err)
	}
	return actor
}

// sessionActor logs email in through a browser session.
func (w *accountWorld) sessionActor(t *testing.T, email string) (domain.Actor, string) {
	t.Helper()
	ctx := context.Background()
	cookie, _, err := w.sessions.Start(ctx, domain.SessionAPI)
	if err != nil {
		t.Fatal(err)
	}
	login, err := w.sessions.Login(ctx, domain.SessionAPI, cookie, ports.LoginInput{Email: email, Password: "password1", IP: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	cookie, sess := login.Cookie, login.Session
	actor, err := w.sessions.Actor(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	return actor, cookie
}

// checkCurrentPassword checks that err is the invalid current_password
// field, which broke Laravel's current_password rule.
func checkCurrentPassword(t *testing.T, what string, err error) {
	t.Helper()
	de, ok := domain.AsError(err)
	if !ok || de.Kind != domain.Invalid || !slices.Equal(de.Rules("current_password"), []domain.Rule{domain.RuleCurrentPassword}) {
		t.Errorf("%s: got %v, want the invalid field current_password", what, err)
	}
}

func TestProfileUpdate(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			ann := w.register(t, "ann@example.com")
			w.register(t, "taken@example.com")
			w.clock.Advance(time.Hour)

			// A name needs no password.
			u, token, err := w.profile.Update(ctx, ann, ports.ProfileInput{Name: ports.Some("Ann Lee")}, ports.Precondition{})
			if err != nil || token != nil || u.Name != "Ann Lee" || !u.UpdatedAt.Equal(t0.Add(time.Hour)) {
				t.Fatalf("rename: got %+v, %v, %v", u, token, err)
			}
			// Sending the e-mail unchanged needs none either.
			if _, _, err := w.profile.Update(ctx, ann, ports.ProfileInput{Email: ports.Some("ann@example.com")}, ports.Precondition{}); err != nil {
				t.Errorf("same e-mail: %v", err)
			}

			for _, pw := range []string{"", "wrong-password"} {
				_, _, err := w.profile.Update(ctx, ann, ports.ProfileInput{Email: ports.Some("new@example.com"), CurrentPassword: pw}, ports.Precondition{})
				checkCurrentPassword(t, fmt.Sprintf("e-mail with current password %q", pw), err)
				_, _, err = w.profile.Update(ctx, ann, ports.ProfileInput{Password: ports.Some("password2"), CurrentPassword: pw}, ports.Precondition{})
				checkCurrentPassword(t, fmt.Sprintf("password with current password %q", pw), err)
			}
			_, _, err = w.profile.Update(ctx, ann, ports.ProfileInput{Email: ports.Some("TAKEN@example.com"), CurrentPassword: "password1"}, ports.Precondition{})
			if !errors.Is(err, domain.ErrEmailTaken) {
				t.Errorf("taken e-mail: got %v, want domain.ErrEmailTaken", err)
			}
			u, token, err = w.profile.Update(ctx, ann, ports.ProfileInput{Email: ports.Some("Ann.Lee@example.com"), CurrentPassword: "password1"}, ports.Precondition{})
			if err != nil || token != nil || u.Email != "Ann.Lee@example.com" {
				t.Fatalf("new e-mail: got %+v, %v, %v", u, token, err)
			}
			// Nothing but the e-mail changed, so the tokens live on.
			if list, _ := w.tokens.List(ctx, ann); len(list) != 1 {
				t.Errorf("tokens after an e-mail change: got %d, want 1", len(list))
			}
		})
	}
}

func TestProfilePasswordChange(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			w.register(t, "ann@example.com")
			// A login token, holding posts:read and posts:write, presents
			// the change, beside a browser session of the same user.
			_, login, err := w.accounts.Login(ctx, ports.LoginInput{Email: "ann@example.com", Password: "password1", IP: "192.0.2.1"})
			if err != nil {
				t.Fatal(err)
			}
			actor, err := w.accounts.Authenticate(ctx, login.String())
			if err != nil {
				t.Fatal(err)
			}
			_, cookie := w.sessionActor(t, "ann@example.com")
			other := w.register(t, "bob@example.com")
			_, otherCookie := w.sessionActor(t, "bob@example.com")

			w.clock.Advance(time.Minute)
			u, fresh, err := w.profile.Update(ctx, actor, ports.ProfileInput{Password: ports.Some("password2"), CurrentPassword: "password1"}, ports.Precondition{})
			if err != nil || fresh == nil {
				t.Fatalf("change password: got %v, %v", fresh, err)
			}
			if _, err := w.accounts.Authenticate(ctx, login.String()); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("the old token after a password change: got %v, want domain.ErrUnauthenticated", err)
			}
			if _, err := w.sessions.Find(ctx, domain.SessionAPI, cookie); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the session after a password change: got %v, want domain.ErrNotFound", err)
			}
			now := w.clock.Now()
			got, err := w.accounts.Authenticate(ctx, fresh.String())
			if err != nil {
				t.Fatalf("the fresh token: %v", err)
			}
			if tok := got.Token; tok.Name != "auth_token" || !slices.Equal(tok.Abilities, []string{"posts:read", "posts:write"}) ||
				tok.ExpiresAt == nil || !tok.ExpiresAt.Equal(now.Add(lifetime)) || got.User.ID != u.ID {
				t.Errorf("the fresh token: got %+v", tok)
			}
			// Somebody else keeps their credentials.
			if _, err := w.sessions.Find(ctx, domain.SessionAPI, otherCookie); err != nil {
				t.Errorf("another user's session: %v", err)
			}
			if list, _ := w.tokens.List(ctx, other); len(list) != 1 {
				t.Errorf("another user's tokens: got %d, want 1", len(list))
			}
			// The new password logs in, the old one no longer does.
			if _, _, err := w.accounts.Login(ctx, ports.LoginInput{Email: "ann@example.com", Password: "password1", IP: "192.0.2.9"}); !errors.Is(err, domain.ErrBadCredentials) {
				t.Errorf("login with the old password: %v", err)
			}
			if _, _, err := w.accounts.Login(ctx, ports.LoginInput{Email: "ann@example.com", Password: "password2", IP: "192.0.2.9"}); err != nil {
				t.Errorf("login with the new password: %v", err)
			}

			// A browser session changing the password gets a token with
			// every ability.
			sessionActor, _ := w.sessionActor(t, "bob@example.com")
			_, fresh, err = w.profile.Update(ctx, sessionActor, ports.ProfileInput{Password: ports.Some("password3"), CurrentPassword: "password1"}, ports.Precondition{})
			if err != nil {
				t.Fatal(err)
			}
			if got, err := w.accounts.Authenticate(ctx, fresh.String()); err != nil || !slices.Equal(got.Token.Abilities, []string{"*"}) {
				t.Errorf("token of a session's password change: got %+v, %v", got.Token, err)
			}
			if _, err := w.sessions.Find(ctx, domain.SessionAPI, otherCookie); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("Bob's other session after his password change: got %v", err)
			}

			// An actor authenticated before the password changed can't
			// change the e-mail with the old password, even though it
			// matches the hash the actor carries.
			_, _, err = w.profile.Update(ctx, actor, ports.ProfileInput{Email: ports.Some("x@example.com"), CurrentPassword: "password1"}, ports.Precondition{})
			checkCurrentPassword(t, "an e-mail change checked against a replaced hash", err)
		})
	}
}

func TestProfileAvatar(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			ann := w.register(t, "ann@example.com")
			u, err := w.profile.SetAvatar(ctx, ann, uploadOf(t, "png", 1, 1))
			if err != nil || u.AvatarPath != "avatars/1.png" {
				t.Fatalf("first avatar: got %q, %v", u.AvatarPath, err)
			}
			u, err = w.profile.SetAvatar(ctx, ann, uploadOf(t, "gif", 1, 1))
			if err != nil || u.AvatarPath != "avatars/2.gif" {
				t.Fatalf("second avatar: got %q, %v", u.AvatarPath, err)
			}
			if got := w.files.held(); !slices.Equal(got, []string{"avatars/2.gif"}) {
				t.Errorf("files after replacing the avatar: got %v", got)
			}
			// A failed transaction leaves no file behind.
			gone := domain.Actor{User: domain.User{ID: 999}}
			if _, err := w.profile.SetAvatar(ctx, gone, uploadOf(t, "png", 1, 1)); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("avatar of a deleted user: got %v", err)
			}
			if got := w.files.held(); !slices.Equal(got, []string{"avatars/2.gif"}) {
				t.Errorf("files after a failed update: got %v", got)
			}
		})
	}
}

func TestProfileDelete(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			w := newAccountWorld(t, s.Open(t))
			ann := w.register(t, "ann@example.com")
			bob := w.register(t, "bob@example.com")
			if _, err := w.profile.SetAvatar(ctx, ann, uploadOf(t, "png", 1, 1)); err != nil {
				t.Fatal(err)
			}
			img := ptr(uploadOf(t, "jpeg", 1, 1))
			mine, err := w.posts.Create(ctx, ann, ports.PostInput{Title: "Mine", Body: "B", Status: domain.StatusPublished, Image: img})
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := w.posts.Create(ctx, bob, ports.PostInput{Title: "Theirs", Body: "B", Status: domain.StatusPublished, Image: img})
			if err != nil {
				t.Fatal(err)
			}
			_, cookie := w.sessionActor(t, "ann@example.com")

			checkCurrentPassword(t, "delete with a wrong password", w.profile.Delete(ctx, ann, "wrong-password", ports.Precondition{}))
			if err := w.profile.Delete(ctx, ann, "password1", ports.Precondition{}); err != nil {
				t.Fatalf("delete: %v", err)
			}
			if _, err := w.store.Repos().Users.ByID(ctx, ann.User.ID); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the user after deletion: %v", err)
			}
			if _, err := w.store.Repos().Tokens.ByID(ctx, ann.Token.ID); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the token after deletion: %v", err)
			}
			if _, err := w.sessions.Find(ctx, domain.SessionAPI, cookie); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the session after deletion: %v", err)
			}
			if _, err := w.store.Repos().Posts.Get(ctx, mine.Post.ID()); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("the post after deletion: %v", err)
			}
			if got, want := w.files.held(), []string{theirs.Post.ImagePath()}; !slices.Equal(got, want) {
				t.Errorf("files after deletion: got %v, want %v", got, want)
			}
			if err := w.profile.Delete(ctx, ann, "password1", ports.Precondition{}); !errors.Is(err, domain.ErrUnauthenticated) {
				t.Errorf("deleting twice: got %v, want domain.ErrUnauthenticated", err)
			}
		})
	}
}
