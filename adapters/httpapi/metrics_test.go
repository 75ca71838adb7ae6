package httpapi_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/memory"
)

// scrape returns the server's /metrics text.
func scrape(t *testing.T, h *harness) string {
	t.Helper()
	r := h.do("GET", "/metrics", nil)
	if r.status != http.StatusOK {
		t.Fatalf("GET /metrics: got %d %s", r.status, r.raw)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("GET /metrics: Content-Type %q, want the Prometheus text format", ct)
	}
	return string(r.raw)
}

// sample returns the value of the series named by name and its labels, as
// the text format writes it, and whether it is there.
func sample(text, series string) (string, bool) {
	for line := range strings.Lines(text) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), series+" "); ok {
			return rest, true
		}
	}
	return "", false
}

func TestMetrics(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, http.StatusOK, nil)
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, http.StatusOK, nil)
		h.do("DELETE", "/api/v1/tokens/999999", nil, as(token)...).expect(t, http.StatusNotFound, nil)
		h.do("GET", "/users/42", nil).expect(t, http.StatusNotFound, nil)
		// A scanner's probes of paths that do not exist.
		for _, p := range []string{"/wp-admin/setup-config.php", "/.env", "/api/v1/../../etc/passwd", "/api/v9/x"} {
			h.do("GET", p, nil)
		}
		h.do("PATCH", "/healthz", nil)
		// Uploaded files count under their mount, found or not.
		if err := os.MkdirAll(filepath.Join(h.storage, "posts"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(h.storage, "posts", "a.txt"), []byte("hello"), 0o600); err != nil {
			t.Fatal(err)
		}
		h.do("GET", "/storage/posts/a.txt", nil).expect(t, http.StatusOK, nil)
		h.do("GET", "/storage/missing-1.txt", nil).expect(t, http.StatusNotFound, nil)
		h.do("GET", "/storage/missing-2.txt", nil).expect(t, http.StatusNotFound, nil)
		h.server.App().Get("/api/test/panic", func(*fiber.Ctx) error { panic("boom") })
		h.do("GET", "/api/test/panic", nil).expect(t, http.StatusInternalServerError, nil)

		text := scrape(t, h)
		for series, want := range map[string]string{
			`http_requests_total{method="POST",route="/api/v1/register",status="201"}`:            "1",
			`http_requests_total{method="GET",route="/api/v1/user",status="200"}`:                 "2",
			`http_requests_total{method="DELETE",route="/api/v1/tokens/:id",status="404"}`:        "1",
			`http_requests_total{method="GET",route="/users/:id",status="404"}`:                   "1",
			`http_requests_total{method="GET",route="unmatched",status="404"}`:                    "4",
			`http_requests_total{method="PATCH",route="unmatched",status="405"}`:                  "1",
			`http_requests_total{method="GET",route="/storage",status="200"}`:                     "1",
			`http_requests_total{method="GET",route="/storage",status="404"}`:                     "2",
			`http_request_duration_seconds_count{method="GET",route="/api/v1/user",status="200"}`: "2",
			`http_requests_total{method="GET",route="/api/test/panic",status="500"}`:              "1",
		} {
			if got, ok := sample(text, series); !ok || got != want {
				t.Errorf("%s: got %q (present %v), want %s", series, got, ok, want)
			}
		}
		for line := range strings.Lines(text) {
			if !strings.HasPrefix(line, "http_request") {
				continue
			}
			labels := line[:strings.LastIndex(line, "}")+1] // the value may hold any digits
			for _, raw := range []string{"wp-admin", ".env", "passwd", "/api/v9", "999999", "/users/42", "a.txt", "missing"} {
				if strings.Contains(labels, raw) {
					t.Errorf("metrics carry the raw path fragment %q: %s", raw, line)
				}
			}
		}
		for _, name := range []string{"go_goroutines", "go_memstats_heap_alloc_bytes", "http_request_duration_seconds_bucket"} {
			if !strings.Contains(text, "\n"+name) {
				t.Errorf("metrics lack %s", name)
			}
		}

		pools := map[string][]string{"memory": nil, "sqlite": {"writer", "reader"}, "postgres": {"main"}, "postgres-pgbouncer": {"main"}}[storeName(t)]
		for _, pool := range pools {
			for _, name := range []string{"store_pool_acquired_connections", "store_pool_idle_connections", "store_pool_total_connections", "store_pool_max_connections", "store_pool_waits_total", "store_pool_wait_seconds_total"} {
				if _, ok := sample(text, fmt.Sprintf("%s{pool=%q}", name, pool)); !ok {
					t.Errorf("metrics lack %s for pool %s", name, pool)
				}
			}
		}
		if got, ok := sample(text, `store_pool_max_connections{pool="writer"}`); len(pools) == 2 && got != "1" {
			t.Errorf("writer pool max: got %q (present %v), want 1", got, ok)
		}
		if _, ok := sample(text, `store_pool_acquires_total{pool="main"}`); strings.HasPrefix(storeName(t), "postgres") && !ok {
			t.Errorf("metrics lack the pgx pool's acquisitions")
		}
		if pools == nil && strings.Contains(text, "store_pool_") {
			t.Errorf("the memory store has no pool, yet metrics show one")
		}
		if _, isCounter := h.store.(interface{ Queries() int64 }); isCounter {
			got, ok := sample(text, "store_queries_total")
			if !ok || got == "0" {
				t.Errorf("store_queries_total: got %q (present %v), want a positive count", got, ok)
			}
		}
	})
}

