package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// t0 is a UTC time with microseconds, as the production clock hands out.
var t0 = time.Date(2026, 11, 20, 10, 0, 0, 123456000, time.UTC)

func openStore(tb testing.TB) *postgres.Store {
	tb.Helper()
	return openStoreAt(tb, pgtest.URL(tb))
}

func openStoreAt(tb testing.TB, url string) *postgres.Store {
	tb.Helper()
	st, closeStore, err := postgres.Open(context.Background(), url)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(closeStore)
	return st
}

func ptr[T any](v T) *T { return &v }

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: got error %v, want %v", what, err, want)
	}
}

func mustDo(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func newUser(email string) domain.User {
	return domain.User{
		Name:            "Ada",
		Email:           email,
		PasswordHash:    "$2y$12$hash",
		RememberToken:   "remember",
		EmailVerifiedAt: ptr(t0.Add(time.Second)),
		AvatarPath:      "avatars/ada.png",
		CreatedAt:       t0,
		UpdatedAt:       t0.Add(time.Minute),
	}
}

func TestUserRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()

	u := newUser("Ada@Example.com")
	mustDo(t, "create", r.Users.Create(ctx, &u))
	if u.ID == 0 {
		t.Fatal("create did not set the ID")
	}
	for name, get := range map[string]func() (domain.User, error){
		"ByID":    func() (domain.User, error) { return r.Users.ByID(ctx, u.ID) },
		"ByEmail": func() (domain.User, error) { return r.Users.ByEmail(ctx, " ada@EXAMPLE.com ") },
	} {
		got, err := get()
		mustDo(t, name, err)
		if !reflect.DeepEqual(got, u) {
			t.Errorf("%s: got %+v, want %+v", name, got, u)
		}
		if got.CreatedAt.Location() != time.UTC {
			t.Errorf("%s: CreatedAt in %v, want UTC", name, got.CreatedAt.Location())
		}
	}

	u.Name, u.Email, u.EmailVerifiedAt, u.UpdatedAt = "Ada L.", "ada@lovelace.org", nil, t0.Add(time.Hour)
	mustDo(t, "update", r.Users.Update(ctx, u))
	got, err := r.Users.ByEmail(ctx, "ADA@lovelace.org")
	mustDo(t, "ByEmail after update", err)
	if !reflect.DeepEqual(got, u) {
		t.Errorf("after update: got %+v, want %+v", got, u)
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()
	u := newUser("nf@example.com")
	mustDo(t, "create user", r.Users.Create(ctx, &u))

	_, err := r.Users.ByID(ctx, 999)
	wantErr(t, "Users.ByID", err, domain.ErrNotFound)
	_, err = r.Users.ByEmail(ctx, "nobody@example.com")
	wantErr(t, "Users.ByEmail", err, domain.ErrNotFound)
	_, err = r.Users.Lock(ctx, 999)
	wantErr(t, "Users.Lock", err, domain.ErrNotFound)
	missing := newUser("missing@example.com")
	missing.ID = 999
	wantErr(t, "Users.Update", r.Users.Update(ctx, missing), domain.ErrNotFound)
	wantErr(t, "Users.Delete", r.Users.Delete(ctx, 999), domain.ErrNotFound)

	tok := domain.NewToken(999, "t", "hash", nil, t0, 0)
	wantErr(t, "Tokens.Create for a missing user", r.Tokens.Create(ctx, &tok), domain.ErrNotFound)
	_, err = r.Tokens.ByID(ctx, 999)
	wantErr(t, "Tokens.ByID", err, domain.ErrNotFound)
	_, err = r.Tokens.ByHash(ctx, "nope")
	wantErr(t, "Tokens.ByHash", err, domain.ErrNotFound)
	tok = domain.NewToken(u.ID, "t", "hash", nil, t0, 0)
	mustDo(t, "create token", r.Tokens.Create(ctx, &tok))
	wantErr(t, "Tokens.Delete of another user", r.Tokens.Delete(ctx, u.ID+1, tok.ID), domain.ErrNotFound)
	mustDo(t, "Tokens.Touch of a missing token", r.Tokens.Touch(ctx, 999, t0))

	_, err = r.People.Get(ctx, 999)
	wantErr(t, "People.Get", err, domain.ErrNotFound)
	wantErr(t, "People.Update", r.People.Update(ctx, domain.Person{ID: 999, Name: "x", Email: "x@example.com"}), domain.ErrNotFound)
	wantErr(t, "People.Delete", r.People.Delete(ctx, 999), domain.ErrNotFound)
	_, err = r.Products.Get(ctx, 999)
	wantErr(t, "Products.Get", err, domain.ErrNotFound)
	wantErr(t, "Products.Update", r.Products.Update(ctx, domain.Product{ID: 999, Name: "x"}), domain.ErrNotFound)
	wantErr(t, "Products.Delete", r.Products.Delete(ctx, 999), domain.ErrNotFound)

	// Deleting the user takes the tokens with it.
	mustDo(t, "Users.Delete", r.Users.Delete(ctx, u.ID))
	_, err = r.Tokens.ByID(ctx, tok.ID)
	wantErr(t, "token of a deleted user", err, domain.ErrNotFound)
}

func TestConflicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()

	a, b := newUser("same@example.com"), newUser("SAME@example.com")
	mustDo(t, "create user", r.Users.Create(ctx, &a))
	wantErr(t, "Users.Create with a taken e-mail", r.Users.Create(ctx, &b), domain.ErrEmailTaken)
	b.Email = "other@example.com"
	mustDo(t, "create other user", r.Users.Create(ctx, &b))
	b.Email = "Same@Example.com"
	wantErr(t, "Users.Update to a taken e-mail", r.Users.Update(ctx, b), domain.ErrEmailTaken)

	t1 := domain.NewToken(a.ID, "one", "digest", []string{"*"}, t0, 0)
	t2 := domain.NewToken(b.ID, "two", "digest", []string{"*"}, t0, 0)
	mustDo(t, "create token", r.Tokens.Create(ctx, &t1))
	err := r.Tokens.Create(ctx, &t2)
	wantErr(t, "Tokens.Create with a taken digest", err, domain.ErrConflict)
	if errors.Is(err, domain.ErrEmailTaken) {
		t.Errorf("a taken digest reads as a taken e-mail: %v", err)
	}

	p1 := domain.Person{Name: "P", Email: "p@example.com", CreatedAt: t0, UpdatedAt: t0}
	p2 := domain.Person{Name: "Q", Email: "P@EXAMPLE.COM", CreatedAt: t0, UpdatedAt: t0}
	mustDo(t, "create person", r.People.Create(ctx, &p1))
	wantErr(t, "People.Create with a taken e-mail", r.People.Create(ctx, &p2), domain.ErrEmailTaken)

	sku := "SKU-1"
	pr1 := domain.Product{Name: "A", PriceCents: 100, SKU: &sku, CreatedAt: t0, UpdatedAt: t0}
	pr2 := domain.Product{Name: "B", PriceCents: 100, SKU: &sku, CreatedAt: t0, UpdatedAt: t0}
	pr3 := domain.Product{Name: "C", CreatedAt: t0, UpdatedAt: t0}
	pr4 := domain.Product{Name: "D", CreatedAt: t0, UpdatedAt: t0}
	mustDo(t, "create product", r.Products.Create(ctx, &pr1))
	wantErr(t, "Products.Create with a taken SKU", r.Products.Create(ctx, &pr2), domain.ErrSKUTaken)
	mustDo(t, "create product without SKU", r.Products.Create(ctx, &pr3))
	mustDo(t, "create second product without SKU", r.Products.Create(ctx, &pr4))
	pr4.SKU = &sku
	wantErr(t, "Products.Update to a taken SKU", r.Products.Update(ctx, pr4), domain.ErrSKUTaken)
}

