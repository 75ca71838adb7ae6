package portstest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// base is the suite's reference instant. It carries microseconds, the
// precision every store keeps, so a store that drops them fails the round
// trips.
var base = time.Date(2026, 11, 20, 10, 0, 0, 123456000, time.UTC)

// at is base moved by d.
func at(d time.Duration) time.Time { return base.Add(d) }

func ptr[T any](v T) *T { return &v }

// missingID is an id no fixture ever reaches.
const missingID int64 = 987654321

// secrets makes every token secret in a test binary distinct, since the
// stores keep token digests unique.
var secrets atomic.Int64

func newSecretHash() string {
	return domain.HashSecret(fmt.Sprintf("suite-secret-%d", secrets.Add(1)))
}

func newUser(name, email string) domain.User {
	return domain.User{
		Name:         name,
		Email:        email,
		PasswordHash: "$2y$04$" + name,
		CreatedAt:    base,
		UpdatedAt:    base,
	}
}

func newToken(userID int64, name string, created time.Time) domain.Token {
	return domain.Token{
		UserID:    userID,
		Name:      name,
		Hash:      newSecretHash(),
		Abilities: []string{domain.AbilityPostsRead},
		CreatedAt: created,
		UpdatedAt: created,
	}
}

func newPerson(name, email string) domain.Person {
	return domain.Person{Name: name, Email: email, CreatedAt: base, UpdatedAt: base}
}

func newProduct(name string, sku *string) domain.Product {
	return domain.Product{Name: name, PriceCents: 1000, SKU: sku, CreatedAt: base, UpdatedAt: base}
}

func createUser(t *testing.T, r ports.Repos, u domain.User) domain.User {
	t.Helper()
	must(t, fmt.Sprintf("Users.Create(%q)", u.Email), r.Users.Create(t.Context(), &u))
	return u
}

func createToken(t *testing.T, r ports.Repos, tok domain.Token) domain.Token {
	t.Helper()
	must(t, fmt.Sprintf("Tokens.Create(%q)", tok.Name), r.Tokens.Create(t.Context(), &tok))
	return tok
}

func createPerson(t *testing.T, r ports.Repos, p domain.Person) domain.Person {
	t.Helper()
	must(t, fmt.Sprintf("People.Create(%q)", p.Email), r.People.Create(t.Context(), &p))
	return p
}

func createProduct(t *testing.T, r ports.Repos, p domain.Product) domain.Product {
	t.Helper()
	must(t, fmt.Sprintf("Products.Create(%q)", p.Name), r.Products.Create(t.Context(), &p))
	return p
}

// where names the two places a repository method can run: on the store's own
// repositories and on those of a transaction, whose error InTx must hand
// back. The errors a method names are the same in both places.
type where struct {
	name string
	run  func(ctx context.Context, st ports.Store, call func(r ports.Repos) error) error
}

var bothPlaces = []where{
	{"outside a transaction", func(_ context.Context, st ports.Store, call func(r ports.Repos) error) error {
		return call(st.Repos())
	}},
	{"inside a transaction", func(ctx context.Context, st ports.Store, call func(r ports.Repos) error) error {
		return st.InTx(ctx, call)
	}},
}
