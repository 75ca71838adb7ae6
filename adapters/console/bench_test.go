package console_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// stores are the stores every console test runs on.
var stores = stacktest.Stores()

// forEachStore runs test once per store, each on a fresh service.
func forEachStore(t *testing.T, test func(t *testing.T, b *bench)) {
	t.Helper()
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			test(t, newBench(t, s.Open(t)))
		})
	}
}

// bench is the whole service (API and console on one Fiber app, as the
// composition root builds it) over one store.
type bench struct {
	t      *testing.T
	server *httpapi.Server
	svc    httpapi.Deps
	stack  stacktest.Stack
	store  ports.Store
}

// origin is where the bench's requests go, as their Host header says.
const origin = "http://example.com"

const password = "correct horse battery"

func newBench(t *testing.T, store ports.Store) *bench {
	return newBenchWith(t, store, "", httpapi.Config{})
}

// newBenchAt is newBench with APP_URL appURL.
func newBenchAt(t *testing.T, store ports.Store, appURL string) *bench {
	return newBenchWith(t, store, appURL, httpapi.Config{})
}

// newBenchWith is newBench with APP_URL appURL and the HTTP settings cfg,
// whose timeout and body limit default to the tests' own.
func newBenchWith(t *testing.T, store ports.Store, appURL string, cfg httpapi.Config) *bench {
	// Webhooks may go to loopback addresses, and one failed attempt fails
	// a delivery and disables its webhook, so that tests see failures at
	// once.
	stack := stacktest.NewStack(t, store, stacktest.Options{
		LoginMaxAttempts: 5, WebhooksAllowPrivate: true, AppURL: appURL, FrontendURL: cfg.FrontendURL,
		Webhooks: app.WebhooksConfig{MaxAttempts: 1, Backoff: time.Minute, DisableAfter: 1},
	})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = 5 * time.Second
	}
	if cfg.BodyLimit == 0 {
		cfg.BodyLimit = 1 << 20
	}
	srv := httpapi.New(cfg, log, stack.Services)
	return &bench{t: t, server: srv, svc: stack.Services, stack: stack, store: store}
}

// listen serves the app on a loopback port until the test ends.
func (b *bench) listen() string {
	b.t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.t.Fatal(err)
	}
	go func() { _ = b.server.Serve(l) }()
	b.t.Cleanup(func() { _ = b.server.Shutdown(10 * time.Second) })
	return "http://" + l.Addr().String()
}

// answer is what a test sees of a response.
type answer struct {
	status int
	header http.Header
	body   string
	doc    *goquery.Document
}

// text is the trimmed text of the first element sel finds.
func (a answer) text(sel string) string {
	return strings.TrimSpace(a.doc.Find(sel).First().Text())
}

// send sends req through the real Fiber stack.
func (b *bench) send(req *http.Request) answer {
	b.t.Helper()
	resp, err := b.server.App().Test(req, -1)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	a := answer{status: resp.StatusCode, header: resp.Header, body: string(raw)}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		a.doc, err = goquery.NewDocumentFromReader(bytes.NewReader(raw))
		if err != nil {
			b.t.Fatal(err)
		}
	}
	return a
}

// api calls the JSON API with an optional bearer token and returns the
// status and decoded body.
func (b *bench) api(method, path, token string, body any) (int, map[string]any) {
	b.t.Helper()
	var r io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		r = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, origin+path, r)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	a := b.send(req)
	var out map[string]any
	_ = json.Unmarshal([]byte(a.body), &out)
	return a.status, out
}

// register makes an account through the API and returns its id and token.
func (b *bench) register(name, email string) (int64, string) {
	b.t.Helper()
	status, out := b.api("POST", "/api/v1/register", "", map[string]any{
		"name": name, "email": email, "password": password, "password_confirmation": password,
	})
	if status != http.StatusCreated {
		b.t.Fatalf("register %s: %d %v", email, status, out)
	}
	user, _ := out["user"].(map[string]any)
	id, _ := user["id"].(float64)
	token, _ := out["token"].(string)
	return int64(id), token
}

