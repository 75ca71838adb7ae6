package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/adapters/sqlite/sqlitetest"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// t0 is a fixed instant with microsecond precision, what the production clock
// hands out.
var t0 = time.Date(2026, 11, 20, 10, 0, 0, 123456000, time.UTC)

// openStore opens a copy of a migrated database; the TestOpen tests open
// empty files in folders Open creates.
func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, cleanup, err := sqlite.Open(context.Background(), sqlitetest.Path(t, ""))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(cleanup)
	return st
}

func mustUser(t *testing.T, r ports.Repos, email string) domain.User {
	t.Helper()
	u := domain.User{Name: "Ada", Email: email, PasswordHash: "hash", CreatedAt: t0, UpdatedAt: t0}
	if err := r.Users.Create(context.Background(), &u); err != nil {
		t.Fatalf("create user %s: %v", email, err)
	}
	return u
}

// secrets numbers the secrets of test tokens, whose digests must differ.
var secrets atomic.Int64

func mustToken(t *testing.T, r ports.Repos, userID int64, name string, created time.Time) domain.Token {
	t.Helper()
	hash := domain.HashSecret(fmt.Sprint("secret-", secrets.Add(1)))
	tok := domain.NewToken(userID, name, hash, []string{"posts:read"}, created, 0)
	if err := r.Tokens.Create(context.Background(), &tok); err != nil {
		t.Fatalf("create token %s: %v", name, err)
	}
	return tok
}

func wantErr(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: got error %v, want %v", what, err, want)
	}
}

func TestOpenIsIdempotent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a", "inkwell.db")
	st, cleanup, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatalf("first Open: %v", err)
	}
	u := mustUser(t, st.Repos(), "ada@example.com")
	cleanup()

	st, cleanup, err = sqlite.Open(ctx, path)
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	defer cleanup()
	got, err := st.Repos().Users.ByID(ctx, u.ID)
	if err != nil {
		t.Fatalf("ByID after reopening: %v", err)
	}
	if got.Email != u.Email {
		t.Errorf("got email %q, want %q", got.Email, u.Email)
	}
}

func TestOpenEscapesPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "odd?name#100%", "inkwell.db")
	st, cleanup, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer cleanup()
	if err := st.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	for _, name := range []string{path, path + "-wal"} {
		if _, err := os.Stat(name); err != nil {
			t.Errorf("the database is not where it was asked to be: %v", err)
		}
	}
}

func TestPingAfterCleanupIsUnavailable(t *testing.T) {
	st, cleanup, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "inkwell.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if err := st.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	cleanup()
	err = st.Ping(context.Background())
	if got := domain.KindOf(err); got != domain.Unavailable {
		t.Errorf("Ping after cleanup: got kind %v (%v), want unavailable", got, err)
	}
}

func TestUserRoundTrip(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	verified := t0.Add(time.Hour)
	u := domain.User{
		Name: "Ada", Email: "Ada@Example.com", PasswordHash: "hash", RememberToken: "remember",
		EmailVerifiedAt: &verified, AvatarPath: "avatars/a.png", CreatedAt: t0, UpdatedAt: t0.Add(time.Minute),
	}
	if err := r.Users.Create(ctx, &u); err != nil {
		t.Fatalf("Create: %v", err)
	}
	if u.ID == 0 {
		t.Fatal("Create did not set the ID")
	}
	got, err := r.Users.ByID(ctx, u.ID)
	if err != nil {
		t.Fatalf("ByID: %v", err)
	}
	if !reflect.DeepEqual(got, u) {
		t.Errorf("ByID: got %+v, want %+v", got, u)
	}
	got, err = r.Users.ByEmail(ctx, "  ada@EXAMPLE.com ")
	if err != nil {
		t.Fatalf("ByEmail: %v", err)
	}
	if got.ID != u.ID {
		t.Errorf("ByEmail: got id %d, want %d", got.ID, u.ID)
	}

	u.Name, u.Email, u.EmailVerifiedAt, u.UpdatedAt = "Ada L.", "ada@lovelace.org", nil, t0.Add(2*time.Hour)
	if err := r.Users.Update(ctx, u); err != nil {
		t.Fatalf("Update: %v", err)
	}
	got, err = r.Users.Lock(ctx, u.ID)
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	if !reflect.DeepEqual(got, u) {
		t.Errorf("after Update: got %+v, want %+v", got, u)
	}
}

