package httpapi_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/standbytest"
)

// standbyMaxLag is DATABASE_READ_MAX_LAG in the standby tests: long enough
// for a test to read the standby after pausing its replay, short enough to
// wait out.
const standbyMaxLag = 3 * time.Second

// newStandbyHarness serves a store on a primary of its own whose anonymous
// reads may go to a hot standby of it.
func newStandbyHarness(t *testing.T) (*harness, *standbytest.Pair) {
	t.Helper()
	pair := standbytest.Start(t)
	store, cleanup, err := postgres.Open(context.Background(), pair.PrimaryURL,
		postgres.WithStandby(postgres.Standby{URL: pair.StandbyURL, MaxLag: standbyMaxLag}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	return newHarness(t, store, options{}), pair
}

// readsTo returns how many routable reads /metrics says went to target.
func readsTo(t *testing.T, h *harness, target string) int {
	t.Helper()
	v, ok := sample(scrape(t, h), `store_reads_total{target="`+target+`"}`)
	if !ok {
		t.Fatalf("/metrics has no store_reads_total for %s", target)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("store_reads_total{target=%q} = %q", target, v)
	}
	return n
}

// standbyGauge returns store_standby_usable or store_standby_lag_seconds.
func standbyGauge(t *testing.T, h *harness, name string) float64 {
	t.Helper()
	v, ok := sample(scrape(t, h), name)
	if !ok {
		t.Fatalf("/metrics has no %s", name)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("%s = %q", name, v)
	}
	return f
}

// routed runs read and returns how many reads it sent to the primary and
// to the standby.
func routed(t *testing.T, h *harness, read func()) (primary, standby int) {
	t.Helper()
	p0, s0 := readsTo(t, h, "primary"), readsTo(t, h, "standby")
	read()
	return readsTo(t, h, "primary") - p0, readsTo(t, h, "standby") - s0
}

// waitForStandby waits until /metrics says whether the standby is usable.
func waitForStandby(t *testing.T, h *harness, usable bool) {
	t.Helper()
	want := map[bool]float64{false: 0, true: 1}[usable]
	deadline := time.Now().Add(4 * standbyMaxLag)
	for standbyGauge(t, h, "store_standby_usable") != want {
		if time.Now().After(deadline) {
			t.Fatalf("store_standby_usable did not become %v within %s", want, 4*standbyMaxLag)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// titlesOf lists the titles of a v1 post list.
func titlesOf(r response) []string {
	var titles []string
	for _, item := range r.body["data"].([]any) {
		titles = append(titles, v1Attrs(item)["title"].(string))
	}
	return titles
}

func tagNamesOf(r response) []string {
	var names []string
	for _, item := range r.body["data"].([]any) {
		names = append(names, v1Attrs(item)["name"].(string))
	}
	return names
}

// TestStandbyRouting proves where each read goes: anonymous post lists,
// searches, single posts and tags on the standby; a token's or a
// session's, and area B, on the primary. Pausing the standby's replay
// shows it: a post written meanwhile is missing from the anonymous reads
// only, until the lag guard sends them to the primary too.
func TestStandbyRouting(t *testing.T) {
	h, pair := newStandbyHarness(t)
	token, _ := h.v1Account("Ann")
	first := h.v1NewPost(token, "First light", "published")
	b := h.browser(spaOrigin)
	b.signIn("ann@example.com")
	pair.WaitForReplay(t)
	waitForStandby(t, h, true)

	// A primary without writes leaves the standby usable: no lag grows
	// while nothing is written.
	time.Sleep(standbyMaxLag + standbyMaxLag/2)
	if got := standbyGauge(t, h, "store_standby_usable"); got != 1 {
		t.Fatalf("after %s without writes: store_standby_usable = %v, want 1", standbyMaxLag*3/2, got)
	}
	if lag := standbyGauge(t, h, "store_standby_lag_seconds"); lag > standbyMaxLag.Seconds() {
		t.Errorf("after %s without writes: store_standby_lag_seconds = %v, want at most %v", standbyMaxLag*3/2, lag, standbyMaxLag.Seconds())
	}

	anonymous := []string{"/api/v1/posts", "/api/v1/posts?search=light", "/api/v1/posts/" + first, "/api/v1/tags"}
	for _, path := range anonymous {
		p, s := routed(t, h, func() { h.do("GET", path, nil).expect(t, http.StatusOK, nil) })
		if p != 0 || s != 1 {
			t.Errorf("anonymous GET %s: %d reads on the primary and %d on the standby, want 0 and 1", path, p, s)
		}
	}
	for _, path := range append(anonymous, "/api/v2/posts", "/api/v2/posts/"+first) {
		p, s := routed(t, h, func() { h.do("GET", path, nil, as(token)...).expect(t, http.StatusOK, nil) })
		if p != 1 || s != 0 {
			t.Errorf("GET %s with a token: %d reads on the primary and %d on the standby, want 1 and 0", path, p, s)
		}
		p, s = routed(t, h, func() { b.do("GET", path, nil).expect(t, http.StatusOK, nil) })
		if p != 1 || s != 0 {
			t.Errorf("GET %s in a session: %d reads on the primary and %d on the standby, want 1 and 0", path, p, s)
		}
	}

	// Writes the paused standby does not see.
	pair.PauseReplay(t)
	paused := time.Now()
	second := h.v1NewPost(token, "Second light", "published")
	h.do("POST", "/api/v1/tags", map[string]any{"name": "Fresh"}, as(token)...).expect(t, http.StatusCreated, nil)
	product := h.do("POST", "/products", map[string]any{"name": "Lamp", "price": 3})
	product.expect(t, http.StatusCreated, nil)
	productID := jsonNumber(product.body["data"].(map[string]any)["id"])

	// Within the limit the anonymous reads come from the standby, as it
	// was before the pause; everybody else's from the primary.
	if got := titlesOf(h.do("GET", "/api/v1/posts", nil)); slices.Contains(got, "Second light") {
		t.Errorf("anonymous list while replay is paused: got %q, want the standby's, without the new post", got)
	}
	h.do("GET", "/api/v1/posts/"+second, nil).expect(t, http.StatusNotFound, nil)
	if got := tagNamesOf(h.do("GET", "/api/v1/tags", nil)); slices.Contains(got, "Fresh") {
		t.Errorf("anonymous tags while replay is paused: got %q, want the standby's, without the new tag", got)
	}
	if time.Since(paused) > standbyMaxLag/2 {
		t.Fatalf("the reads took %s of the %s limit; the machine is too slow for this test's timing", time.Since(paused), standbyMaxLag)
	}
	if got := titlesOf(h.do("GET", "/api/v1/posts", nil, as(token)...)); !slices.Contains(got, "Second light") {
		t.Errorf("a token's list while replay is paused: got %q, want the new post", got)
	}
	if got := titlesOf(b.do("GET", "/api/v1/posts", nil)); !slices.Contains(got, "Second light") {
		t.Errorf("a session's list while replay is paused: got %q, want the new post", got)
	}
	h.do("GET", "/api/v1/posts/"+second, nil, as(token)...).expect(t, http.StatusOK, nil)
	if got := tagNamesOf(h.do("GET", "/api/v1/tags", nil, as(token)...)); !slices.Contains(got, "Fresh") {
		t.Errorf("a token's tags while replay is paused: got %q, want the new tag", got)
	}
	// Area B's writes are anonymous, and its reads stay on the primary.
	h.do("GET", "/products/"+productID, nil).expect(t, http.StatusOK, nil)

	// The lag guard: past the limit the standby is skipped, and anonymous
	// readers see the new post from the primary.
	waitForStandby(t, h, false)
	if lag := standbyGauge(t, h, "store_standby_lag_seconds"); lag <= standbyMaxLag.Seconds() {
		t.Errorf("with replay paused: store_standby_lag_seconds = %v, want more than %v", lag, standbyMaxLag.Seconds())
	}
	p, s := routed(t, h, func() {
		if got := titlesOf(h.do("GET", "/api/v1/posts", nil)); !slices.Contains(got, "Second light") {
			t.Errorf("anonymous list with the standby too far behind: got %q, want the new post", got)
		}
		h.do("GET", "/api/v1/posts/"+second, nil).expect(t, http.StatusOK, nil)
	})
	if p != 2 || s != 0 {
		t.Errorf("anonymous reads with the standby too far behind: %d on the primary and %d on the standby, want 2 and 0", p, s)
	}

	// Replay resumed, the standby catches up and serves again.
	pair.ResumeReplay(t)
	waitForStandby(t, h, true)
	p, s = routed(t, h, func() {
		if got := titlesOf(h.do("GET", "/api/v1/posts", nil)); !slices.Contains(got, "Second light") {
			t.Errorf("anonymous list after replay resumed: got %q, want the new post", got)
		}
	})
	if p != 0 || s != 1 {
		t.Errorf("anonymous read after replay resumed: %d on the primary and %d on the standby, want 0 and 1", p, s)
	}
}

// TestStandbyDown proves the fallback: with the standby stopped, anonymous
// reads still succeed, from the primary, and the service stays ready.
func TestStandbyDown(t *testing.T) {
	h, pair := newStandbyHarness(t)
	token, _ := h.v1Account("Ann")
	h.v1NewPost(token, "Still here", "published")
	pair.WaitForReplay(t)
	waitForStandby(t, h, true)

	pair.StopStandby(t)
	// The first reads may still find the standby usable: the read that
	// fails there runs again on the primary.
	for range 3 {
		if got := titlesOf(h.do("GET", "/api/v1/posts", nil)); !slices.Equal(got, []string{"Still here"}) {
			t.Errorf("anonymous list with the standby stopped: got %q, want [Still here]", got)
		}
		h.do("GET", "/api/v1/tags", nil).expect(t, http.StatusOK, nil)
	}
	h.do("GET", "/readyz", nil).expect(t, http.StatusOK, nil)
	waitForStandby(t, h, false)
	p, s := routed(t, h, func() { h.do("GET", "/api/v1/posts", nil).expect(t, http.StatusOK, nil) })
	if p != 1 || s != 0 {
		t.Errorf("anonymous read with the standby stopped: %d on the primary and %d on the standby, want 1 and 0", p, s)
	}
	h.do("GET", "/readyz", nil).expect(t, http.StatusOK, nil)
}
