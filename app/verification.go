package app

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// VerificationConfig holds the settings of e-mail verification links.
type VerificationConfig struct {
	// Key is APP_KEY, which signs the links.
	Key []byte
	// Expire is how long a link stays valid (VERIFICATION_EXPIRE); an
	// hour when zero.
	Expire time.Duration
}

// Limits of verification mails.
const (
	// verificationMailsPerMinute is how many verification mails one
	// account may ask for in a minute, as Laravel's throttle:6,1.
	verificationMailsPerMinute = 6
	// noticeLifetime is how long the notice of a changed address may
	// wait for the mail server; it holds no link.
	noticeLifetime = 24 * time.Hour
)

// Verification implements ports.Verification, and makes the verification
// mails of registration and address changes.
type Verification struct {
	store  ports.Store
	clock  ports.Clock
	outbox *Outbox
	cfg    VerificationConfig
}

// NewVerification returns the verification use cases, which enqueue their
// mails in outbox.
func NewVerification(store ports.Store, clock ports.Clock, outbox *Outbox, cfg VerificationConfig) *Verification {
	if cfg.Expire <= 0 {
		cfg.Expire = time.Hour
	}
	return &Verification{store: store, clock: clock, outbox: outbox, cfg: cfg}
}

var _ ports.Verification = (*Verification)(nil)

// Send implements ports.Verification. Only mails count against the limit:
// asking again once verified costs nothing.
func (v *Verification) Send(ctx context.Context, actor domain.Actor, base string) (bool, error) {
	if err := actor.CheckAbility(domain.WriteProfile); err != nil {
		return false, err
	}
	if actor.User.EmailVerifiedAt != nil {
		return false, nil
	}
	now := v.clock.Now()
	hits, resetAt, err := v.store.Repos().RateLimits.Hit(ctx, "verification:"+strconv.FormatInt(actor.User.ID, 10), time.Minute, now)
	if err != nil {
		return false, fmt.Errorf("send verification: %w", err)
	}
	if hits > verificationMailsPerMinute {
		return false, tooManyAttempts(resetAt.Sub(now))
	}
	sent := false
	err = v.store.InTx(ctx, func(r ports.Repos) error {
		u, err := r.Users.Lock(ctx, actor.User.ID)
		if err != nil || u.EmailVerifiedAt != nil {
			return err
		}
		sent = true
		return v.enqueueLink(ctx, r, u, base, now)
	})
	if errors.Is(err, domain.ErrNotFound) {
		return false, domain.ErrUnauthenticated
	}
	if err != nil {
		return false, fmt.Errorf("send verification: %w", err)
	}
	if sent {
		v.outbox.Wake()
	}
	return sent, nil
}

// Verify implements ports.Verification. The signature is checked before
// anything is read, so a forged link costs one HMAC; the user is then
// locked, so that an address changed at the same moment is not marked.
func (v *Verification) Verify(ctx context.Context, in ports.VerifyInput) (bool, error) {
	now := v.clock.Now()
	if err := domain.CheckSignedPath(v.cfg.Key, in.Path, in.RawQuery, now); err != nil {
		return false, err
	}
	// The route's id and hash must be the ones of the signed path: a
	// transport that read them from elsewhere must not widen what a
	// signature proves.
	id, err := strconv.ParseInt(in.ID, 10, 64)
	if err != nil || id <= 0 || !strings.HasSuffix(in.Path, "/"+in.ID+"/"+in.Hash) {
		return false, domain.ErrInvalidSignature
	}
	marked := false
	err = v.store.InTx(ctx, func(r ports.Repos) error {
		u, err := r.Users.Lock(ctx, id)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.ErrInvalidSignature
		}
		if err != nil {
			return err
		}
		if subtle.ConstantTimeCompare([]byte(domain.EmailHash(u.Email)), []byte(in.Hash)) != 1 {
			return domain.ErrInvalidSignature
		}
		marked, err = r.Users.MarkEmailVerified(ctx, id, u.Email, now)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("verify e-mail: %w", err)
	}
	return marked, nil
}

// enqueueLink writes into r's outbox the mail that carries u's signed
// verification link below base, valid cfg.Expire from now.
func (v *Verification) enqueueLink(ctx context.Context, r ports.Repos, u domain.User, base string, now time.Time) error {
	link := strings.TrimRight(base, "/") + domain.SignPath(v.cfg.Key, domain.VerificationPath(u.ID, u.Email), now.Add(v.cfg.Expire))
	data := map[string]string{"name": u.Name, "url": link, "minutes": strconv.Itoa(int(v.cfg.Expire / time.Minute))}
	_, err := v.outbox.Enqueue(ctx, r, u.Email, ports.MailVerifyEmail, data, v.cfg.Expire)
	return err
}

// enqueueChanged writes into r's outbox the notice to old, the address u
// had, that it is no longer the account's.
func (v *Verification) enqueueChanged(ctx context.Context, r ports.Repos, u domain.User, old string) error {
	data := map[string]string{"name": u.Name, "new_email": u.Email}
	_, err := v.outbox.Enqueue(ctx, r, old, ports.MailEmailChanged, data, noticeLifetime)
	return err
}