func TestUserErrors(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	a := mustUser(t, r, "a@example.com")
	b := mustUser(t, r, "b@example.com")

	_, err := r.Users.ByID(ctx, 999)
	wantErr(t, "ByID missing", err, domain.ErrNotFound)
	_, err = r.Users.ByEmail(ctx, "nobody@example.com")
	wantErr(t, "ByEmail missing", err, domain.ErrNotFound)
	_, err = r.Users.Lock(ctx, 999)
	wantErr(t, "Lock missing", err, domain.ErrNotFound)
	wantErr(t, "Update missing", r.Users.Update(ctx, domain.User{ID: 999, Email: "x@example.com"}), domain.ErrNotFound)
	wantErr(t, "Delete missing", r.Users.Delete(ctx, 999), domain.ErrNotFound)

	dup := domain.User{Name: "A", Email: "A@EXAMPLE.COM", PasswordHash: "h", CreatedAt: t0, UpdatedAt: t0}
	wantErr(t, "Create duplicate", r.Users.Create(ctx, &dup), domain.ErrEmailTaken)
	b.Email = " A@example.com"
	wantErr(t, "Update to a taken e-mail", r.Users.Update(ctx, b), domain.ErrEmailTaken)

	tok := mustToken(t, r, a.ID, "cli", t0)
	if err := r.Users.Delete(ctx, a.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	_, err = r.Tokens.ByID(ctx, tok.ID)
	wantErr(t, "token of a deleted user", err, domain.ErrNotFound)
}

func TestTokenRoundTripAndErrors(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	u := mustUser(t, r, "a@example.com")
	used := t0.Add(time.Second)
	tok := domain.NewToken(u.ID, "cli", domain.HashSecret("secret"), []string{"*", "posts:read"}, t0, time.Hour)
	tok.LastUsedAt = &used
	if err := r.Tokens.Create(ctx, &tok); err != nil {
		t.Fatalf("Create: %v", err)
	}
	got, err := r.Tokens.ByHash(ctx, tok.Hash)
	if err != nil {
		t.Fatalf("ByHash: %v", err)
	}
	if !reflect.DeepEqual(got, tok) {
		t.Errorf("ByHash: got %+v, want %+v", got, tok)
	}

	empty := domain.NewToken(u.ID, "none", domain.HashSecret("other"), nil, t0, 0)
	if err := r.Tokens.Create(ctx, &empty); err != nil {
		t.Fatalf("Create without abilities: %v", err)
	}
	got, err = r.Tokens.ByID(ctx, empty.ID)
	if err != nil {
		t.Fatalf("ByID: %v", err)
	}
	if !reflect.DeepEqual(got, empty) {
		t.Errorf("ByID: got %+v, want %+v", got, empty)
	}

	orphan := domain.NewToken(999, "x", domain.HashSecret("orphan"), nil, t0, 0)
	wantErr(t, "Create for a missing user", r.Tokens.Create(ctx, &orphan), domain.ErrNotFound)
	same := domain.NewToken(u.ID, "dup", tok.Hash, nil, t0, 0)
	if err := r.Tokens.Create(ctx, &same); domain.KindOf(err) != domain.Conflict {
		t.Errorf("Create with a taken hash: got %v, want a conflict", err)
	}
	_, err = r.Tokens.ByHash(ctx, domain.HashSecret("nope"))
	wantErr(t, "ByHash missing", err, domain.ErrNotFound)

	other := mustUser(t, r, "b@example.com")
	wantErr(t, "Delete another user's token", r.Tokens.Delete(ctx, other.ID, tok.ID), domain.ErrNotFound)
	if err := r.Tokens.Delete(ctx, u.ID, tok.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	wantErr(t, "Delete twice", r.Tokens.Delete(ctx, u.ID, tok.ID), domain.ErrNotFound)
}

func TestTokenListAndBulkDeletes(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	u := mustUser(t, r, "a@example.com")
	other := mustUser(t, r, "b@example.com")
	late := mustToken(t, r, u.ID, "web", t0.Add(2*time.Minute))
	early := mustToken(t, r, u.ID, "cli", t0)
	tie := mustToken(t, r, u.ID, "cli", t0)
	mustToken(t, r, other.ID, "cli", t0)

	list, err := r.Tokens.ListByUser(ctx, u.ID)
	if err != nil {
		t.Fatalf("ListByUser: %v", err)
	}
	var ids []int64
	for _, tok := range list {
		ids = append(ids, tok.ID)
	}
	if want := []int64{early.ID, tie.ID, late.ID}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ListByUser: got ids %v, want %v", ids, want)
	}

	n, err := r.Tokens.DeleteByName(ctx, u.ID, "cli")
	if err != nil || n != 2 {
		t.Errorf("DeleteByName: got %d, %v, want 2, nil", n, err)
	}
	n, err = r.Tokens.DeleteByUser(ctx, u.ID)
	if err != nil || n != 1 {
		t.Errorf("DeleteByUser: got %d, %v, want 1, nil", n, err)
	}

	expiring := domain.NewToken(other.ID, "short", domain.HashSecret("short"), nil, t0, time.Minute)
	if err := r.Tokens.Create(ctx, &expiring); err != nil {
		t.Fatalf("Create: %v", err)
	}
	n, err = r.Tokens.DeleteExpired(ctx, t0.Add(time.Minute-time.Microsecond))
	if err != nil || n != 0 {
		t.Errorf("DeleteExpired before expiry: got %d, %v, want 0, nil", n, err)
	}
	n, err = r.Tokens.DeleteExpired(ctx, t0.Add(time.Minute))
	if err != nil || n != 1 {
		t.Errorf("DeleteExpired at expiry: got %d, %v, want 1, nil", n, err)
	}
}

func TestTokenTouch(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	u := mustUser(t, r, "a@example.com")
	tok := mustToken(t, r, u.ID, "cli", t0)

	lastUsed := func() *time.Time {
		t.Helper()
		got, err := r.Tokens.ByID(ctx, tok.ID)
		if err != nil {
			t.Fatalf("ByID: %v", err)
		}
		return got.LastUsedAt
	}
	steps := []struct {
		now  time.Time
		want time.Time
	}{
		{t0.Add(time.Second), t0.Add(time.Second)},                                           // never used: written
		{t0.Add(time.Second + domain.TouchInterval - time.Microsecond), t0.Add(time.Second)}, // within the interval: kept
		{t0.Add(time.Second + domain.TouchInterval), t0.Add(time.Second + domain.TouchInterval)},
	}
	for i, s := range steps {
		if err := r.Tokens.Touch(ctx, tok.ID, s.now); err != nil {
			t.Fatalf("step %d: Touch: %v", i, err)
		}
		if got := lastUsed(); got == nil || !got.Equal(s.want) {
			t.Errorf("step %d: got last_used_at %v, want %v", i, got, s.want)
		}
	}
	if err := r.Tokens.Touch(ctx, 999, t0); err != nil {
		t.Errorf("Touch of a missing token: got %v, want nil", err)
	}
}

func TestRateLimitHit(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	const window = time.Minute
	steps := []struct {
		now       time.Time
		wantHits  int
		wantReset time.Time
	}{
		{t0, 1, t0.Add(window)},
		{t0.Add(10 * time.Second), 2, t0.Add(window)},
		{t0.Add(window - time.Microsecond), 3, t0.Add(window)},
		{t0.Add(window), 1, t0.Add(2 * window)}, // the window ended: a new one starts
		{t0.Add(window + time.Second), 2, t0.Add(2 * window)},
	}
	for i, s := range steps {
		hits, reset, err := r.RateLimits.Hit(ctx, "login:a", window, s.now)
		if err != nil {
			t.Fatalf("step %d: Hit: %v", i, err)
		}
		if hits != s.wantHits || !reset.Equal(s.wantReset) {
			t.Errorf("step %d: got %d hits until %v, want %d until %v", i, hits, reset, s.wantHits, s.wantReset)
		}
	}

	hits, reset, err := r.RateLimits.Hit(ctx, "login:unknown", window, t0)
	if err != nil || hits != 1 || !reset.Equal(t0.Add(window)) {
		t.Errorf("Hit of an unknown key: got %d, %v, %v, want 1, %v, nil", hits, reset, err, t0.Add(window))
	}
	if err := r.RateLimits.Clear(ctx, "login:a"); err != nil {
		t.Fatalf("Clear: %v", err)
	}
	hits, _, err = r.RateLimits.Hit(ctx, "login:a", window, t0.Add(window+3*time.Second))
	if err != nil || hits != 1 {
		t.Errorf("Hit after Clear: got %d, %v, want 1, nil", hits, err)
	}
}

func TestRateLimitHitConcurrently(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := st.Repos().RateLimits.Hit(ctx, "k", time.Minute, t0)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("Hit: %v", err)
		}
	}
	hits, _, err := st.Repos().RateLimits.Hit(ctx, "k", time.Minute, t0)
	if err != nil || hits != n+1 {
		t.Errorf("Hit after %d concurrent hits: got %d, %v, want %d, nil", n, hits, err, n+1)
	}
}