// storeName is the store a forEachStore subtest runs on, from its name.
func storeName(t *testing.T) string {
	return t.Name()[strings.LastIndex(t.Name(), "/")+1:]
}

func TestMetricsOfSeveralServers(t *testing.T) {
	// Each server registers its series in a registry of its own, so a second
	// server in the process neither panics nor shares the first one's counts.
	a := opsHarness(t, memory.New(), time.Second, nil)
	b := opsHarness(t, memory.New(), time.Second, nil)
	a.do("GET", "/healthz", nil)
	if got, _ := sample(scrape(t, a), `http_requests_total{method="GET",route="/healthz",status="200"}`); got != "1" {
		t.Errorf("first server: got %q, want 1", got)
	}
	if got, ok := sample(scrape(t, b), `http_requests_total{method="GET",route="/healthz",status="200"}`); ok {
		t.Errorf("second server counts the first one's request: %s", got)
	}
}

func TestMetricsNameTheRouteOfReplaysAndRefusals(t *testing.T) {
	forEachStoreWith(t, options{rateLimit: 3}, func(t *testing.T, h *harness) {
		token := h.register("Ann", "ann@example.com", "password1")
		tag := map[string]any{"name": "Go"}
		first := h.do("POST", "/api/v1/tags", tag, as(token, "Idempotency-Key", "tag-1")...)
		first.expect(t, http.StatusCreated, nil)
		h.do("POST", "/api/v1/tags", tag, as(token, "Idempotency-Key", "tag-1")...).replayed(t, first)
		h.do("POST", "/api/v1/tags", map[string]any{"name": "Rust"}, as(token, "Idempotency-Key", "tag-1")...).expect(t, http.StatusUnprocessableEntity, nil)
		// The address's quota is spent by the registration and two requests.
		h.do("GET", "/users", nil).expect(t, http.StatusOK, nil)
		h.do("GET", "/users/7", nil).expect(t, http.StatusNotFound, nil)
		h.do("GET", "/users/7", nil).expect(t, http.StatusTooManyRequests, nil)
		h.do("GET", "/api/v1/posts", nil).expect(t, http.StatusTooManyRequests, nil)
		h.do("GET", "/no-such-page", nil).expect(t, http.StatusTooManyRequests, nil)

		text := scrape(t, h)
		for series, want := range map[string]string{
			`http_requests_total{method="POST",route="/api/v1/tags",status="201"}`: "2",
			`http_requests_total{method="POST",route="/api/v1/tags",status="422"}`: "1",
			`http_requests_total{method="GET",route="/users/:id",status="429"}`:    "1",
			`http_requests_total{method="GET",route="/api/v1/posts",status="429"}`: "1",
			`http_requests_total{method="GET",route="unmatched",status="429"}`:     "1",
		} {
			if got, ok := sample(text, series); !ok || got != want {
				t.Errorf("%s: got %q (present %v), want %s", series, got, ok, want)
			}
		}
	})
}

// TestMetricsShowBacklogAndStreams checks the gauges operators watch for
// work falling behind: the mails and webhook deliveries still pending in
// the shared store, and the event streams open on this replica.
func TestMetricsShowBacklogAndStreams(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{heartbeat: 50 * time.Millisecond})
			base := h.listen()
			gauges := func(want map[string]string) {
				t.Helper()
				deadline := time.Now().Add(5 * time.Second)
				for {
					text, wrong := scrape(t, h), ""
					for series, value := range want {
						if got, ok := sample(text, series); !ok || got != value {
							wrong += fmt.Sprintf(" %s: got %q (present %v), want %s;", series, got, ok, value)
						}
					}
					if wrong == "" {
						return
					}
					if time.Now().After(deadline) {
						t.Fatalf("metrics:%s", wrong)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			gauges(map[string]string{"inkwell_mail_outbox_pending": "0", "inkwell_webhook_deliveries_pending": "0", "inkwell_event_streams_open": "0"})

			ann, _ := h.v1Account("Ann") // mails a verification link
			h.do("POST", "/api/v1/webhooks", map[string]any{"url": "https://hooks.example.com/in", "events": []any{"post.created"}}, as(ann)...).expect(t, http.StatusCreated, nil)
			h.v1Post(ann, map[string]any{"title": "Hello", "body": "b", "status": "published"})
			if _, err := h.worker.FanOut(t.Context()); err != nil {
				t.Fatal(err)
			}
			first := subscribe(t, base, "", as(ann)...)
			subscribe(t, base, "", as(ann)...)
			gauges(map[string]string{"inkwell_mail_outbox_pending": "1", "inkwell_webhook_deliveries_pending": "1", "inkwell_event_streams_open": "2"})

			h.sendDue()
			first.cancel()
			gauges(map[string]string{"inkwell_mail_outbox_pending": "0", "inkwell_webhook_deliveries_pending": "1", "inkwell_event_streams_open": "1"})
		})
	}
}
