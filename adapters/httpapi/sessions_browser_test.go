package httpapi_test

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
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// spaPage is a single-page front end that signs in with a browser session
// and writes through it, with cookies only: it fetches the CSRF cookie,
// reads XSRF-TOKEN from document.cookie and echoes it, as axios would. Each
// step's status ("blocked" when the browser refuses to let the page see the
// answer) is written into the document.
const spaPage = `<!doctype html>
<html><body><pre id="result"></pre><script>
const api = new URLSearchParams(location.search).get("api");
const xsrf = () => {
  const c = document.cookie.split("; ").find((c) => c.startsWith("XSRF-TOKEN="));
  return c ? decodeURIComponent(c.slice("XSRF-TOKEN=".length)) : "";
};
const send = (method, body) => ({
  method,
  headers: {"Content-Type": "application/json", "X-XSRF-TOKEN": xsrf()},
  body: JSON.stringify(body),
});
const step = (name, path, init) =>
  fetch(api + path, Object.assign({credentials: "include"}, init))
    .then((r) => name + ":" + r.status)
    .catch(() => name + ":blocked");
(async () => {
  const out = [];
  out.push(await step("csrf", "/sanctum/csrf-cookie", {}));
  out.push(await step("login", "/login", send("POST", {email: "ann@example.com", password: "password1"})));
  out.push(await step("user", "/api/v1/user", {}));
  out.push(await step("post", "/api/v1/posts", send("POST", {title: "From the browser", body: "Sent with cookies only.", status: "published"})));
  out.push(await step("logout", "/logout", send("POST", {})));
  out.push(await step("after", "/api/v1/user", {}));
  document.getElementById("result").textContent = out.join(" ");
  const done = document.createElement("div");
  done.id = "done";
  document.body.appendChild(done);
})();
</script></body></html>`

// TestSessionsInBrowser runs a front end through Chromium against the API
// served by a real listener. Cookies belong to a host, not to a port, so
// the API is reached as http://localhost:<port>, a host whose cookies the
// page on http://localhost:<other port> can read, as a front end's dev
// server beside the API would be.
func TestSessionsInBrowser(t *testing.T) {
	spaPort, otherPort, foreignPort := servePage(t), servePage(t), servePage(t)
	spa := fmt.Sprintf("http://localhost:%d", spaPort)
	other := fmt.Sprintf("http://localhost:%d", otherPort)
	foreign := fmt.Sprintf("http://127.0.0.1:%d", foreignPort)
	h := newHarness(t, stores[0].Open(t), options{
		stateful: []string{fmt.Sprintf("localhost:%d", spaPort)},
		cors: cors.Config{
			AllowedOrigins: []string{spa, other},
		},
	})
	_, annID := h.v1Account("Ann")
	apiURL, err := url.Parse(h.listen())
	if err != nil {
		t.Fatal(err)
	}
	api := "http://localhost:" + apiURL.Port()

	browser := stacktest.Browser(t)

	tests := []struct {
		name      string
		page      string
		want      string
		wantPosts int
	}{
		{"a stateful origin signs in and writes with cookies", spa,
			"csrf:204 login:200 user:200 post:201 logout:204 after:401", 1},
		{"an origin CORS allows but STATEFUL_DOMAINS does not cannot sign in", other,
			"csrf:204 login:403 user:401 post:401 logout:204 after:401", 1},
		{"a foreign origin is refused by CORS", foreign,
			"csrf:blocked login:blocked user:blocked post:blocked logout:blocked after:blocked", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Each page gets a browser context of its own, so that no
			// cookie of one case reaches another.
			tab, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
			defer cancelTab()
			target := tt.page + "/?api=" + url.QueryEscape(api)
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
			posts, _, err := h.store.Repos().PostViews.ListViews(context.Background(), ports.PostFilter{}, ports.Page{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(posts) != tt.wantPosts || posts[0].Post.Title() != "From the browser" || float64(posts[0].Post.AuthorID()) != annID {
				t.Errorf("posts in the store: got %d, want %d by the page", len(posts), tt.wantPosts)
			}
		})
	}
}

// servePage serves spaPage on a random 127.0.0.1 port and returns the port.
func servePage(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, spaPage)
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}
