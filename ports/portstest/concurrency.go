package portstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var concurrencyTests = []storeTest{
	{"RegisterOneEmail", testRaceRegister},
	{"CreatePeopleOneEmail", testRacePeople},
	{"Login", testRaceLogin},
	{"RateLimitHits", testRaceHits},
	{"PostSlugs", testRacePostSlugs},
	{"FirstAdmin", testRaceFirstAdmin},
}

// raceTimeout bounds every race, so that a store that deadlocks fails the
// test instead of hanging it.
const raceTimeout = time.Minute

// race runs n calls of f at once: each goroutine waits for one signal, so
// they start as close together as the scheduler allows.
func race(n int, f func(i int)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			f(i)
		})
	}
	close(start)
	wg.Wait()
}

// emailSpelling spells one address in several cases, so that the races also
// check that uniqueness goes through domain.EmailKey.
func emailSpelling(i int) string {
	return []string{"race@example.com", "RACE@example.com", "Race@Example.COM"}[i%3]
}

// checkOneWinner checks that exactly one of errs is nil and every other one is
// want.
func checkOneWinner(t *testing.T, what string, errs []error, want error) int {
	t.Helper()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil:
			if winner >= 0 {
				t.Errorf("%s: both %d and %d succeeded, want one", what, winner, i)
			}
			winner = i
		case !errors.Is(err, want):
			t.Errorf("%s %d: got error %v, want none or %v", what, i, err, want)
		}
	}
	if winner < 0 {
		t.Errorf("%s: none succeeded, want one", what)
	}
	return winner
}

// testRaceRegister is two (here twenty) registrations of one address: one
// wins and every other gets domain.ErrEmailTaken, never a raw unique
// violation, a serialization failure or a busy database.
func testRaceRegister(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	const n = 20
	errs := make([]error, n)
	race(n, func(i int) {
		errs[i] = st.InTx(ctx, func(r ports.Repos) error {
			u := newUser(fmt.Sprint("Racer ", i), emailSpelling(i))
			return r.Users.Create(ctx, &u)
		})
	})
	winner := checkOneWinner(t, "registration", errs, domain.ErrEmailTaken)
	got, err := st.Repos().Users.ByEmail(ctx, "race@example.com")
	if checkErr(t, "Users.ByEmail after the race", err, nil) && winner >= 0 {
		if want := fmt.Sprint("Racer ", winner); got.Name != want {
			t.Errorf("Users.ByEmail after the race: got %q, want the winner %q", got.Name, want)
		}
	}
}

func testRacePeople(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	const n = 20
	errs := make([]error, n)
	r := st.Repos()
	race(n, func(i int) {
		p := newPerson(fmt.Sprint("Racer ", i), emailSpelling(i))
		errs[i] = r.People.Create(ctx, &p)
	})
	winner := checkOneWinner(t, "People.Create", errs, domain.ErrEmailTaken)
	list, total, err := r.People.List(ctx, ports.PersonQuery{Page: ports.Page{Limit: 100}})
	if checkErr(t, "People.List after the race", err, nil) {
		if total != 1 || len(list) != 1 {
			t.Fatalf("People.List after the race: got total %d and %d records, want 1", total, len(list))
		}
		if want := fmt.Sprint("Racer ", winner); list[0].Name != want {
			t.Errorf("People.List after the race: got %q, want the winner %q", list[0].Name, want)
		}
	}
}

