package crud_test

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// etagOf returns a reply's ETag, failing the test when it has none.
func (r reply) etagOf(t *testing.T) string {
	t.Helper()
	tag := r.Header.Get("ETag")
	if len(tag) < 3 || tag[0] != '"' || tag[len(tag)-1] != '"' {
		t.Fatalf("ETag: got %q, want a strong tag (%d %s)", tag, r.Status, r.Raw)
	}
	return tag
}

func TestRecordsAnswerIfNoneMatch(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		user := idOf(a.mustCreate("/users", map[string]any{"name": "Ann", "email": "ann@example.com"}))
		product := idOf(a.mustCreate("/products", map[string]any{"name": "Pen", "price": 1.5}))
		for _, path := range []string{"/users/" + user, "/api/v1/users/" + user, "/api/v2/users/" + user, "/products/" + product, "/api/v1/products/" + product} {
			r := a.do("GET", path, "", "")
			r.check(t, http.StatusOK, "Success")
			tag := r.etagOf(t)
			for _, method := range []string{"GET", "HEAD"} {
				nm := a.do(method, path, "", "", "If-None-Match", tag)
				if nm.Status != http.StatusNotModified || nm.Raw != "" || nm.Header.Get("ETag") != tag {
					t.Errorf("%s %s If-None-Match: got %d %q with ETag %q, want 304 with no body", method, path, nm.Status, nm.Raw, nm.Header.Get("ETag"))
				}
			}
			a.do("GET", path, "", "", "If-None-Match", `"stale"`).check(t, http.StatusOK, "Success")
		}
		a.clock.Advance(time.Second)
		put := a.json("PUT", "/products/"+product, map[string]any{"name": "Pen", "price": 2})
		put.check(t, http.StatusOK, "Success")
		if got := a.do("GET", "/products/"+product, "", "", "If-None-Match", put.etagOf(t)); got.Status != http.StatusNotModified {
			t.Errorf("GET with the replacement's tag: got %d, want 304", got.Status)
		}
	})
}

func TestRecordWritesHonourIfMatch(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		user := idOf(a.mustCreate("/users", map[string]any{"name": "Ann", "email": "ann@example.com"}))
		product := idOf(a.mustCreate("/products", map[string]any{"name": "Pen", "price": 1.5}))
		cases := []struct {
			method, path string
			body         map[string]any
		}{
			{"PUT", "/users/" + user, map[string]any{"name": "Ann", "email": "ann@example.com", "age": 30}},
			{"PATCH", "/api/v2/users/" + user, map[string]any{"age": 31}},
			{"PUT", "/api/v1/products/" + product, map[string]any{"name": "Pen", "price": 2}},
		}
		for _, tc := range cases {
			stale := a.do("GET", tc.path, "", "").etagOf(t)
			a.clock.Advance(time.Second)
			a.json(tc.method, tc.path, tc.body, "If-Match", stale).check(t, http.StatusOK, "Success")
			a.clock.Advance(time.Second)
			a.json(tc.method, tc.path, tc.body, "If-Match", stale).check(t, http.StatusPreconditionFailed, "Precondition Failed")
			a.json(tc.method, tc.path, tc.body, "If-Match", "*").check(t, http.StatusOK, "Success")
		}
		for _, path := range []string{"/users/" + user, "/products/" + product} {
			stale := a.do("GET", path, "", "").etagOf(t)
			a.do("DELETE", path, "", "", "If-Match", `"0-0"`).check(t, http.StatusPreconditionFailed, "Precondition Failed")
			a.do("DELETE", path, "", "", "If-Match", stale).check(t, http.StatusNoContent, "")
		}
	})
}

func TestConcurrentRecordWritesWithOneTagLoseNoUpdate(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		user := idOf(a.mustCreate("/api/v2/users", map[string]any{"name": "Ann", "email": "ann@example.com"}))
		product := idOf(a.mustCreate("/products", map[string]any{"name": "Pen", "price": 1.5}))
		cases := []struct {
			method, path string
			bodies       []map[string]any
		}{
			{"PATCH", "/api/v2/users/" + user, []map[string]any{{"age": 1}, {"age": 2}}},
			{"PUT", "/products/" + product, []map[string]any{{"name": "One", "price": 1}, {"name": "Two", "price": 2}}},
		}
		for _, tc := range cases {
			tag := a.do("GET", tc.path, "", "").etagOf(t)
			// The clock moves on, as it does between a read and a write.
			a.clock.Advance(time.Second)
			statuses := make([]int, len(tc.bodies))
			var wg sync.WaitGroup
			for i, body := range tc.bodies {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses[i] = a.json(tc.method, tc.path, body, "If-Match", tag).Status
				}()
			}
			wg.Wait()
			if !(statuses[0] == http.StatusOK && statuses[1] == http.StatusPreconditionFailed) &&
				!(statuses[0] == http.StatusPreconditionFailed && statuses[1] == http.StatusOK) {
				t.Errorf("%s %s: got statuses %v, want one 200 and one 412", tc.method, tc.path, statuses)
			}
		}
	})
}