func TestTokenRoundTripAndTouch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()
	u := newUser("tok@example.com")
	mustDo(t, "create user", r.Users.Create(ctx, &u))

	tok := domain.NewToken(u.ID, "api", domain.HashSecret("s"), []string{"posts:read", "posts:write"}, t0, time.Hour)
	mustDo(t, "create", r.Tokens.Create(ctx, &tok))
	got, err := r.Tokens.ByHash(ctx, tok.Hash)
	mustDo(t, "ByHash", err)
	if !reflect.DeepEqual(got, tok) {
		t.Errorf("ByHash: got %+v, want %+v", got, tok)
	}

	lastUsed := func() *time.Time {
		t.Helper()
		got, err := r.Tokens.ByID(ctx, tok.ID)
		mustDo(t, "ByID", err)
		return got.LastUsedAt
	}
	steps := []struct {
		at   time.Time
		want time.Time
	}{
		{t0, t0},                       // never used: written
		{t0.Add(30 * time.Second), t0}, // used within the interval: kept
		{t0.Add(domain.TouchInterval), t0.Add(domain.TouchInterval)}, // stale: written
	}
	for _, s := range steps {
		mustDo(t, "Touch", r.Tokens.Touch(ctx, tok.ID, s.at))
		if got := lastUsed(); got == nil || !got.Equal(s.want) {
			t.Errorf("after Touch at %v: last_used_at %v, want %v", s.at, got, s.want)
		}
	}

	old := domain.NewToken(u.ID, "old", domain.HashSecret("o"), nil, t0.Add(-time.Hour), time.Minute)
	mustDo(t, "create expiring", r.Tokens.Create(ctx, &old))
	n, err := r.Tokens.DeleteExpired(ctx, t0)
	mustDo(t, "DeleteExpired", err)
	if n != 1 {
		t.Errorf("DeleteExpired removed %d tokens, want 1", n)
	}
	list, err := r.Tokens.ListByUser(ctx, u.ID)
	mustDo(t, "ListByUser", err)
	if len(list) != 1 || list[0].ID != tok.ID {
		t.Errorf("ListByUser: got %+v, want only token %d", list, tok.ID)
	}
}

