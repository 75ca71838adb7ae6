package memory_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// TestTimesNormalized checks that times come back as the SQL stores return
// them, in UTC at whole microseconds, so that unit tests on the memory store
// see what production sees.
func TestTimesNormalized(t *testing.T) {
	ctx := t.Context()
	st := memory.New()
	oslo := time.FixedZone("Oslo", 3600)
	in := time.Date(2026, 11, 20, 11, 0, 0, 123456789, oslo)
	want := time.Date(2026, 11, 20, 10, 0, 0, 123456000, time.UTC)

	u := domain.User{Name: "Ann", Email: "ann@example.com", EmailVerifiedAt: &in, CreatedAt: in, UpdatedAt: in}
	if err := st.Repos().Users.Create(ctx, &u); err != nil {
		t.Fatalf("Users.Create: %v", err)
	}
	got, err := st.Repos().Users.ByID(ctx, u.ID)
	if err != nil {
		t.Fatalf("Users.ByID: %v", err)
	}
	for name, tm := range map[string]time.Time{"CreatedAt": got.CreatedAt, "UpdatedAt": got.UpdatedAt, "EmailVerifiedAt": *got.EmailVerifiedAt} {
		if tm != want {
			t.Errorf("%s: got %v, want %v", name, tm, want)
		}
	}
	_, reset, err := st.Repos().RateLimits.Hit(ctx, "k", time.Minute, in)
	if err != nil {
		t.Fatalf("RateLimits.Hit: %v", err)
	}
	if wantReset := want.Add(time.Minute); reset != wantReset {
		t.Errorf("RateLimits.Hit reset: got %v, want %v", reset, wantReset)
	}
}

// TestInTxPanic checks that a panic in a transaction rolls it back and
// leaves the store usable.
func TestInTxPanic(t *testing.T) {
	ctx := t.Context()
	st := memory.New()
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("InTx swallowed the panic")
			}
		}()
		_ = st.InTx(ctx, func(r ports.Repos) error {
			p := domain.Person{Name: "Ann", Email: "ann@example.com"}
			if err := r.People.Create(ctx, &p); err != nil {
				t.Errorf("People.Create: %v", err)
			}
			panic("boom")
		})
	}()
	_, total, err := st.Repos().People.List(ctx, ports.PersonQuery{Page: ports.Page{Limit: 10}})
	if err != nil || total != 0 {
		t.Errorf("People.List after the panic: got total %d, error %v; want 0, none", total, err)
	}
	p := domain.Person{Name: "Ann", Email: "ann@example.com"}
	if err := st.Repos().People.Create(ctx, &p); err != nil {
		t.Errorf("People.Create after the panic: %v", err)
	}
}

// TestReposAfterTx checks that repositories kept beyond their transaction
// refuse to work, committed or rolled back, instead of writing around the
// store's locking.
func TestReposAfterTx(t *testing.T) {
	ctx := t.Context()
	for _, fail := range []bool{false, true} {
		st := memory.New()
		var kept ports.Repos
		_ = st.InTx(ctx, func(r ports.Repos) error {
			kept = r
			if fail {
				return errors.New("fail")
			}
			return nil
		})
		p := domain.Person{Name: "Ann", Email: "ann@example.com"}
		if err := kept.People.Create(ctx, &p); err == nil {
			t.Errorf("People.Create on repositories of an ended transaction (failed: %v): got no error, want one", fail)
		}
		if _, err := kept.People.Get(ctx, 1); err == nil || errors.Is(err, domain.ErrNotFound) {
			t.Errorf("People.Get on repositories of an ended transaction (failed: %v): got %v, want an internal error", fail, err)
		}
	}
}

// TestWriteWaitsForTx checks that a write outside a transaction waits for a
// running one, and gives up when its context ends, while reads go on.
func TestWriteWaitsForTx(t *testing.T) {
	ctx := t.Context()
	st := memory.New()
	inTx, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- st.InTx(ctx, func(r ports.Repos) error {
			close(inTx)
			<-release
			return nil
		})
	}()
	<-inTx

	if _, err := st.Repos().People.Get(ctx, 1); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("People.Get during a transaction: got %v, want %v", err, domain.ErrNotFound)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	p := domain.Person{Name: "Ann", Email: "ann@example.com"}
	if err := st.Repos().People.Create(short, &p); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("People.Create during a transaction: got %v, want %v", err, context.DeadlineExceeded)
	}
	if err := st.InTx(short, func(ports.Repos) error { return nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("InTx during a transaction: got %v, want %v", err, context.DeadlineExceeded)
	}

	close(release)
	if err := <-done; err != nil {
		t.Fatalf("InTx: %v", err)
	}
	if err := st.Repos().People.Create(ctx, &p); err != nil {
		t.Errorf("People.Create after the transaction: %v", err)
	}
}

// TestSearchFoldsASCII checks that search ignores the case of ASCII letters
// only, as the SQLite store's does.
func TestSearchFoldsASCII(t *testing.T) {
	ctx := t.Context()
	st := memory.New()
	p := domain.Person{Name: "Zoë Ångström", Email: "zoe@example.com"}
	if err := st.Repos().People.Create(ctx, &p); err != nil {
		t.Fatalf("People.Create: %v", err)
	}
	cases := []struct {
		search string
		want   int
	}{
		{"ZOë", 1},
		{"zoë", 1},
		{"ZOË", 0},
		{"ångström", 0},
		{"Ångström", 1},
		{"ZOE@EXAMPLE", 1},
	}
	for _, tc := range cases {
		_, total, err := st.Repos().People.List(ctx, ports.PersonQuery{Search: tc.search, Page: ports.Page{Limit: 10}})
		if err != nil {
			t.Fatalf("People.List(Search %q): %v", tc.search, err)
		}
		if total != tc.want {
			t.Errorf("People.List(Search %q): got %d matches, want %d", tc.search, total, tc.want)
		}
	}
}

// TestPageLimits checks the edges of ports.Page the port leaves open, read as
// the SQL stores read them: no limit below one, no offset below zero.
func TestPageLimits(t *testing.T) {
	ctx := t.Context()
	st := memory.New()
	for _, name := range []string{"A", "B", "C"} {
		p := domain.Product{Name: name}
		if err := st.Repos().Products.Create(ctx, &p); err != nil {
			t.Fatalf("Products.Create: %v", err)
		}
	}
	cases := []struct {
		page ports.Page
		want int
	}{
		{ports.Page{Offset: 0, Limit: 0}, 3},
		{ports.Page{Offset: -5, Limit: 2}, 2},
		{ports.Page{Offset: 1, Limit: -1}, 2},
		{ports.Page{Offset: 2, Limit: 10}, 1},
	}
	for _, tc := range cases {
		got, total, err := st.Repos().Products.List(ctx, tc.page)
		if err != nil {
			t.Fatalf("Products.List(%+v): %v", tc.page, err)
		}
		if len(got) != tc.want || total != 3 {
			t.Errorf("Products.List(%+v): got %d products of %d, want %d of 3", tc.page, len(got), total, tc.want)
		}
	}
}
