package httpapi_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/httpapi/cors"
	"github.com/inkwell/inkwell/adapters/httpapi/openapi/openapitest"
	"github.com/inkwell/inkwell/adapters/mail"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// stores lists the stores every HTTP test runs against.
var stores = stacktest.Stores()

// forEachStore runs test once per store, each with a fresh harness.
func forEachStore(t *testing.T, test func(t *testing.T, h *harness)) {
	t.Helper()
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			test(t, newHarness(t, s.Open(t), options{}))
		})
	}
}

// start is the fixed time tests begin at.
var start = stacktest.Start

// options change the harness; zero fields keep stacktest's defaults.
type options struct {
	bcryptCost  int
	hasher      ports.PasswordHasher
	maxAttempts int
	// stateful replaces the hosts whose pages may use session cookies
	// (STATEFUL_DOMAINS; the service's default when nil); cors is the
	// cross-origin policy.
	stateful []string
	cors     cors.Config
	appURL   string
	// trustedProxies are the networks whose forwarded headers count.
	trustedProxies []netip.Prefix
	// files keeps the uploads instead of a folder of the test's.
	files ports.FileStore
	// rateLimit is RATE_LIMIT_PER_MINUTE; 0 leaves the limit off.
	rateLimit int
	// crudToken is CRUD_AUTH=token; heartbeat the event streams' (a minute
	// by default).
	crudToken bool
	heartbeat time.Duration
	// webhooksPrivate is WEBHOOKS_ALLOW_PRIVATE; webhooks the delivery
	// settings.
	webhooksPrivate bool
	webhooks        app.WebhooksConfig
	// streamsPerToken and streamsPerAddress cap the event streams (the
	// service's defaults when zero, no cap when negative).
	streamsPerToken, streamsPerAddress int
	// mailer sends the outbox's mails (an inbox by default, harness.inbox);
	// frontendURL is FRONTEND_URL; requireVerified REQUIRE_VERIFIED_EMAIL;
	// production marks the remember cookie Secure.
	mailer          ports.Mailer
	frontendURL     string
	requireVerified bool
	production      bool
	// cache is the cache of anonymous reads (off when its MaxBytes is 0).
	cache httpapi.CacheConfig
	// requestTimeout replaces the harness's minute, for a test that waits
	// for a deadline.
	requestTimeout time.Duration
}

// sessionLifetime is how long the harness's browser sessions may idle.
const sessionLifetime = 120 * time.Minute

// harness is the whole service over one store, with a clock tests move.
type harness struct {
	t       *testing.T
	storage string // the uploaded files' folder
	store   ports.Store
	clock   *clock.Fixed
	server  *httpapi.Server
	// remote, once set by serve, is the base URL do sends requests to.
	remote string
	// worker delivers webhooks when a test runs it.
	worker *app.WebhookWorker
	// mail sends the outbox's mails when a test runs it, to inbox unless
	// options.mailer was set.
	mail  *app.MailWorker
	inbox *mail.Inbox
}

func newHarness(t *testing.T, store ports.Store, o options) *harness {
	stack := stacktest.NewStack(t, store, stacktest.Options{
		BcryptCost:           o.bcryptCost,
		Hasher:               o.hasher,
		LoginMaxAttempts:     o.maxAttempts,
		SessionLifetime:      sessionLifetime,
		Files:                o.files,
		RateLimitPerMinute:   o.rateLimit,
		WebhooksAllowPrivate: o.webhooksPrivate,
		Webhooks:             o.webhooks,
		AppURL:               o.appURL,
		MaxStreamsPerToken:   o.streamsPerToken,
		MaxStreamsPerAddress: o.streamsPerAddress,
		RequireVerifiedEmail: o.requireVerified,
		Mailer:               o.mailer,
		FrontendURL:          o.frontendURL,
		Cache:                o.cache,
	})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// The request timeout is far above any request's need: a 5 MB image
	// upload under the race detector, on a machine busy with the other
	// packages' tests, took 16 s once. The timeout's own tests configure
	// theirs (observe_test.go).
	httpCfg := httpapi.Config{
		RequestTimeout: cmp.Or(o.requestTimeout, time.Minute), BodyLimit: 8 << 20, StatefulDomains: o.stateful, CORS: o.cors, AppURL: o.appURL,
		TrustedProxies:   o.trustedProxies,
		CrudRequireToken: o.crudToken, EventsHeartbeat: cmp.Or(o.heartbeat, time.Minute),
		FrontendURL: o.frontendURL, SecureCookies: o.production,
	}
	srv := httpapi.New(httpCfg, log, stack.Services)
	return &harness{t: t, storage: stack.Storage, store: store, clock: stack.Clock, server: srv, worker: stack.Webhooks,
		mail: stack.Mail, inbox: stack.Inbox}
}

