package app_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/adapters/random"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// writeCounter is a store that counts its transactions and the writes
// made in them.
type writeCounter struct {
	ports.Store
	txs, writes atomic.Int32
}

type countedMails struct {
	ports.MailRepository
	n *atomic.Int32
}

func (m countedMails) Enqueue(ctx context.Context, mail *domain.Mail) error {
	m.n.Add(1)
	return m.MailRepository.Enqueue(ctx, mail)
}

type countedResets struct {
	ports.PasswordResetRepository
	n *atomic.Int32
}

func (r countedResets) Put(ctx context.Context, p domain.PasswordReset) error {
	r.n.Add(1)
	return r.PasswordResetRepository.Put(ctx, p)
}

type countedLimits struct {
	ports.RateLimitRepository
	n *atomic.Int32
}

func (l countedLimits) Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error) {
	l.n.Add(1)
	return l.RateLimitRepository.Hit(ctx, key, window, now)
}

func (s *writeCounter) InTx(ctx context.Context, fn func(ports.Repos) error) error {
	s.txs.Add(1)
	return s.Store.InTx(ctx, func(r ports.Repos) error {
		r.Mails = countedMails{r.Mails, &s.writes}
		r.PasswordResets = countedResets{r.PasswordResets, &s.writes}
		r.RateLimits = countedLimits{r.RateLimits, &s.writes}
		return fn(r)
	})
}

// TestForgotPasswordWorksAlike checks that a request for an unknown
// address runs one transaction that writes, as a known address's does, so
// that its commit costs the same; and that a throttled request, known or
// not, runs none.
func TestForgotPasswordWorksAlike(t *testing.T) {
	mw := newMailWorld(t, directoryStores[0].Open(t))
	store := &writeCounter{Store: mw.store}
	hasher := passwords.NewBcrypt(passwords.Config{Cost: bcrypt.MinCost})
	resets := app.NewPasswordResets(store, hasher, random.NewSecrets(), mw.clock, mw.outbox, app.PasswordResetConfig{Throttle: time.Minute})
	u := domain.User{Name: "Ann", Email: "ann@example.com", PasswordHash: "x", CreatedAt: t0, UpdatedAt: t0}
	if err := store.Repos().Users.Create(t.Context(), &u); err != nil {
		t.Fatal(err)
	}
	for _, email := range []string{"ann@example.com", "nobody@example.com"} {
		for i, want := range []struct{ txs, writes int32 }{{1, 1}, {0, 0}} {
			store.txs.Store(0)
			store.writes.Store(0)
			if err := resets.Request(t.Context(), email, "https://app.test"); err != nil {
				t.Fatal(err)
			}
			txs, writes := store.txs.Load(), store.writes.Load()
			if txs != want.txs || (writes == 0) != (want.writes == 0) {
				t.Errorf("%s, request %d: %d transactions with %d writes, want %d with writes: %v", email, i+1, txs, writes, want.txs, want.writes > 0)
			}
		}
	}
}
