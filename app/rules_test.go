package app_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// violationsOf returns the fields of err, which must be an Invalid domain
// error.
func violationsOf(t *testing.T, what string, err error) []domain.Violation {
	t.Helper()
	de, ok := domain.AsError(err)
	if !ok || de.Kind != domain.Invalid {
		t.Fatalf("%s: got %v, want an Invalid domain error", what, err)
	}
	return de.Fields
}

// TestUseCasesKeepTheRules calls the use cases as any transport would, with
// no HTTP validation in front of them: each refuses what the domain forbids,
// names every broken field, and stores nothing.
func TestUseCasesKeepTheRules(t *testing.T) {
	long := strings.Repeat("x", 256)
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			store := s.Open(t)
			clk := clock.NewFixed(t0)
			people := app.NewPeople(store, clk)
			products := app.NewProducts(store, clk)
			w := newAccountWorld(t, store)
			ann := w.register(t, "ann@example.com")
			pat, err := people.Create(ctx, ports.PersonInput{Name: "Pat", Email: "pat@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			pen, err := products.Create(ctx, ports.ProductInput{Name: "Pen", PriceCents: 100})
			if err != nil {
				t.Fatal(err)
			}

			for _, tc := range []struct {
				name string
				call func() error
				want []domain.Violation
			}{
				{"People.Create with an empty name", func() error {
					_, err := people.Create(ctx, ports.PersonInput{Email: "sam@example.com"})
					return err
				}, []domain.Violation{{Field: "name", Rule: "required"}}},
				{"People.Create with everything wrong", func() error {
					_, err := people.Create(ctx, ports.PersonInput{Name: long, Email: "sam", Age: ptr(-1), Address: &domain.Address{Country: long}})
					return err
				}, []domain.Violation{{Field: "name", Rule: "max:255"}, {Field: "email", Rule: "email"}, {Field: "age", Rule: "min_value:0"}, {Field: "address.country", Rule: "max:255"}}},
				{"People.Replace with a bad e-mail", func() error {
					_, err := people.Replace(ctx, pat.ID, ports.PersonInput{Name: "Pat", Email: "pat@localhost"}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "email", Rule: "email"}}},
				{"People.Patch of the age", func() error {
					_, err := people.Patch(ctx, pat.ID, ports.PersonPatch{Age: ports.Some(ptr(151))}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "age", Rule: "max_value:150"}}},
				{"Products.Create with everything wrong", func() error {
					_, err := products.Create(ctx, ports.ProductInput{Name: " ", PriceCents: -1, Description: strings.Repeat("d", 5001), Stock: -1, SKU: ptr("")})
					return err
				}, []domain.Violation{{Field: "name", Rule: "required"}, {Field: "price", Rule: "min_value:0"}, {Field: "description", Rule: "max:5000"}, {Field: "stock", Rule: "min_value:0"}, {Field: "sku", Rule: "required"}}},
				{"Products.Replace past the price bound", func() error {
					_, err := products.Replace(ctx, pen.ID, ports.ProductInput{Name: "Pen", PriceCents: domain.MaxPrice*100 + 1}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "price", Rule: "max_value:999999999999"}}},
				{"Accounts.Register with everything wrong", func() error {
					_, _, err := w.accounts.Register(ctx, ports.RegisterInput{Email: "bob@", Password: "short"})
					return err
				}, []domain.Violation{{Field: "name", Rule: "required"}, {Field: "email", Rule: "email"}, {Field: "password", Rule: "min:8"}}},
				{"Profile.Update of name and password", func() error {
					_, _, err := w.profile.Update(ctx, ann, ports.ProfileInput{Name: ports.Some(long), Password: ports.Some(strings.Repeat("é", 37)), CurrentPassword: "password1"}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "name", Rule: "max:255"}, {Field: "password", Rule: "max_bytes:72"}}},
				{"Profile.Update of the e-mail", func() error {
					_, _, err := w.profile.Update(ctx, ann, ports.ProfileInput{Email: ports.Some(""), CurrentPassword: "password1"}, ports.Precondition{})
					return err
				}, []domain.Violation{{Field: "email", Rule: "required"}}},
			} {
				if got := violationsOf(t, tc.name, tc.call()); !reflect.DeepEqual(got, tc.want) {
					t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
				}
			}

			if got, err := people.Get(ctx, pat.ID); err != nil || !reflect.DeepEqual(got, pat) {
				t.Errorf("person after refused changes: got %+v, %v, want %+v", got, err, pat)
			}
			if _, total, err := people.List(ctx, ports.PersonQuery{Page: ports.Page{Limit: 10}}); err != nil || total != 1 {
				t.Errorf("people after refused creates: got %d, %v, want 1", total, err)
			}
			if got, err := products.Get(ctx, pen.ID); err != nil || !reflect.DeepEqual(got, pen) {
				t.Errorf("product after refused changes: got %+v, %v, want %+v", got, err, pen)
			}
			if _, total, err := products.List(ctx, ports.Page{Limit: 10}); err != nil || total != 1 {
				t.Errorf("products after refused creates: got %d, %v, want 1", total, err)
			}
			if got, err := store.Repos().Users.ByID(ctx, ann.User.ID); err != nil || !reflect.DeepEqual(got, ann.User) {
				t.Errorf("account after refused updates: got %+v, %v, want %+v", got, err, ann.User)
			}
			if _, err := store.Repos().Users.ByEmail(ctx, "bob@"); err == nil {
				t.Errorf("refused registration: got an account, want none")
			}
		})
	}
}
