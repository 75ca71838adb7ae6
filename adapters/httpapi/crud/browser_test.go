package crud_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/inkwell/inkwell/adapters/httpapi/cors"
	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// page is what the page origin serves: a script that sends the request its
// query names (method, API URL and JSON body) with credentials, as a
// single-page front end on another origin would, and writes the outcome into
// the document.
const page = `<!doctype html>
<html><body><pre id="result"></pre><script>
const query = new URLSearchParams(location.search);
fetch(query.get("api"), {
  credentials: "include",
  method: query.get("method"),
  headers: {"Content-Type": "application/json"},
  body: query.get("body"),
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
// another origin. A PATCH is preflighted, so it gets through only when the
// preflight's Access-Control-Allow-Methods names it.
func TestBrowserCORS(t *testing.T) {
	pageOrigin := servePage(t)

	browser := stacktest.Browser(t)

	listed := cors.Config{AllowedOrigins: []string{pageOrigin}}
	foreign := cors.Config{AllowedOrigins: []string{"http://127.0.0.1:1"}}
	tests := []struct {
		name   string
		cfg    cors.Config
		method string
		want   string
		// wantPeople are the records afterwards, as name and age.
		wantPeople []string
	}{
		{"development allows any origin", cors.Config{AllowAnyOrigin: true}, "POST", "201 Created", []string{"Ann -"}},
		{"production allows a listed origin", listed, "POST", "201 Created", []string{"Ann -"}},
		{"production blocks a foreign origin", foreign, "POST", "blocked: TypeError", nil},
		{"a listed origin may PATCH", listed, "PATCH", "200 Success", []string{"Bob 31"}},
		{"a foreign origin may not PATCH", foreign, "PATCH", "blocked: TypeError", []string{"Bob -"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			apiOrigin, a := serveAPI(t, tt.cfg)
			path, body := "/api/v1/users", `{"name":"Ann","email":"ann@example.com"}`
			if tt.method == "PATCH" {
				bob := a.mustCreate("/api/v2/users", map[string]any{"name": "Bob", "email": "bob@example.com"})
				path, body = "/api/v2/users/"+idOf(bob), `{"age":31}`
			}
			tab, cancelTab := chromedp.NewContext(browser)
			defer cancelTab()
			query := url.Values{"api": {apiOrigin + path}, "method": {tt.method}, "body": {body}}
			if err := chromedp.Do(tab, chromedp.Navigate(pageOrigin+"/?"+query.Encode()), chromedp.WaitReady(chromedp.ID("done"))); err != nil {
				t.Fatalf("run page: %v", err)
			}
			got, err := chromedp.Run(tab, chromedp.TextContent(chromedp.ID("result")))
			if err != nil {
				t.Fatalf("read outcome: %v", err)
			}
			if got != tt.want {
				t.Errorf("outcome: got %q, want %q", got, tt.want)
			}
			// A refused preflight keeps the request from ever being sent.
			people, _, err := a.store.Repos().People.List(context.Background(), ports.PersonQuery{Page: ports.Page{Limit: 10}})
			if err != nil {
				t.Fatal(err)
			}
			var gotPeople []string
			for _, p := range people {
				age := "-"
				if p.Age != nil {
					age = strconv.Itoa(*p.Age)
				}
				gotPeople = append(gotPeople, p.Name+" "+age)
			}
			if !slices.Equal(gotPeople, tt.wantPeople) {
				t.Errorf("records: got %q, want %q", gotPeople, tt.wantPeople)
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
// through a real listener, and returns its origin and the API.
func serveAPI(t *testing.T, cfg cors.Config) (string, *api) {
	t.Helper()
	a := newAPI(t, memory.New(), options{cors: cfg})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go a.app.Listener(ln)
	t.Cleanup(func() { a.app.Shutdown() })
	return "http://" + ln.Addr().String(), a
}