// listen serves the app on a loopback port until the test ends and returns
// its base URL.
func (h *harness) listen() string {
	h.t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		h.t.Fatal(err)
	}
	go func() { _ = h.server.Serve(l) }()
	h.t.Cleanup(func() { _ = h.server.Shutdown(10 * time.Second) })
	return "http://" + l.Addr().String()
}

// serve makes do send its requests through a real listener, from
// 127.0.0.1, rather than through app.Test, whose connections come from
// 0.0.0.0. The Host header stays example.com.
func (h *harness) serve() {
	h.remote = h.listen()
}

// response is what a test sees of an answer.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

// do sends a request through the real Fiber stack. body may be nil, a
// string (sent as is) or anything else (sent as JSON). headers are pairs.
func (h *harness) do(method, path string, body any, headers ...string) response {
	h.t.Helper()
	var r io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case string:
		r, contentType = strings.NewReader(b), "application/json"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		r, contentType = bytes.NewReader(data), "application/json"
	}
	req := httptest.NewRequest(method, path, r)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	var resp *http.Response
	var err error
	if h.remote == "" {
		resp, err = h.server.App().Test(req, -1)
	} else {
		out := req.Clone(req.Context())
		out.RequestURI = ""
		if out.URL, err = url.Parse(h.remote + path); err != nil {
			h.t.Fatal(err)
		}
		resp, err = http.DefaultClient.Do(out)
	}
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	openapitest.Check(h.t, req, resp, raw)
	out := response{status: resp.StatusCode, header: resp.Header, raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			h.t.Fatalf("%s %s: body is not JSON: %s", method, path, raw)
		}
	}
	return out
}

// as adds a bearer token to a request's headers.
func as(token string, headers ...string) []string {
	return append([]string{"Authorization", "Bearer " + token}, headers...)
}

// register makes an account and returns its token.
func (h *harness) register(name, email, password string) string {
	h.t.Helper()
	r := h.do("POST", "/api/v1/register", map[string]any{
		"name": name, "email": email, "password": password, "password_confirmation": password,
	})
	if r.status != http.StatusCreated {
		h.t.Fatalf("register %s: got %d %s, want 201", email, r.status, r.raw)
	}
	return r.body["token"].(string)
}

// login logs in and returns the token.
func (h *harness) login(email, password string) string {
	h.t.Helper()
	r := h.do("POST", "/api/v1/login", map[string]any{"email": email, "password": password})
	if r.status != http.StatusOK {
		h.t.Fatalf("login %s: got %d %s, want 200", email, r.status, r.raw)
	}
	return r.body["token"].(string)
}

// expect checks the status and, when wantBody is not nil, that every key of
// wantBody has that value in the JSON body (compared as JSON).
func (r response) expect(t *testing.T, wantStatus int, wantBody map[string]any) {
	t.Helper()
	if r.status != wantStatus {
		t.Fatalf("got status %d (%s), want %d", r.status, r.raw, wantStatus)
	}
	for k, want := range wantBody {
		got, _ := json.Marshal(r.body[k])
		w, _ := json.Marshal(want)
		if !bytes.Equal(got, w) {
			t.Errorf("%s: got %s, want %s (body %s)", k, got, w, r.raw)
		}
	}
}

// equalJSON compares two values as JSON.
func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// jsonNumber renders a decoded JSON number as a path segment.
func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