// testRaceLogin is the login use case run ten times at once for one user
// while requests authenticated with the user's tokens touch them: each login
// locks the user, deletes the user's tokens and issues one. Whatever the
// interleaving, every login succeeds and one token is left.
func testRaceLogin(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	r := st.Repos()
	u := createUser(t, r, newUser("Ann", "ann@example.com"))
	var existing []int64
	for i := range 3 {
		existing = append(existing, createToken(t, r, newToken(u.ID, fmt.Sprint("old ", i), base)).ID)
	}

	const logins, touchers = 10, 4
	loginErrs := make([]error, logins)
	touchErrs := make([]error, touchers)
	done := make(chan struct{})
	var touching sync.WaitGroup
	for i := range touchers {
		touching.Go(func() {
			touchErrs[i] = touchUntil(ctx, r, u.ID, existing, i, done)
		})
	}
	race(logins, func(i int) {
		loginErrs[i] = st.InTx(ctx, func(r ports.Repos) error {
			if _, err := r.Users.Lock(ctx, u.ID); err != nil {
				return fmt.Errorf("Users.Lock: %w", err)
			}
			if _, err := r.Tokens.DeleteByUser(ctx, u.ID); err != nil {
				return fmt.Errorf("Tokens.DeleteByUser: %w", err)
			}
			tok := newToken(u.ID, fmt.Sprint("login ", i), at(time.Duration(i)*time.Second))
			if err := r.Tokens.Create(ctx, &tok); err != nil {
				return fmt.Errorf("Tokens.Create: %w", err)
			}
			return nil
		})
	})
	close(done)
	touching.Wait()

	for i, err := range loginErrs {
		checkErr(t, fmt.Sprint("login ", i), err, nil)
	}
	for i, err := range touchErrs {
		checkErr(t, fmt.Sprint("toucher ", i), err, nil)
	}
	list, err := r.Tokens.ListByUser(ctx, u.ID)
	if checkErr(t, "Tokens.ListByUser after the logins", err, nil) && len(list) != 1 {
		names := make([]string, len(list))
		for i, tok := range list {
			names[i] = tok.Name
		}
		t.Errorf("Tokens.ListByUser after the logins: got %d tokens %q (ids %v), want 1", len(list), names, tokenIDs(list))
	}
}

// touchUntil plays the requests of the login race: it touches the tokens it
// knew from the start and the ones it finds, with a clock that moves far
// enough each round for every touch to write, until done is closed. It makes
// at least one round.
func touchUntil(ctx context.Context, r ports.Repos, userID int64, known []int64, worker int, done <-chan struct{}) error {
	for round := 1; ; round++ {
		now := at(time.Duration(round) * time.Hour).Add(time.Duration(worker) * time.Second)
		found, err := r.Tokens.ListByUser(ctx, userID)
		if err != nil {
			return fmt.Errorf("Tokens.ListByUser: %w", err)
		}
		ids := slices.Clone(known)
		for _, tok := range found {
			ids = append(ids, tok.ID)
		}
		for _, id := range ids {
			if err := r.Tokens.Touch(ctx, id, now); err != nil {
				return fmt.Errorf("Tokens.Touch(%d): %w", id, err)
			}
		}
		// A short pause between rounds keeps the touches at a pace requests
		// could have, rather than a loop that starves the logins of the
		// write lock on stores that have one.
		select {
		case <-done:
			return nil
		case <-time.After(time.Millisecond):
		}
	}
}

// testRaceHits is many requests counted against one key at once: every count
// from 1 to n is handed out exactly once, so no hit is lost or counted twice.
func testRaceHits(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	const n = 20
	const key = "api:192.0.2.1"
	counts := make([]int, n)
	resets := make([]time.Time, n)
	errs := make([]error, n)
	r := st.Repos()
	race(n, func(i int) {
		counts[i], resets[i], errs[i] = r.RateLimits.Hit(ctx, key, time.Minute, base)
	})
	for i, err := range errs {
		if !checkErr(t, fmt.Sprint("RateLimits.Hit ", i), err, nil) {
			return
		}
		check(t, fmt.Sprint("RateLimits.Hit ", i, ": reset time"), resets[i], at(time.Minute))
	}
	slices.Sort(counts)
	want := make([]int, n)
	for i := range want {
		want[i] = i + 1
	}
	if !slices.Equal(counts, want) {
		t.Errorf("RateLimits.Hit counts: got %v, want each of 1..%d once", counts, n)
	}
	hits, reset, err := r.RateLimits.Hit(ctx, key, time.Minute, at(time.Second))
	if checkErr(t, "RateLimits.Hit after the race", err, nil) {
		if hits != n+1 {
			t.Errorf("RateLimits.Hit after the race: got %d hits, want %d", hits, n+1)
		}
		check(t, "RateLimits.Hit after the race: reset time", reset, at(time.Minute))
	}
}

