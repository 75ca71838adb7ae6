package app_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// directoryStores are the stores the area B use cases are tried on: their
// transactions differ, and merging updates depends on them.
var directoryStores = stacktest.Stores()

var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func TestPeople(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			clk := clock.NewFixed(t0)
			people := app.NewPeople(s.Open(t), clk, app.DirectoryConfig{})

			ann, err := people.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Ann", Email: "Ann@example.com", Age: ptr(30), Address: &domain.Address{City: "Paris"}})
			if err != nil {
				t.Fatal(err)
			}
			want := domain.Person{ID: ann.ID, Name: "Ann", Email: "Ann@example.com", Age: ptr(30), Address: &domain.Address{City: "Paris"}, CreatedAt: t0, UpdatedAt: t0}
			if !reflect.DeepEqual(ann, want) {
				t.Errorf("created: got %+v, want %+v", ann, want)
			}
			if ann.ID == 0 {
				t.Errorf("created: got no id")
			}

			_, err = people.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Other", Email: "ann@EXAMPLE.com"})
			if !errors.Is(err, domain.ErrEmailTaken) {
				t.Errorf("duplicate e-mail: got %v, want %v", err, domain.ErrEmailTaken)
			}

			steps := []struct {
				name  string
				apply func(id int64) (domain.Person, error)
				want  func(p *domain.Person)
			}{
				{"patch age", func(id int64) (domain.Person, error) {
					return people.Patch(ctx, domain.ByOwnRight(domain.Actor{}), id, ports.PersonPatch{Age: ports.Some(ptr(31))}, ports.Precondition{})
				}, func(p *domain.Person) { p.Age = ptr(31) }},
				{"patch clears address", func(id int64) (domain.Person, error) {
					return people.Patch(ctx, domain.ByOwnRight(domain.Actor{}), id, ports.PersonPatch{Address: ports.Some[*domain.Address](nil), Name: ports.Some("Annie")}, ports.Precondition{})
				}, func(p *domain.Person) { p.Address, p.Name = nil, "Annie" }},
				{"empty patch", func(id int64) (domain.Person, error) {
					return people.Patch(ctx, domain.ByOwnRight(domain.Actor{}), id, ports.PersonPatch{}, ports.Precondition{})
				}, func(*domain.Person) {}},
				{"replace", func(id int64) (domain.Person, error) {
					return people.Replace(ctx, domain.ByOwnRight(domain.Actor{}), id, ports.PersonInput{Name: "Ann", Email: "ann@example.net"}, ports.Precondition{})
				}, func(p *domain.Person) { p.Name, p.Email, p.Age, p.Address = "Ann", "ann@example.net", nil, nil }},
			}
			for _, step := range steps {
				clk.Advance(time.Second)
				got, err := step.apply(ann.ID)
				if err != nil {
					t.Fatalf("%s: %v", step.name, err)
				}
				step.want(&want)
				want.UpdatedAt = clk.Now()
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: got %+v, want %+v", step.name, got, want)
				}
			}

			for name, err := range map[string]error{
				"patch":   second(people.Patch(ctx, domain.ByOwnRight(domain.Actor{}), 424242, ports.PersonPatch{Age: ports.Some(ptr(1))}, ports.Precondition{})),
				"replace": second(people.Replace(ctx, domain.ByOwnRight(domain.Actor{}), 424242, ports.PersonInput{Name: "X", Email: "x@example.com"}, ports.Precondition{})),
			} {
				if !errors.Is(err, domain.ErrNotFound) {
					t.Errorf("%s of a missing record: got %v, want %v", name, err, domain.ErrNotFound)
				}
			}
		})
	}
}

