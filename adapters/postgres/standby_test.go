package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/adapters/postgres/standbytest"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// waitUsable waits until the store says whether its standby is usable.
func waitUsable(t *testing.T, st *postgres.Store, usable bool, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for st.ReadStats().Usable != usable {
		if time.Now().After(deadline) {
			t.Fatalf("the standby's usable did not become %v within %s: %+v", usable, within, st.ReadStats())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// publishedTitles lists the titles of the published posts through
// PostViews.ListViews on r, counting where the read went.
func publishedTitles(t *testing.T, ctx context.Context, r ports.Repos) []string {
	t.Helper()
	views, _, err := r.PostViews.ListViews(ctx, ports.PostFilter{}, ports.Page{Limit: 50})
	mustDo(t, "ListViews", err)
	var titles []string
	for _, v := range views {
		titles = append(titles, v.Post.Title())
	}
	return titles
}

// TestStandbyReadsInTransactions shows which reads the store sends to the
// standby: outside a transaction, those whose context allows stale reads;
// in a transaction none, so that it reads its own writes and what others
// committed before it, whatever the standby has replayed.
func TestStandbyReadsInTransactions(t *testing.T) {
	pair := standbytest.Start(t)
	st, closeStore, err := postgres.Open(context.Background(), pair.PrimaryURL,
		postgres.WithStandby(postgres.Standby{URL: pair.StandbyURL, MaxLag: 3 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeStore)
	ctx := context.Background()
	stale := ports.AllowStaleReads(ctx)
	ann := newUser("ann@example.com")
	mustDo(t, "create ann", st.Repos().Users.Create(ctx, &ann))
	post := func(title string) {
		p, err := domain.NewPost(ann.ID, title, "body", domain.StatusPublished, t0)
		mustDo(t, "NewPost", err)
		mustDo(t, "create "+title, st.Repos().Posts.Create(ctx, &p))
	}
	post("Before")
	pair.WaitForReplay(t)
	waitUsable(t, st, true, 10*time.Second)

	pair.PauseReplay(t)
	post("During")
	before := st.ReadStats()
	if got := publishedTitles(t, stale, st.Repos()); len(got) != 1 || got[0] != "Before" {
		t.Errorf("a stale read outside a transaction while replay is paused: got %q, want the standby's [Before]", got)
	}
	if got := publishedTitles(t, ctx, st.Repos()); len(got) != 2 {
		t.Errorf("a read outside a transaction while replay is paused: got %q, want the primary's two posts", got)
	}
	err = st.InTx(stale, func(r ports.Repos) error {
		if got := publishedTitles(t, stale, r); len(got) != 2 {
			t.Errorf("a stale read in a transaction while replay is paused: got %q, want the primary's two posts", got)
		}
		tag := domain.Tag{Name: "Fresh", Slug: "fresh", CreatedAt: t0, UpdatedAt: t0}
		if err := r.Tags.Create(ctx, &tag); err != nil {
			return err
		}
		tags, err := r.Tags.List(stale)
		if err != nil {
			return err
		}
		if len(tags) != 1 {
			t.Errorf("Tags.List with stale reads allowed in the transaction that created a tag: got %v, want it", tags)
		}
		return nil
	})
	mustDo(t, "InTx", err)
	after := st.ReadStats()
	if got, want := [2]int64{after.Primary - before.Primary, after.Standby - before.Standby}, [2]int64{1, 1}; got != want {
		t.Errorf("reads on the primary and the standby outside the transaction: got %v, want %v", got, want)
	}
	pair.ResumeReplay(t)
}

// TestStandbyUnusable keeps reads off a DATABASE_READ_URL that cannot serve
// them: a server out of recovery, since nothing tells how far it is from
// the primary, if it is a copy of it at all, and a server that cannot be
// reached, which does not keep the store from opening.
func TestStandbyUnusable(t *testing.T) {
	url := pgtest.URL(t)
	for name, standby := range map[string]string{
		"a primary":   url,
		"unreachable": "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable",
	} {
		t.Run(name, func(t *testing.T) {
			st, closeStore, err := postgres.Open(context.Background(), url,
				postgres.WithStandby(postgres.Standby{URL: standby, MaxLag: 200 * time.Millisecond}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(closeStore)
			stale := ports.AllowStaleReads(context.Background())
			for range 3 {
				publishedTitles(t, stale, st.Repos())
				time.Sleep(100 * time.Millisecond)
			}
			if got := st.ReadStats(); got.Usable || got.Standby != 0 || got.Primary != 3 || got.LagKnown {
				t.Errorf("with %s as the standby: got %+v, want every read on the primary and no lag known", name, got)
			}
			mustDo(t, "Ping", st.Ping(context.Background()))
		})
	}
}