// testRacePostSlugs is the post-creation use case run fifty times at once
// for one title: each transaction asks for the last suffix of the title's
// slug and takes the next one. LastSlugSuffix holds the slug until the
// transaction ends, so every creation succeeds and the slugs are the base
// and base-2 to base-50, with no conflict and no busy database.
func testRacePostSlugs(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	r := st.Repos()
	u := createUser(t, r, newUser("Ann", "ann@example.com"))
	const n = 50
	const title, slug = "Race: one title!", "race-one-title"
	errs := make([]error, n)
	race(n, func(i int) {
		errs[i] = st.InTx(ctx, func(r ports.Repos) error {
			post, err := domain.NewPost(u.ID, title, fmt.Sprint("body ", i), domain.StatusPublished, at(time.Duration(i)*time.Second))
			if err != nil {
				return err
			}
			last, err := r.Posts.LastSlugSuffix(ctx, post.Slug())
			if err != nil {
				return fmt.Errorf("Posts.LastSlugSuffix: %w", err)
			}
			if last > 0 {
				post = post.WithSlugSuffix(last + 1)
			}
			if err := r.Posts.Create(ctx, &post); err != nil {
				return fmt.Errorf("Posts.Create(%q): %w", post.Slug(), err)
			}
			return nil
		})
	})
	for i, err := range errs {
		checkErr(t, fmt.Sprint("post creation ", i), err, nil)
	}
	posts, err := listPosts(ctx, r, ports.PostFilter{}, ports.Page{Limit: 2 * n})
	if !checkErr(t, "PostViews.ListViews after the race", err, nil) {
		return
	}
	got := make([]string, len(posts))
	for i, p := range posts {
		got[i] = p.Slug()
	}
	slices.Sort(got)
	want := []string{slug}
	for i := 2; i <= n; i++ {
		want = append(want, fmt.Sprintf("%s-%d", slug, i))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("slugs after the race: got %q, want %q", got, want)
	}
	last, err := r.Posts.LastSlugSuffix(ctx, slug)
	if checkErr(t, "Posts.LastSlugSuffix after the race", err, nil) && last != n {
		t.Errorf("Posts.LastSlugSuffix after the race: got %d, want %d", last, n)
	}
}

// testRaceFirstAdmin is several makings of the first admin at once, each
// a transaction that takes Admin.LockAdmins, finds no admin and makes its
// own account one: the lock lets one through, and every other then finds
// its admin. Each waits a little between its look and its write, so that
// without the lock they would all find none.
func testRaceFirstAdmin(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	const n = 8
	errs := make([]error, n)
	race(n, func(i int) {
		errs[i] = st.InTx(ctx, func(r ports.Repos) error {
			if err := r.Admin.LockAdmins(ctx); err != nil {
				return err
			}
			admins, err := r.Admin.Admins(ctx)
			if err != nil {
				return err
			}
			if len(admins) > 0 {
				return domain.ErrAdminExists
			}
			time.Sleep(20 * time.Millisecond)
			u := newUser(fmt.Sprint("Admin ", i), fmt.Sprintf("admin%d@example.com", i))
			if err := r.Users.Create(ctx, &u); err != nil {
				return err
			}
			return r.Admin.SetAdmin(ctx, u.ID, true)
		})
	})
	winner := checkOneWinner(t, "first admin", errs, domain.ErrAdminExists)
	admins, err := st.Repos().Admin.Admins(ctx)
	if checkErr(t, "Admin.Admins after the race", err, nil) && winner >= 0 {
		if len(admins) != 1 || admins[0].Email != fmt.Sprintf("admin%d@example.com", winner) {
			t.Errorf("Admin.Admins after the race: got %v, want the winner's account alone", admins)
		}
	}
}