func TestRateLimitHit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()
	const window = time.Minute

	for i, at := range []time.Time{t0, t0.Add(10 * time.Second), t0.Add(59 * time.Second)} {
		hits, reset, err := r.RateLimits.Hit(ctx, "k", window, at)
		mustDo(t, "Hit", err)
		if hits != i+1 || !reset.Equal(t0.Add(window)) {
			t.Errorf("hit %d: got %d until %v, want %d until %v", i+1, hits, reset, i+1, t0.Add(window))
		}
	}
	// A hit earlier than the last one still falls in the open window.
	hits, reset, err := r.RateLimits.Hit(ctx, "k", window, t0.Add(30*time.Second))
	mustDo(t, "Hit", err)
	if hits != 4 || !reset.Equal(t0.Add(window)) {
		t.Errorf("Hit: got %d until %v, want 4 until %v", hits, reset, t0.Add(window))
	}
	next := t0.Add(window)
	hits, reset, err = r.RateLimits.Hit(ctx, "k", window, next)
	mustDo(t, "Hit after the window", err)
	if hits != 1 || !reset.Equal(next.Add(window)) {
		t.Errorf("Hit after the window: got %d until %v, want 1 until %v", hits, reset, next.Add(window))
	}
	mustDo(t, "Clear", r.RateLimits.Clear(ctx, "k"))
	hits, reset, err = r.RateLimits.Hit(ctx, "k", 2*window, next)
	mustDo(t, "Hit after Clear", err)
	if hits != 1 || !reset.Equal(next.Add(2*window)) {
		t.Errorf("Hit after Clear: got %d until %v, want 1 until %v", hits, reset, next.Add(2*window))
	}

	// Concurrent hits on one key all count.
	const n = 20
	var wg sync.WaitGroup
	seen := make([]int, n)
	for i := range n {
		wg.Go(func() {
			h, _, err := r.RateLimits.Hit(ctx, "busy", window, t0)
			if err != nil {
				t.Errorf("concurrent Hit: %v", err)
			}
			seen[i] = h
		})
	}
	wg.Wait()
	top := 0
	for _, h := range seen {
		top = max(top, h)
	}
	if top != n {
		t.Errorf("after %d concurrent hits the count reached %d", n, top)
	}
}

