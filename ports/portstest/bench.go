package portstest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// benchTokens is how many tokens the authenticating user holds, so that the
// look-up by id runs against an index rather than a handful of rows.
const benchTokens = 1000

// BenchAuthenticate measures what authenticating one bearer token costs the
// store: parse the presented text, read the token and its user by the
// token's id in one query, compare the secret and check the expiry. It runs serially and with
// b.RunParallel, and reports allocations. newStore is called once.
func BenchAuthenticate(b *testing.B, newStore func(tb testing.TB) ports.Store) {
	ctx := b.Context()
	st := newStore(b)
	u := domain.User{Name: "Bench", Email: "bench@example.com", PasswordHash: "hash", CreatedAt: base, UpdatedAt: base}
	bearers := make([]string, benchTokens)
	err := st.InTx(ctx, func(r ports.Repos) error {
		if err := r.Users.Create(ctx, &u); err != nil {
			return fmt.Errorf("Users.Create: %w", err)
		}
		for i := range bearers {
			secret := domain.NewSecret(fmt.Sprintf("bench%035d", i))
			tok := domain.NewToken(u.ID, "bench", domain.HashSecret(secret),
				[]string{domain.AbilityPostsRead, domain.AbilityPostsWrite}, base, 24*time.Hour)
			if err := r.Tokens.Create(ctx, &tok); err != nil {
				return fmt.Errorf("Tokens.Create: %w", err)
			}
			bearers[i] = domain.PlainToken{ID: tok.ID, Secret: secret}.String()
		}
		return nil
	})
	if err != nil {
		b.Fatalf("seeding %d tokens: %v", benchTokens, err)
	}
	r := st.Repos()
	now := at(time.Hour)
	// A wrong answer must fail the benchmark, or a broken store would look
	// fast.
	if _, err := authenticate(ctx, r, bearers[0], now); err != nil {
		b.Fatalf("authenticate: %v", err)
	}

	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := authenticate(ctx, r, bearers[i%len(bearers)], now); err != nil {
				b.Fatalf("authenticate: %v", err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		var next atomic.Int64
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			// Each goroutine starts elsewhere in the list, so that they
			// don't all read the same row.
			i := int(next.Add(benchTokens / 7))
			for pb.Next() {
				if _, err := authenticate(ctx, r, bearers[i%len(bearers)], now); err != nil {
					b.Errorf("authenticate: %v", err)
					return
				}
				i++
			}
		})
	})
}

var errBenchRefused = errors.New("token refused")

// authenticate is the store's share of ports.Accounts.Authenticate.
func authenticate(ctx context.Context, r ports.Repos, bearer string, now time.Time) (domain.User, error) {
	p, ok := domain.ParsePlainToken(bearer)
	if !ok {
		return domain.User{}, fmt.Errorf("parse %q: %w", bearer, errBenchRefused)
	}
	tok, u, err := r.Tokens.ByIDWithUser(ctx, p.ID)
	if err != nil {
		return domain.User{}, fmt.Errorf("Tokens.ByIDWithUser(%d): %w", p.ID, err)
	}
	if !tok.MatchesSecret(p.Secret) {
		return domain.User{}, fmt.Errorf("token %d: secret: %w", p.ID, errBenchRefused)
	}
	if tok.Expired(now) {
		return domain.User{}, fmt.Errorf("token %d: expired: %w", p.ID, errBenchRefused)
	}
	return u, nil
}

// BenchCreatePost measures the create of a published post, one per
// operation, with a title of seven words as the seed writes them: what the
// triggers that keep a store's title indexes and counts add to each
// create shows here.
func BenchCreatePost(b *testing.B, newStore func(tb testing.TB) ports.Store) {
	ctx := b.Context()
	st := newStore(b)
	r := st.Repos()
	u := newUser("Bench", "bench@example.com")
	if err := r.Users.Create(ctx, &u); err != nil {
		b.Fatalf("Users.Create: %v", err)
	}
	words := []string{"graceful", "worker", "cache", "journey", "snapshot", "lazy", "record", "real", "quick", "write", "design", "api"}
	for i := 0; b.Loop(); i++ {
		title := make([]string, 7)
		for j := range title {
			title[j] = words[(i*7+j*5+i/3)%len(words)]
		}
		p, err := domain.NewPost(u.ID, fmt.Sprintf("%s %d", strings.Join(title, " "), i), "<p>Body</p>", domain.StatusPublished, at(time.Duration(i)*time.Second))
		if err != nil {
			b.Fatalf("NewPost: %v", err)
		}
		if err := r.Posts.Create(ctx, &p); err != nil {
			b.Fatalf("Posts.Create: %v", err)
		}
	}
}
