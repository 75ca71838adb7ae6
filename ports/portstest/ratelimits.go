package portstest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/ports"
)

var rateLimitTests = []storeTest{
	{"Hit", testRateLimitHit},
	{"HitConcurrently", testRateLimitHitConcurrently},
	{"Clear", testRateLimitClear},
}

// The exact end of a window (now equal to reset_at) is left out: the port
// says a window "has ended" without saying whether its last instant belongs
// to it.

func testRateLimitHit(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	const key = "login:ann@example.com|192.0.2.1"
	steps := []struct {
		name      string
		key       string
		window    time.Duration
		now       time.Time
		wantHits  int
		wantReset time.Time
	}{
		{"first hit opens a window", key, time.Minute, base, 1, at(time.Minute)},
		{"second hit counts", key, time.Minute, at(10 * time.Second), 2, at(time.Minute)},
		{"an open window keeps its end whatever window is asked", key, time.Hour, at(30 * time.Second), 3, at(time.Minute)},
		{"last instant of the window counts", key, time.Minute, at(time.Minute - time.Microsecond), 4, at(time.Minute)},
		{"another key counts apart", "login:bob@example.com|192.0.2.1", 2 * time.Minute, at(20 * time.Second), 1, at(2*time.Minute + 20*time.Second)},
		{"a hit after the window opens a new one", key, time.Minute, at(time.Minute + time.Second), 1, at(2*time.Minute + time.Second)},
		{"and counts on in it", key, time.Minute, at(time.Minute + 2*time.Second), 2, at(2*time.Minute + time.Second)},
	}
	for _, s := range steps {
		hits, reset, err := r.RateLimits.Hit(ctx, s.key, s.window, s.now)
		if !checkErr(t, s.name+": RateLimits.Hit", err, nil) {
			continue
		}
		if hits != s.wantHits {
			t.Errorf("%s: RateLimits.Hit: got %d hits, want %d", s.name, hits, s.wantHits)
		}
		check(t, s.name+": RateLimits.Hit reset time", reset, s.wantReset)
	}
}

// testRateLimitHitConcurrently checks what a limit relies on: hits that
// race each get a count of their own, so that exactly as many as the limit
// are at or under it.
func testRateLimitHitConcurrently(t *testing.T, st ports.Store) {
	ctx := t.Context()
	const key, n = "login:ann@example.com|192.0.2.1", 20
	counts := make([]int, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[i], _, errs[i] = st.Repos().RateLimits.Hit(ctx, key, time.Minute, base)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		must(t, "RateLimits.Hit", err)
	}
	slices.Sort(counts)
	for i, c := range counts {
		if c != i+1 {
			t.Fatalf("RateLimits.Hit counts of %d concurrent hits: got %v, want 1 to %d, each once", n, counts, n)
		}
	}
}

func testRateLimitClear(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	const key, other = "login:ann@example.com|192.0.2.1", "login:bob@example.com|192.0.2.1"
	for range 3 {
		_, _, err := r.RateLimits.Hit(ctx, key, time.Minute, base)
		must(t, "RateLimits.Hit", err)
	}
	_, _, err := r.RateLimits.Hit(ctx, other, time.Minute, base)
	must(t, "RateLimits.Hit", err)

	checkErr(t, "RateLimits.Clear", r.RateLimits.Clear(ctx, key), nil)
	hits, reset, err := r.RateLimits.Hit(ctx, other, time.Minute, at(time.Second))
	if checkErr(t, "RateLimits.Hit of another key after Clear", err, nil) {
		if hits != 2 {
			t.Errorf("RateLimits.Hit of another key after Clear: got %d hits, want 2", hits)
		}
		check(t, "RateLimits.Hit of another key after Clear: its window stays", reset, at(time.Minute))
	}
	hits, reset, err = r.RateLimits.Hit(ctx, key, time.Minute, at(2*time.Second))
	if checkErr(t, "RateLimits.Hit after Clear", err, nil) {
		if hits != 1 {
			t.Errorf("RateLimits.Hit after Clear: got %d hits, want 1", hits)
		}
		check(t, "RateLimits.Hit after Clear: a new window starts", reset, at(time.Minute+2*time.Second))
	}
	checkErr(t, "RateLimits.Clear of an unknown key", r.RateLimits.Clear(ctx, "never hit"), nil)
}
