package crud_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/inkwell/inkwell/adapters/httpapi/cors"
	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// page is what the page origin serves: a script that posts a user to the API
// named in its query, with credentials, as a single-page front end on
// another origin would, and writes the outcome into the document.
const page = `<!doctype html>
<html><body><pre id="result"></pre><script>
const api = new URLSearchParams(location.search).get("api");
fetch(api, {
  credentials: "include",
  method: "POST",
  headers: {"Content-Type": "application/json"},
  body: JSON.stringify({name: "Ann", email: "ann@example.com"}),
})
  .then(async (r) => r.status + " " + (await r.json()).message)
  .catch((e) => "blocked: " + e.name)
  .then((text) => {
    document.getElementById("result").textContent = text;
    const done = document.createElement("div");
    done.id = "done";
    document.body.appendChild(done);
  });
</script></body></html>`

// TestBrowserCORS checks the cross-origin policy where it matters, in a
// browser: a page on one 127.0.0.1 port calls the API on another, which is
// another origin.
func TestBrowserCORS(t *testing.T) {
	pageOrigin := servePage(t)

	browser := stacktest.Browser(t)

	tests := []struct {
		name        string
		cfg         cors.Config
		want        string
		wantRecords int
	}{
		{"development allows any origin", cors.Config{AllowAnyOrigin: true}, "201 Created", 1},
		{"production allows a listed origin", cors.Config{AllowedOrigins: []string{pageOrigin}}, "201 Created", 1},
		{"production blocks a foreign origin", cors.Config{AllowedOrigins: []string{"http://127.0.0.1:1"}}, "blocked: TypeError", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			apiOrigin, store := serveAPI(t, tt.cfg)
			tab, cancelTab := chromedp.NewContext(browser)
			defer cancelTab()
			target := pageOrigin + "/?api=" + url.QueryEscape(apiOrigin+"/api/v1/users")
			if err := chromedp.Do(tab, chromedp.Navigate(target), chromedp.WaitReady(chromedp.ID("done"))); err != nil {
				t.Fatalf("run page: %v", err)
			}
			got, err := chromedp.Run(tab, chromedp.TextContent(chromedp.ID("result")))
			if err != nil {
				t.Fatalf("read outcome: %v", err)
			}
			if got != tt.want {
				t.Errorf("outcome: got %q, want %q", got, tt.want)
			}
			// A refused preflight keeps the POST from ever being sent.
			_, total, err := store.Repos().People.List(context.Background(), ports.PersonQuery{Page: ports.Page{Limit: 10}})
			if err != nil {
				t.Fatal(err)
			}
			if total != tt.wantRecords {
				t.Errorf("records: got %d, want %d", total, tt.wantRecords)
			}
		})
	}
}

// servePage serves page on a random 127.0.0.1 port and returns its origin.
func servePage(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, page)
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// serveAPI serves area B over a memory store on a random 127.0.0.1 port,
// through a real listener, and returns its origin and store.
func serveAPI(t *testing.T, cfg cors.Config) (string, ports.Store) {
	t.Helper()
	store := memory.New()
	a := newAPI(t, store, options{cors: cfg})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go a.app.Listener(ln)
	t.Cleanup(func() { a.app.Shutdown() })
	return "http://" + ln.Addr().String(), store
}
