package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// adminSetupLifetime is how long a setup link works.
const adminSetupLifetime = time.Hour

// Create implements ports.AdminRights. The password is hashed before the
// transaction, so the slow hash holds no lock.
func (a *AdminRights) Create(ctx context.Context, in ports.NewAdminInput) (domain.User, error) {
	u, err := a.newAdmin(in)
	if err != nil {
		return domain.User{}, fmt.Errorf("create admin: %w", err)
	}
	err = a.store.InTx(ctx, func(r ports.Repos) error { return makeAdmin(ctx, r, &u) })
	if err != nil {
		return domain.User{}, fmt.Errorf("create admin: %w", err)
	}
	return u, nil
}

// newAdmin checks in as registration does and returns the account to
// store, verified as of now: its address was typed by the operator or by
// whoever holds the setup link, not proven by mail, and an admin who can
// sign in only after a mail arrives could not set the mail up.
func (a *AdminRights) newAdmin(in ports.NewAdminInput) (domain.User, error) {
	if err := domain.CheckAccount(in.Name, in.Email, in.Password); err != nil {
		return domain.User{}, err
	}
	hash, err := a.hasher.Hash(in.Password)
	if err != nil {
		return domain.User{}, err
	}
	now := a.clock.Now()
	return domain.User{
		Name: in.Name, Email: in.Email, PasswordHash: hash,
		EmailVerifiedAt: &now, CreatedAt: now, UpdatedAt: now,
	}, nil
}

// makeAdmin stores u and gives it admin rights in r's transaction.
func makeAdmin(ctx context.Context, r ports.Repos, u *domain.User) error {
	if err := r.Users.Create(ctx, u); err != nil {
		return err
	}
	if err := r.Admin.SetAdmin(ctx, u.ID, true); err != nil {
		return err
	}
	u.IsAdmin = true
	return nil
}

// AdminSetup implements ports.AdminSetup.
type AdminSetup struct {
	rights *AdminRights
	key    []byte
}

var _ ports.AdminSetup = (*AdminSetup)(nil)

// NewAdminSetup returns the first admin's use cases, whose links key
// (APP_KEY) signs.
func NewAdminSetup(rights *AdminRights, key []byte) *AdminSetup {
	return &AdminSetup{rights: rights, key: key}
}

// Link implements ports.AdminSetup.
func (s *AdminSetup) Link(ctx context.Context, base string) (string, bool, error) {
	admins, err := s.rights.store.Repos().Admin.Admins(ctx)
	if err != nil {
		return "", false, fmt.Errorf("admin setup link: %w", err)
	}
	if len(admins) > 0 {
		return "", false, nil
	}
	expires := s.rights.clock.Now().Add(adminSetupLifetime)
	return strings.TrimRight(base, "/") + domain.SignPath(s.key, ports.AdminSetupPath, expires), true, nil
}

// Check implements ports.AdminSetup. The signature is checked before
// anything is read, so a forged link costs one HMAC.
func (s *AdminSetup) Check(ctx context.Context, path, rawQuery string) error {
	if err := s.checkLink(path, rawQuery); err != nil {
		return err
	}
	admins, err := s.rights.store.Repos().Admin.Admins(ctx)
	if err != nil {
		return fmt.Errorf("check admin setup link: %w", err)
	}
	if len(admins) > 0 {
		return domain.ErrAdminExists
	}
	return nil
}

// checkLink checks the signature and expiry of a setup link, whose path
// must be the setup's own: a verification link's signature proves nothing
// here.
func (s *AdminSetup) checkLink(path, rawQuery string) error {
	if path != ports.AdminSetupPath {
		return domain.ErrInvalidSignature
	}
	return domain.CheckSignedPath(s.key, path, rawQuery, s.rights.clock.Now())
}

// Setup implements ports.AdminSetup. The transaction takes the admins'
// lock before it looks for an admin, so a concurrent setup waits for this
// one's commit and then finds its admin.
func (s *AdminSetup) Setup(ctx context.Context, in ports.AdminSetupInput) (domain.User, error) {
	if err := s.checkLink(in.Path, in.RawQuery); err != nil {
		return domain.User{}, err
	}
	u, err := s.rights.newAdmin(in.NewAdminInput)
	if err != nil {
		return domain.User{}, fmt.Errorf("set up the first admin: %w", err)
	}
	err = s.rights.store.InTx(ctx, func(r ports.Repos) error {
		if err := r.Admin.LockAdmins(ctx); err != nil {
			return err
		}
		admins, err := r.Admin.Admins(ctx)
		if err != nil {
			return err
		}
		if len(admins) > 0 {
			return domain.ErrAdminExists
		}
		return makeAdmin(ctx, r, &u)
	})
	if err != nil {
		return domain.User{}, fmt.Errorf("set up the first admin: %w", err)
	}
	return u, nil
}