// grant makes the account with email an admin, as `inkwell admin grant`
// does.
func (b *bench) grant(email string) {
	b.t.Helper()
	if _, err := b.stack.Operator.Admins.Grant(context.Background(), email); err != nil {
		b.t.Fatal(err)
	}
}

// post creates a post through the API and returns its id.
func (b *bench) post(token, title, status string) int64 {
	b.t.Helper()
	code, out := b.api("POST", "/api/v1/posts", token, map[string]any{"title": title, "body": "Body of " + title, "status": status})
	if code != http.StatusCreated {
		b.t.Fatalf("create post: %d %v", code, out)
	}
	data, _ := out["data"].(map[string]any)
	if data == nil {
		data = out
	}
	id, _ := data["id"].(float64)
	return int64(id)
}

// browser is one browser's view of the console: its cookies and the CSRF
// token of the last page it read.
type browser struct {
	b       *bench
	cookies map[string]string
	token   string
}

func (b *bench) browser() *browser { return &browser{b: b, cookies: map[string]string{}} }

// do sends a request with the browser's cookies and keeps the cookies the
// answer sets, and the page's CSRF token.
func (br *browser) do(req *http.Request) answer {
	br.b.t.Helper()
	for name, value := range br.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	a := br.b.send(req)
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if c.MaxAge < 0 || (!c.Expires.IsZero() && c.Expires.Before(time.Now())) {
			delete(br.cookies, c.Name)
		} else {
			br.cookies[c.Name] = c.Value
		}
	}
	if a.doc != nil {
		if tok, ok := a.doc.Find(`input[name="_token"]`).First().Attr("value"); ok {
			br.token = tok
		}
	}
	return a
}

func (br *browser) get(path string) answer {
	br.b.t.Helper()
	return br.do(httptest.NewRequest("GET", origin+path, nil))
}

// submit posts form as the console's own page would: same origin, with
// the page's _token unless form sets one.
func (br *browser) submit(path string, form url.Values, headers ...string) answer {
	br.b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if _, ok := form["_token"]; !ok {
		form.Set("_token", br.token)
	}
	return br.postRaw(path, form.Encode(), append([]string{"Origin", origin, "Sec-Fetch-Site", "same-origin"}, headers...)...)
}

// postRaw posts body as a form with exactly the headers given (pairs).
func (br *browser) postRaw(path, body string, headers ...string) answer {
	br.b.t.Helper()
	req := httptest.NewRequest("POST", origin+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	return br.do(req)
}

// signIn signs the browser in as email.
func (br *browser) signIn(email string) answer {
	br.b.t.Helper()
	br.get("/admin/login")
	return br.submit("/admin/login", url.Values{"email": {email}, "password": {password}})
}

// wantPage checks that a is an HTML page of status with the console's
// headers.
func wantPage(t *testing.T, a answer, status int) {
	t.Helper()
	if a.status != status {
		t.Errorf("status: got %d, want %d (%.300s)", a.status, status, a.body)
	}
	if ct := a.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type: got %q, want text/html; charset=utf-8", ct)
	}
	if csp := a.header.Get("Content-Security-Policy"); csp != "default-src 'self'; frame-ancestors 'none'" {
		t.Errorf("Content-Security-Policy: got %q", csp)
	}
	if a.doc != nil {
		if n := a.doc.Find("script:not([src]), style, [style]").Length(); n > 0 {
			t.Errorf("%d inline scripts or styles", n)
		}
	}
}

// wantRedirect checks that a is a 303 to location.
func wantRedirect(t *testing.T, a answer, location string) {
	t.Helper()
	if a.status != http.StatusSeeOther || a.header.Get("Location") != location {
		t.Errorf("got %d to %q, want 303 to %q", a.status, a.header.Get("Location"), location)
	}
}

// rawExchange writes raw to a new connection to base and reads one answer.
func rawExchange(t *testing.T, base, raw string) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}