func TestPeopleGetListDelete(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			people := app.NewPeople(s.Open(t), clock.NewFixed(t0), app.DirectoryConfig{})
			var created []domain.Person
			for _, name := range []string{"Ann", "Bob", "Cid"} {
				p, err := people.Create(ctx, domain.Actor{}, ports.PersonInput{Name: name, Email: strings.ToLower(name) + "@example.com"})
				if err != nil {
					t.Fatal(err)
				}
				created = append(created, p)
			}
			ann, bob, cid := created[0], created[1], created[2]

			got, err := people.Get(ctx, bob.ID)
			if err != nil || !reflect.DeepEqual(got, bob) {
				t.Errorf("get: got %+v, %v; want %+v", got, err, bob)
			}
			list, total, err := people.List(ctx, ports.PersonQuery{Sort: []ports.SortKey{{Field: "name", Desc: true}}, Page: ports.Page{Offset: 1, Limit: 1}})
			if err != nil || total != 3 || !reflect.DeepEqual(list, []domain.Person{bob}) {
				t.Errorf("list by name descending, second page of one: got %+v, total %d, %v; want Bob of 3", list, total, err)
			}
			list, total, err = people.List(ctx, ports.PersonQuery{Search: "CID@", Page: ports.Page{Limit: 10}})
			if err != nil || total != 1 || !reflect.DeepEqual(list, []domain.Person{cid}) {
				t.Errorf("list searching CID@: got %+v, total %d, %v; want Cid alone", list, total, err)
			}
			_, _, err = people.List(ctx, ports.PersonQuery{Sort: []ports.SortKey{{Field: "password"}}})
			if de, ok := domain.AsError(err); !ok || de.Kind != domain.Invalid {
				t.Errorf("list sorted by an unknown field: got %v, want an error of kind Invalid", err)
			}

			if err := people.Delete(ctx, domain.Actor{}, ann.ID, ports.Precondition{}); err != nil {
				t.Fatal(err)
			}
			if _, err := people.Get(ctx, ann.ID); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("get after delete: got %v, want %v", err, domain.ErrNotFound)
			}
			if err := people.Delete(ctx, domain.Actor{}, ann.ID, ports.Precondition{}); !errors.Is(err, domain.ErrNotFound) {
				t.Errorf("second delete: got %v, want %v", err, domain.ErrNotFound)
			}
			if _, total, err := people.List(ctx, ports.PersonQuery{}); err != nil || total != 2 {
				t.Errorf("list after delete: got total %d, %v; want 2", total, err)
			}
		})
	}
}

// TestPeopleConcurrentPatches checks that patches of different fields of one
// record, running at once, all survive: each reads and writes in one
// transaction.
func TestPeopleConcurrentPatches(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := context.Background()
			store := s.Open(t)
			people := app.NewPeople(store, clock.NewFixed(t0), app.DirectoryConfig{})
			p, err := people.Create(ctx, domain.Actor{}, ports.PersonInput{Name: "Ann", Email: "ann@example.com"})
			if err != nil {
				t.Fatal(err)
			}
			const rounds = 10
			for range rounds {
				var wg sync.WaitGroup
				errs := make(chan error, 2)
				for _, patch := range []ports.PersonPatch{
					{Age: ports.Some(ptr(40))},
					{Address: ports.Some(&domain.Address{City: "Oslo"})},
				} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						_, err := people.Patch(ctx, domain.ByOwnRight(domain.Actor{}), p.ID, patch, ports.Precondition{})
						errs <- err
					}()
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						t.Fatal(err)
					}
				}
				got, err := store.Repos().People.Get(ctx, p.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.Age == nil || *got.Age != 40 || got.Address == nil || got.Address.City != "Oslo" {
					t.Fatalf("after concurrent patches: got age %v, address %v; want 40 and Oslo", got.Age, got.Address)
				}
				if _, err := people.Patch(ctx, domain.ByOwnRight(domain.Actor{}), p.ID, ports.PersonPatch{Age: ports.Some[*int](nil), Address: ports.Some[*domain.Address](nil)}, ports.Precondition{}); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func second[T any](_ T, err error) error { return err }