func TestPeopleList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()
	add := func(name, email string, age *int, addr *domain.Address) domain.Person {
		t.Helper()
		p := domain.Person{Name: name, Email: email, Age: age, Address: addr, CreatedAt: t0, UpdatedAt: t0}
		mustDo(t, "create "+name, r.People.Create(ctx, &p))
		return p
	}
	ann := add("Ann", "ann@example.com", ptr(30), &domain.Address{City: "Oslo", Zip: "0150"})
	bob := add("bob 100%", "bob@example.com", nil, nil)
	cid := add("Cid_Z", "cid@example.com", ptr(20), &domain.Address{})
	dan := add("Dan", "dan@EXAMPLE.org", ptr(30), nil)

	got, err := r.People.Get(ctx, ann.ID)
	mustDo(t, "Get", err)
	if !reflect.DeepEqual(got, ann) {
		t.Errorf("Get: got %+v, want %+v", got, ann)
	}
	got, err = r.People.Get(ctx, cid.ID)
	mustDo(t, "Get", err)
	if !reflect.DeepEqual(got, cid) {
		t.Errorf("Get with an empty address: got %+v, want %+v", got, cid)
	}

	ids := func(list []domain.Person) []int64 {
		out := []int64{}
		for _, p := range list {
			out = append(out, p.ID)
		}
		return out
	}
	tests := []struct {
		name      string
		q         ports.PersonQuery
		want      []int64
		wantTotal int
	}{
		{"all", ports.PersonQuery{}, []int64{ann.ID, bob.ID, cid.ID, dan.ID}, 4},
		{"percent is literal", ports.PersonQuery{Search: "%"}, []int64{bob.ID}, 1},
		{"underscore is literal", ports.PersonQuery{Search: "d_z"}, []int64{cid.ID}, 1},
		{"case ignored", ports.PersonQuery{Search: "example.ORG"}, []int64{dan.ID}, 1},
		{"age ascending, nulls last, id breaks ties", ports.PersonQuery{Sort: []ports.SortKey{{Field: "age"}}},
			[]int64{cid.ID, ann.ID, dan.ID, bob.ID}, 4},
		{"age descending, nulls first", ports.PersonQuery{Sort: []ports.SortKey{{Field: "age", Desc: true}}},
			[]int64{bob.ID, ann.ID, dan.ID, cid.ID}, 4},
		{"name by code point", ports.PersonQuery{Sort: []ports.SortKey{{Field: "name", Desc: true}}},
			[]int64{bob.ID, dan.ID, cid.ID, ann.ID}, 4},
		{"page", ports.PersonQuery{Page: ports.Page{Offset: 1, Limit: 2}}, []int64{bob.ID, cid.ID}, 4},
		{"page past the end", ports.PersonQuery{Search: "example", Page: ports.Page{Offset: 10, Limit: 2}}, []int64{}, 4},
		{"no match", ports.PersonQuery{Search: "zzz"}, []int64{}, 0},
	}
	for _, tc := range tests {
		list, total, err := r.People.List(ctx, tc.q)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := ids(list); !reflect.DeepEqual(got, tc.want) || total != tc.wantTotal {
			t.Errorf("%s: got %v of %d, want %v of %d", tc.name, got, total, tc.want, tc.wantTotal)
		}
	}
	// The port folds ASCII letters only, whatever the database's locale.
	emi := add("Émile", "emile@example.net", nil, nil)
	for search, want := range map[string][]int64{"ÉMILE": {emi.ID}, "éMILE": {}} {
		list, _, err := r.People.List(ctx, ports.PersonQuery{Search: search})
		mustDo(t, "List", err)
		if got := ids(list); !reflect.DeepEqual(got, want) {
			t.Errorf("search %q: got %v, want %v", search, got, want)
		}
	}
	for _, f := range ports.PersonFields {
		if _, _, err := r.People.List(ctx, ports.PersonQuery{Sort: []ports.SortKey{{Field: f, Desc: true}}}); err != nil {
			t.Errorf("sort by %s: %v", f, err)
		}
	}
	_, _, err = r.People.List(ctx, ports.PersonQuery{Sort: []ports.SortKey{{Field: "name; DROP TABLE people"}}})
	if domain.KindOf(err) != domain.Invalid {
		t.Errorf("unknown sort field: got %v, want an Invalid error", err)
	}
}

func TestProductsList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()
	var all []domain.Product
	for i := range 5 {
		p := domain.Product{Name: fmt.Sprint("p", i), PriceCents: int64(i * 100), Description: "d", Stock: int64(i),
			SKU: ptr(fmt.Sprint("sku-", i)), CreatedAt: t0, UpdatedAt: t0}
		if i == 0 {
			p.SKU = nil
		}
		mustDo(t, "create", r.Products.Create(ctx, &p))
		all = append(all, p)
	}
	list, total, err := r.Products.List(ctx, ports.Page{Offset: 1, Limit: 3})
	mustDo(t, "List", err)
	if !reflect.DeepEqual(list, all[1:4]) || total != 5 {
		t.Errorf("List: got %+v of %d, want %+v of 5", list, total, all[1:4])
	}
	list, total, err = r.Products.List(ctx, ports.Page{Offset: 10, Limit: 3})
	mustDo(t, "List past the end", err)
	if len(list) != 0 || total != 5 {
		t.Errorf("List past the end: got %d products of %d, want 0 of 5", len(list), total)
	}
}

