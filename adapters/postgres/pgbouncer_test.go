package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgbouncertest"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/demo"
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
// fails any statement that relies on the session it ran in before.
func TestStoreThroughPgBouncer(t *testing.T) {
	portstest.RunStore(t, func(tb testing.TB) ports.Store { return openPooled(tb) })
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