func TestPersonRoundTripAndErrors(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	age := 36
	p := domain.Person{
		Name: "Ada", Email: "Ada@Example.com", Age: &age,
		Address:   &domain.Address{Street: "1 Main St", City: "London", Zip: "N1", Country: "UK"},
		CreatedAt: t0, UpdatedAt: t0,
	}
	if err := r.People.Create(ctx, &p); err != nil {
		t.Fatalf("Create: %v", err)
	}
	got, err := r.People.Get(ctx, p.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("Get: got %+v, want %+v", got, p)
	}

	p.Age, p.Address, p.UpdatedAt = nil, nil, t0.Add(time.Hour)
	if err := r.People.Update(ctx, p); err != nil {
		t.Fatalf("Update: %v", err)
	}
	got, err = r.People.Get(ctx, p.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("after Update: got %+v, want %+v", got, p)
	}

	dup := domain.Person{Name: "Other", Email: "ada@example.COM", CreatedAt: t0, UpdatedAt: t0}
	wantErr(t, "Create duplicate", r.People.Create(ctx, &dup), domain.ErrEmailTaken)
	_, err = r.People.Get(ctx, 999)
	wantErr(t, "Get missing", err, domain.ErrNotFound)
	wantErr(t, "Update missing", r.People.Update(ctx, domain.Person{ID: 999, Email: "x@example.com"}), domain.ErrNotFound)
	if err := r.People.Delete(ctx, p.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	wantErr(t, "Delete twice", r.People.Delete(ctx, p.ID), domain.ErrNotFound)
}

func TestPeopleList(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	add := func(name, email string, age *int, created time.Time) int64 {
		p := domain.Person{Name: name, Email: email, Age: age, CreatedAt: created, UpdatedAt: created}
		if err := r.People.Create(ctx, &p); err != nil {
			t.Fatalf("Create %s: %v", name, err)
		}
		return p.ID
	}
	ten, twenty := 10, 20
	bob := add("Bob", "bob@example.com", &twenty, t0)
	ann := add("ann", "ANN@example.org", nil, t0.Add(time.Second))
	pct := add("100% Carl", "carl@example.com", &ten, t0)
	und := add("Dan_Smith", "dan@example.net", &twenty, t0.Add(2*time.Second))

	tests := []struct {
		name      string
		q         ports.PersonQuery
		wantIDs   []int64
		wantTotal int
	}{
		{"default order is id", ports.PersonQuery{}, []int64{bob, ann, pct, und}, 4},
		{"search ignores ASCII case in names", ports.PersonQuery{Search: "BO"}, []int64{bob}, 1},
		{"search ignores ASCII case in e-mails", ports.PersonQuery{Search: "ann@EXAMPLE"}, []int64{ann}, 1},
		{"percent is literal", ports.PersonQuery{Search: "%"}, []int64{pct}, 1},
		{"underscore is literal", ports.PersonQuery{Search: "_"}, []int64{und}, 1},
		{"search counts every match", ports.PersonQuery{Search: "example.com", Page: ports.Page{Limit: 1}}, []int64{bob}, 2},
		{"sort by name is by byte", ports.PersonQuery{Sort: []ports.SortKey{{Field: "name"}}}, []int64{pct, bob, und, ann}, 4},
		{"created_at descending, id breaks ties", ports.PersonQuery{Sort: []ports.SortKey{{Field: "created_at", Desc: true}}}, []int64{und, ann, bob, pct}, 4},
		{"age ascending puts no age last", ports.PersonQuery{Sort: []ports.SortKey{{Field: "age"}}}, []int64{pct, bob, und, ann}, 4},
		{"age descending puts no age first", ports.PersonQuery{Sort: []ports.SortKey{{Field: "age", Desc: true}}}, []int64{ann, bob, und, pct}, 4},
		{"two keys", ports.PersonQuery{Sort: []ports.SortKey{{Field: "age", Desc: true}, {Field: "id", Desc: true}}}, []int64{ann, und, bob, pct}, 4},
		{"paging", ports.PersonQuery{Page: ports.Page{Offset: 1, Limit: 2}}, []int64{ann, pct}, 4},
		{"past the end", ports.PersonQuery{Page: ports.Page{Offset: 10, Limit: 2}}, []int64{}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, total, err := r.People.List(ctx, tc.q)
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			ids := []int64{}
			for _, p := range list {
				ids = append(ids, p.ID)
			}
			if !reflect.DeepEqual(ids, tc.wantIDs) || total != tc.wantTotal {
				t.Errorf("got %v of %d, want %v of %d", ids, total, tc.wantIDs, tc.wantTotal)
			}
		})
	}

	_, _, err := r.People.List(ctx, ports.PersonQuery{Sort: []ports.SortKey{{Field: "name; DROP TABLE people"}}})
	if domain.KindOf(err) != domain.Invalid {
		t.Errorf("List with an unknown sort field: got %v, want an invalid error", err)
	}
}