func TestInTx(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	boom := errors.New("boom")

	u := newUser("rolled@example.com")
	err := st.InTx(ctx, func(r ports.Repos) error {
		mustDo(t, "create in tx", r.Users.Create(ctx, &u))
		return boom
	})
	wantErr(t, "InTx", err, boom)
	_, err = st.Repos().Users.ByID(ctx, u.ID)
	wantErr(t, "user of a rolled-back tx", err, domain.ErrNotFound)

	func() {
		defer func() {
			if recover() == nil {
				t.Error("InTx swallowed a panic")
			}
		}()
		_ = st.InTx(ctx, func(r ports.Repos) error {
			mustDo(t, "create in tx", r.Users.Create(ctx, &u))
			panic("boom")
		})
	}()
	_, err = st.Repos().Users.ByID(ctx, u.ID)
	wantErr(t, "user of a panicked tx", err, domain.ErrNotFound)

	mustDo(t, "InTx commit", st.InTx(ctx, func(r ports.Repos) error { return r.Users.Create(ctx, &u) }))
	_, err = st.Repos().Users.ByID(ctx, u.ID)
	mustDo(t, "user of a committed tx", err)
	mustDo(t, "Ping", st.Ping(ctx))
}

// TestLockSerializes checks that Users.Lock holds the row: a second Lock of
// the same user waits until the first transaction ends.
func TestLockSerializes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	u := newUser("lock@example.com")
	mustDo(t, "create", st.Repos().Users.Create(ctx, &u))

	locked, release := make(chan struct{}), make(chan struct{})
	var firstEnded time.Time
	var wg sync.WaitGroup
	wg.Go(func() {
		err := st.InTx(ctx, func(r ports.Repos) error {
			if _, err := r.Users.Lock(ctx, u.ID); err != nil {
				return err
			}
			close(locked)
			<-release
			firstEnded = time.Now()
			return nil
		})
		if err != nil {
			t.Errorf("first tx: %v", err)
		}
	})
	<-locked
	time.AfterFunc(100*time.Millisecond, func() { close(release) })
	err := st.InTx(ctx, func(r ports.Repos) error {
		_, err := r.Users.Lock(ctx, u.ID)
		return err
	})
	secondLocked := time.Now()
	mustDo(t, "second tx", err)
	wg.Wait()
	if secondLocked.Before(firstEnded) {
		t.Error("the second Lock returned while the first transaction held the user")
	}
}

// TestMigrateConcurrently starts five stores at once on an empty database:
// each must succeed, and each migration must be applied once.
func TestMigrateConcurrently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.URL(t)
	st, closeStore, err := postgres.Open(ctx, url)
	mustDo(t, "Open", err)
	var want int
	mustDo(t, "count migrations", st.Pool().QueryRow(ctx, "SELECT count(*) FROM schema_migrations").Scan(&want))
	_, err = st.Pool().Exec(ctx, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
	mustDo(t, "empty the database", err)
	closeStore()

	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			_, closeStore, err := postgres.Open(ctx, url)
			if err != nil {
				t.Errorf("concurrent Open: %v", err)
				return
			}
			closeStore()
		})
	}
	wg.Wait()

	st = openStoreAt(t, url)
	var got, distinct int
	mustDo(t, "count", st.Pool().QueryRow(ctx, "SELECT count(*), count(DISTINCT version) FROM schema_migrations").Scan(&got, &distinct))
	if got != want || distinct != want || want == 0 {
		t.Errorf("schema_migrations holds %d rows (%d distinct), want %d", got, distinct, want)
	}
	mustDo(t, "ping", st.Ping(ctx))
}

// TestUnreachable needs no database: nothing listens on port 1.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	_, _, err := postgres.Open(context.Background(), "postgres://postgres@127.0.0.1:1/inkwell?sslmode=disable&connect_timeout=2")
	wantErr(t, "Open of an unreachable server", err, domain.ErrUnavailable)
}
