package postgres_test

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgbouncertest"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/demo"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
	"github.com/inkwell/inkwell/ports/portstest"
)

// openPooled opens a store on a database of the test's own through a
// PgBouncer in transaction pooling, migrating directly.
func openPooled(tb testing.TB) *postgres.Store {
	tb.Helper()
	direct := pgtest.URL(tb)
	st, closeStore, err := postgres.OpenPooled(context.Background(), pgbouncertest.URL(tb, direct), direct)
	if err != nil {
		tb.Fatalf("OpenPooled: %v", err)
	}
	tb.Cleanup(closeStore)
	return st
}

// TestStoreThroughPgBouncer runs the contract suite through a pooler that
// hands each transaction to whichever server connection is free, which
// fails any statement that relies on the session it ran in before. The
// store's named prepared statements hold there because deploy/pgbouncer.ini
// keeps them (max_prepared_statements).
func TestStoreThroughPgBouncer(t *testing.T) {
	portstest.RunStore(t, func(tb testing.TB) ports.Store { return openPooled(tb) })
}

// TestStoreThroughPgBouncerWithoutPreparedStatements runs the contract
// suite through a pooler that keeps no prepared statements, as PgBouncer
// before 1.21 or with max_prepared_statements = 0, with the one setting the
// README gives for it: default_query_exec_mode=cache_describe in the URL.
func TestStoreThroughPgBouncerWithoutPreparedStatements(t *testing.T) {
	portstest.RunStore(t, func(tb testing.TB) ports.Store {
		direct := pgtest.URL(tb)
		pooled := pgbouncertest.URLWith(tb, direct, map[string]string{"max_prepared_statements": "0"})
		st, closeStore, err := postgres.OpenPooled(context.Background(), withParam(pooled, "default_query_exec_mode", "cache_describe"), direct)
		if err != nil {
			tb.Fatalf("OpenPooled: %v", err)
		}
		tb.Cleanup(closeStore)
		return st
	})
}

// TestPgBouncerKeepsNamedStatements shows that the pool names its prepared
// statements through the pooler, and that they survive the pooler handing
// a client's transactions to other server connections: after many
// concurrent uses of one query, the server holds it prepared under
// PgBouncer's names on more than one connection.
func TestPgBouncerKeepsNamedStatements(t *testing.T) {
	ctx := context.Background()
	direct := pgtest.URL(t)
	st, closeStore, err := postgres.OpenPooled(ctx, pgbouncertest.URL(t, direct), direct)
	mustDo(t, "OpenPooled", err)
	defer closeStore()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if _, err := st.Repos().Users.ByEmail(ctx, "nobody@example.com"); err == nil {
					t.Error("ByEmail of nobody: found someone")
				}
			}
		})
	}
	wg.Wait()
	var prepared int
	mustDo(t, "count prepared statements", st.Pool().QueryRow(ctx,
		"SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'PGBOUNCER_%' AND from_sql = false").Scan(&prepared))
	if prepared == 0 {
		t.Fatal("the server connection holds no statement PgBouncer prepared: the pool sends no named statements")
	}
}

// TestOpenPooledConcurrently starts several stores at once through one
// PgBouncer on an empty database, as replicas do: the migrations run
// directly, once, and the pools work through the pooler afterwards.
func TestOpenPooledConcurrently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	direct := pgtest.URL(t)
	pooled := pgbouncertest.URL(t, direct)
	st := openStoreAt(t, direct)
	_, err := st.Pool().Exec(ctx, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
	mustDo(t, "empty the database", err)

	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			s, closeStore, err := postgres.OpenPooled(ctx, pooled, direct)
			if err != nil {
				t.Errorf("concurrent OpenPooled: %v", err)
				return
			}
			defer closeStore()
			// Each query twice, so that a statement kept from the first
			// use would be looked for on another server connection.
			for range 2 {
				if _, err := s.Repos().Users.ByEmail(ctx, "nobody@example.com"); err == nil {
					t.Error("ByEmail of nobody: found someone")
				}
				mustDo(t, "ping", s.Ping(ctx))
			}
		})
	}
	wg.Wait()

	// PgBouncer hands out the server connection used last, so a second
	// store's first query lands where the first store's ran: a named
	// statement left there would collide with the one it prepares.
	for range 2 {
		s, closeStore, err := postgres.OpenPooled(ctx, pooled, direct)
		mustDo(t, "OpenPooled", err)
		_, err = s.Repos().Users.ByEmail(ctx, "nobody@example.com")
		wantErr(t, "ByEmail of nobody after another store", err, domain.ErrNotFound)
		closeStore()
	}
	var got, distinct int
	mustDo(t, "count", st.Pool().QueryRow(ctx, "SELECT count(*), count(DISTINCT version) FROM schema_migrations").Scan(&got, &distinct))
	if got == 0 || got != distinct {
		t.Errorf("schema_migrations holds %d rows (%d distinct), want each migration once", got, distinct)
	}
}

// TestPooledListsSendNoNamedStatements reads the busiest lists, whose
// statements a direct store prepares, from stores that take turns on the
// pooler's server connections: a named statement one of them left there
// would collide with the next one's.
func TestPooledListsSendNoNamedStatements(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	direct := pgtest.URL(t)
	pooled := pgbouncertest.URL(t, direct)
	// Enough published posts for a page deep enough to be walked.
	plan := demo.Plan{Users: 5, Tags: 3, Posts: 3000, Seed: 1, Until: time.Now(), PasswordHash: "x"}
	mustDo(t, "seed", openStoreAt(t, direct).Seed(ctx, plan, nil))
	for i := range 3 {
		s, closeStore, err := postgres.OpenPooled(ctx, pooled, direct)
		mustDo(t, "OpenPooled", err)
		views := s.Repos().PostViews
		for range 2 {
			_, _, err := views.ListViews(ctx, ports.PostFilter{}, ports.Page{Limit: 15})
			mustDo(t, fmt.Sprintf("store %d: first page", i), err)
			_, _, err = views.ListViews(ctx, ports.PostFilter{}, ports.Page{Offset: 2000, Limit: 15})
			mustDo(t, fmt.Sprintf("store %d: deep page", i), err)
			_, err = views.ListViewsAfter(ctx, ports.PostFilter{}, &ports.PostCursor{CreatedAt: 1, ID: 1}, 15)
			mustDo(t, fmt.Sprintf("store %d: cursor page", i), err)
		}
		closeStore()
	}
}

// withParam adds the query parameter key=value to the URL rawURL.
func withParam(rawURL, key, value string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		panic(err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}
