package app

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// PasswordResetConfig holds the settings of the forgotten-password flow.
type PasswordResetConfig struct {
	// Lifetime is how long a reset link works; an hour when zero
	// (PASSWORD_RESET_EXPIRE).
	Lifetime time.Duration
	// Throttle is the least time between two reset mails to one address;
	// zero turns the limit off (PASSWORD_RESET_THROTTLE).
	Throttle time.Duration
}

// PasswordResets implements ports.PasswordResets.
type PasswordResets struct {
	store   ports.Store
	hasher  ports.PasswordHasher
	secrets ports.SecretGenerator
	clock   ports.Clock
	outbox  *Outbox
	cfg     PasswordResetConfig
}

var _ ports.PasswordResets = (*PasswordResets)(nil)

// NewPasswordResets returns the forgotten-password use cases, whose mails
// leave through outbox.
func NewPasswordResets(store ports.Store, hasher ports.PasswordHasher, secrets ports.SecretGenerator, clock ports.Clock, outbox *Outbox, cfg PasswordResetConfig) *PasswordResets {
	if cfg.Lifetime <= 0 {
		cfg.Lifetime = time.Hour
	}
	return &PasswordResets{store: store, hasher: hasher, secrets: secrets, clock: clock, outbox: outbox, cfg: cfg}
}

// resetThrottleKey is the rate-limit key that counts the reset mails to
// one address, the same for every spelling of it.
func resetThrottleKey(email string) string { return "password-reset:" + domain.EmailKey(email) }

// Request implements ports.PasswordResets. Every well-formed address takes
// the same path through the store: one count of the throttle, one lookup,
// and, within the throttle, one transaction that renders the mail and
// commits a write. A known address's transaction stores the reset and the
// mail; an unknown one's counts the throttle's hit again, which changes no
// decision (the count is past one either way) but makes its commit write
// as a known one's does, so the two cannot be told apart by the answer nor
// by its time.
func (p *PasswordResets) Request(ctx context.Context, email, linkBase string) error {
	if rules := domain.CheckEmail(email); rules != nil {
		return domain.InvalidField("email", rules...)
	}
	now := p.clock.Now()
	if p.cfg.Throttle > 0 {
		hits, _, err := p.store.Repos().RateLimits.Hit(ctx, resetThrottleKey(email), p.cfg.Throttle, now)
		if err != nil {
			return fmt.Errorf("request password reset: %w", err)
		}
		if hits > 1 {
			return nil // the mailed link stays valid; nothing changes
		}
	}
	u, err := p.store.Repos().Users.ByEmail(ctx, email)
	known := err == nil
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return fmt.Errorf("request password reset: %w", err)
	}
	if !known {
		u = domain.User{Name: "", Email: email}
	}
	token, data := p.link(u, linkBase)
	err = p.store.InTx(ctx, func(r ports.Repos) error {
		if !known {
			// The work of a known address, short of keeping anything.
			if p.cfg.Throttle > 0 {
				if _, _, err := r.RateLimits.Hit(ctx, resetThrottleKey(email), p.cfg.Throttle, now); err != nil {
					return err
				}
			}
			_, err := p.outbox.Render(ports.MailPasswordReset, data)
			return err
		}
		return p.keep(ctx, r, u, token, data, now)
	})
	if errors.Is(err, domain.ErrNotFound) {
		return nil // the account went meanwhile
	}
	if err != nil {
		return fmt.Errorf("request password reset: %w", err)
	}
	p.outbox.Wake()
	return nil
}

// link makes a fresh reset token for u and the data of the mail that
// carries its link below linkBase.
func (p *PasswordResets) link(u domain.User, linkBase string) (string, map[string]string) {
	token := domain.ResetTokenOf(p.secrets.Key(domain.ResetTokenBytes))
	return token, map[string]string{
		"name":    u.Name,
		"url":     linkBase + "/password-reset/" + token + "?email=" + url.QueryEscape(u.Email),
		"minutes": strconv.Itoa(int(p.cfg.Lifetime / time.Minute)),
	}
}

// keep stores token as u's live reset, replacing the one before, and
// enqueues its mail, in r's transaction; the caller wakes the outbox after
// the commit. Request and the admin's SendReset both end here.
func (p *PasswordResets) keep(ctx context.Context, r ports.Repos, u domain.User, token string, data map[string]string, now time.Time) error {
	if err := r.PasswordResets.Put(ctx, domain.NewPasswordReset(u.ID, token, now, p.cfg.Lifetime)); err != nil {
		return err
	}
	_, err := p.outbox.Enqueue(ctx, r, u.Email, ports.MailPasswordReset, data, p.cfg.Lifetime)
	return err
}

// Reset implements ports.PasswordResets. The new password is hashed
// before anything is read, so a wrong token costs as long as a right one.
func (p *PasswordResets) Reset(ctx context.Context, in ports.ResetPasswordInput) error {
	var vs domain.Violations
	if in.Token == "" {
		vs.Add("token", []domain.Rule{domain.RuleRequired})
	}
	vs.Add("email", domain.CheckEmail(in.Email))
	vs.Add("password", domain.CheckPassword(in.Password))
	if err := vs.Err(); err != nil {
		return err
	}
	hash, err := p.hasher.Hash(in.Password)
	if err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	err = p.store.InTx(ctx, func(r ports.Repos) error {
		found, err := r.Users.ByEmail(ctx, in.Email)
		if err != nil {
			return err
		}
		u, err := r.Users.Lock(ctx, found.ID)
		if err != nil {
			return err
		}
		reset, err := r.PasswordResets.ByUser(ctx, u.ID)
		if err != nil {
			return err
		}
		now := p.clock.Now()
		if !reset.Accepts(in.Token, now) {
			return domain.ErrResetToken
		}
		u.PasswordHash, u.RememberToken, u.UpdatedAt = hash, newRememberToken(p.secrets), now
		if u.EmailVerifiedAt == nil {
			u.EmailVerifiedAt = &now // the mailbox was proven
		}
		if err := r.Users.Update(ctx, u); err != nil {
			return err
		}
		if _, err := r.Tokens.DeleteByUser(ctx, u.ID); err != nil {
			return err
		}
		if _, err := r.Sessions.DeleteByUser(ctx, u.ID); err != nil {
			return err
		}
		if err := r.PasswordResets.DeleteByUser(ctx, u.ID); err != nil {
			return err
		}
		// Streams read with the ended tokens and sessions end too, on
		// every replica.
		return revoke(ctx, r, domain.Revocation{UserID: u.ID, AllTokens: true, AllSessions: true}, now)
	})
	if errors.Is(err, domain.ErrNotFound) {
		return domain.ErrResetToken
	}
	if err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	return nil
}