func TestProducts(t *testing.T) {
	ctx := context.Background()
	r := openStore(t).Repos()
	sku := "SKU-1"
	p := domain.Product{Name: "Pen", PriceCents: 199, Description: "Blue", Stock: 3, SKU: &sku, CreatedAt: t0, UpdatedAt: t0}
	if err := r.Products.Create(ctx, &p); err != nil {
		t.Fatalf("Create: %v", err)
	}
	got, err := r.Products.Get(ctx, p.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("Get: got %+v, want %+v", got, p)
	}
	dup := domain.Product{Name: "Other", SKU: &sku, CreatedAt: t0, UpdatedAt: t0}
	wantErr(t, "Create duplicate SKU", r.Products.Create(ctx, &dup), domain.ErrSKUTaken)

	var ids []int64
	for i := range 3 {
		q := domain.Product{Name: fmt.Sprint("No SKU ", i), CreatedAt: t0, UpdatedAt: t0}
		if err := r.Products.Create(ctx, &q); err != nil {
			t.Fatalf("Create without SKU: %v", err)
		}
		ids = append(ids, q.ID)
	}
	other := sku
	last := domain.Product{ID: ids[2], Name: "Renamed", SKU: &other, UpdatedAt: t0}
	wantErr(t, "Update to a taken SKU", r.Products.Update(ctx, last), domain.ErrSKUTaken)
	wantErr(t, "Update missing", r.Products.Update(ctx, domain.Product{ID: 999}), domain.ErrNotFound)

	list, total, err := r.Products.List(ctx, ports.Page{Offset: 1, Limit: 2})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if total != 4 || len(list) != 2 || list[0].ID != ids[0] || list[1].ID != ids[1] {
		t.Errorf("List: got %d of %d starting at %+v, want ids %v of 4", len(list), total, list, ids[:2])
	}
	if err := r.Products.Delete(ctx, p.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	wantErr(t, "Delete twice", r.Products.Delete(ctx, p.ID), domain.ErrNotFound)
}

func TestInTx(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	boom := errors.New("boom")
	var id int64
	err := st.InTx(ctx, func(r ports.Repos) error {
		u := mustUser(t, r, "a@example.com")
		id = u.ID
		if _, err := r.Users.ByID(ctx, u.ID); err != nil {
			t.Errorf("read inside the transaction: %v", err)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx: got %v, want fn's error", err)
	}
	_, err = st.Repos().Users.ByID(ctx, id)
	wantErr(t, "user of a rolled back transaction", err, domain.ErrNotFound)

	err = st.InTx(ctx, func(r ports.Repos) error {
		id = mustUser(t, r, "a@example.com").ID
		return nil
	})
	if err != nil {
		t.Fatalf("InTx: %v", err)
	}
	if _, err := st.Repos().Users.ByID(ctx, id); err != nil {
		t.Errorf("user of a committed transaction: %v", err)
	}

	func() {
		defer func() {
			if recover() == nil {
				t.Error("InTx swallowed a panic")
			}
		}()
		_ = st.InTx(ctx, func(r ports.Repos) error { panic("boom") })
	}()
	if err := st.InTx(ctx, func(ports.Repos) error { return nil }); err != nil {
		t.Errorf("InTx after a panic: %v", err)
	}
}

func TestConcurrentRegistrationsOneWins(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = st.InTx(ctx, func(r ports.Repos) error {
				if _, err := r.Users.ByEmail(ctx, "race@example.com"); !errors.Is(err, domain.ErrNotFound) {
					return domain.ErrEmailTaken
				}
				u := domain.User{Name: "R", Email: "race@example.com", PasswordHash: "h", CreatedAt: t0, UpdatedAt: t0}
				return r.Users.Create(ctx, &u)
			})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, domain.ErrEmailTaken):
			t.Errorf("loser: got %v, want %v", err, domain.ErrEmailTaken)
		}
	}
	if won != 1 {
		t.Errorf("got %d winners, want 1", won)
	}
}

func TestWriterWaitPastDeadlineIsUnavailable(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	inTx := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error)
	go func() {
		done <- st.InTx(ctx, func(r ports.Repos) error {
			close(inTx)
			<-release
			return nil
		})
	}()
	<-inTx
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, _, err := st.Repos().RateLimits.Hit(short, "k", time.Minute, t0)
	if got := domain.KindOf(err); got != domain.Unavailable {
		t.Errorf("write while a transaction holds the writer: got kind %v (%v), want unavailable", got, err)
	}
	if _, err := st.Repos().Users.ByID(ctx, 1); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("read while a transaction holds the writer: got %v, want %v", err, domain.ErrNotFound)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("InTx: %v", err)
	}
}
