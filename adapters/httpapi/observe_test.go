package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/logtest"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// opsHarness is a harness whose request deadline and logger the test
// chooses, for the tests of timeouts and of the request log.
func opsHarness(t *testing.T, store ports.Store, timeout time.Duration, log *slog.Logger) *harness {
	t.Helper()
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	stack := stacktest.NewStack(t, store, stacktest.Options{})
	srv := httpapi.New(httpapi.Config{RequestTimeout: timeout, BodyLimit: 8 << 20}, log, stack.Services)
	return &harness{t: t, storage: stack.Storage, store: store, clock: stack.Clock, server: srv}
}

// downStore is a store whose database cannot be reached: Ping fails at once,
// or, when hang is set, only when its context ends, as a ping to a server
// that drops packets does.
type downStore struct {
	ports.Store
	hang bool
}

func (d downStore) Ping(ctx context.Context) error {
	if d.hang {
		<-ctx.Done()
		return fmt.Errorf("ping: %w: %w", domain.ErrUnavailable, ctx.Err())
	}
	return fmt.Errorf("ping: %w: %w", domain.ErrUnavailable, errors.New("dial tcp 10.0.0.1:5432: connection refused"))
}

func TestHealthz(t *testing.T) {
	// Liveness does not depend on the store: it answers while the store is down.
	h := opsHarness(t, downStore{Store: memory.New()}, time.Second, nil)
	r := h.do("GET", "/healthz", nil)
	if r.status != http.StatusOK || string(r.raw) != `{"status":"ok"}` {
		t.Errorf("got %d %s, want 200 {\"status\":\"ok\"}", r.status, r.raw)
	}
	if got := r.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control: got %q, want no-store", got)
	}
}

func TestReadyz(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		r := h.do("GET", "/readyz", nil)
		if r.status != http.StatusOK || string(r.raw) != `{"status":"ok"}` {
			t.Errorf("got %d %s, want 200 {\"status\":\"ok\"}", r.status, r.raw)
		}
	})
}

func TestReadyzWhenStoreIsDown(t *testing.T) {
	for _, tc := range []struct {
		name    string
		store   downStore
		timeout time.Duration
		within  time.Duration
	}{
		{"refused", downStore{Store: memory.New()}, 10 * time.Second, 500 * time.Millisecond},
		// A hanging ping is cut at the readiness timeout of two seconds...
		{"hangs", downStore{Store: memory.New(), hang: true}, 10 * time.Second, 2500 * time.Millisecond},
		// ...or at the request's deadline when that comes first.
		{"hangs past the request deadline", downStore{Store: memory.New(), hang: true}, 500 * time.Millisecond, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := opsHarness(t, tc.store, tc.timeout, nil)
			began := time.Now()
			r := h.do("GET", "/readyz", nil)
			took := time.Since(began)
			if r.status != http.StatusServiceUnavailable || string(r.raw) != `{"status":"unavailable"}` {
				t.Errorf("got %d %s, want 503 {\"status\":\"unavailable\"}", r.status, r.raw)
			}
			if took > tc.within {
				t.Errorf("answered after %v, want within %v", took, tc.within)
			}
		})
	}
}

// requestLines returns the request lines of a JSON log.
func requestLines(t *testing.T, log string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(log))
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("log line is not JSON: %s", sc.Bytes())
		}
		if line["msg"] == "request" {
			lines = append(lines, line)
		}
	}
	return lines
}

func TestRequestLog(t *testing.T) {
	var out logtest.Buffer
	log := slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h := opsHarness(t, memory.New(), 5*time.Second, log)

	const email, password = "ann@example.com", "correct-horse-battery"
	reg := h.do("POST", "/api/v1/register", map[string]any{
		"name": "Ann", "email": email, "password": password, "password_confirmation": password,
	})
	reg.expect(t, http.StatusCreated, nil)
	userID := reg.body["user"].(map[string]any)["id"]
	login := h.do("POST", "/api/v1/login", map[string]any{"email": email, "password": password})
	login.expect(t, http.StatusOK, nil)
	token := login.body["token"].(string)
	h.do("GET", "/api/v1/user?access_token=query-secret", nil, as(token, "X-Request-ID", "trace-abc-123", "Cookie", "inkwell_session=cookie-secret")...).
		expect(t, http.StatusOK, nil)
	h.do("POST", "/api/v1/login", map[string]any{"email": email, "password": "wrong-password-x"}).expect(t, http.StatusUnprocessableEntity, nil)
	h.do("GET", "/nowhere", nil).expect(t, http.StatusNotFound, nil)
	if err := os.MkdirAll(filepath.Join(h.storage, "posts"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.storage, "posts", "a.txt"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.do("GET", "/storage/posts/a.txt", nil).expect(t, http.StatusOK, nil)

	text := out.String()
	secrets := []string{password, "wrong-password-x", token, token[strings.Index(token, "|")+1:], reg.body["token"].(string), "query-secret", "cookie-secret", "access_token", "Bearer"}
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("the log holds %q:\n%s", s, text)
		}
	}
	if strings.Contains(text, email) {
		t.Errorf("the log holds a request body (the e-mail address):\n%s", text)
	}

	lines := requestLines(t, text)
	if len(lines) != 6 {
		t.Fatalf("got %d request lines, want one per request (6):\n%s", len(lines), text)
	}
	for _, l := range lines {
		for _, k := range []string{"method", "route", "path", "status", "duration_ms", "request_id", "bytes_out"} {
			if _, ok := l[k]; !ok {
				t.Errorf("request line without %s: %v", k, l)
			}
		}
		if l["level"] != "INFO" {
			t.Errorf("request line at %v, want INFO: %v", l["level"], l)
		}
	}
	me := lines[2]
	want := map[string]any{
		"method": "GET", "route": "/api/v1/user", "path": "/api/v1/user", "status": 200.0,
		"request_id": "trace-abc-123", "user_id": userID,
	}
	for k, v := range want {
		if me[k] != v {
			t.Errorf("GET /api/v1/user line: %s is %v, want %v (%v)", k, me[k], v, me)
		}
	}
	if n, _ := me["bytes_out"].(float64); n <= 0 {
		t.Errorf("GET /api/v1/user line: bytes_out %v, want the body's size", me["bytes_out"])
	}
	if _, ok := lines[0]["user_id"]; ok {
		t.Errorf("register line names a user, though no token came with it: %v", lines[0])
	}
	if got := lines[4]["route"]; got != "unmatched" {
		t.Errorf("unknown path logged under route %v, want unmatched", got)
	}
	if file := lines[5]; file["route"] != "/storage" || file["bytes_out"] != 5.0 {
		t.Errorf("static file line: got route %v and bytes_out %v, want /storage and 5", file["route"], file["bytes_out"])
	}
	if id, _ := lines[0]["request_id"].(string); !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) {
		t.Errorf("a request without X-Request-ID got id %q, want 32 hex digits", id)
	}
}

func TestProbesLogAtDebug(t *testing.T) {
	var out logtest.Buffer
	log := slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h := opsHarness(t, memory.New(), 5*time.Second, log)
	h.do("GET", "/healthz", nil)
	h.do("GET", "/readyz", nil)
	lines := requestLines(t, out.String())
	if len(lines) != 2 {
		t.Fatalf("got %d request lines, want 2:\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		if l["level"] != "DEBUG" {
			t.Errorf("probe line at %v, want DEBUG: %v", l["level"], l)
		}
	}
}

func TestPanicIsLogged(t *testing.T) {
	var out logtest.Buffer
	log := slog.New(slog.NewJSONHandler(&out, nil))
	h := opsHarness(t, memory.New(), 5*time.Second, log)
	h.server.App().Get("/api/test/panic", func(*fiber.Ctx) error { panic("boom") })
	h.do("GET", "/api/test/panic", nil).expect(t, http.StatusInternalServerError, nil)
	lines := requestLines(t, out.String())
	if len(lines) != 1 || lines[0]["status"] != 500.0 || lines[0]["route"] != "/api/test/panic" {
		t.Errorf("got request lines %v, want one 500 on /api/test/panic", lines)
	}
}

func TestRejectedRequestIsLogged(t *testing.T) {
	var out logtest.Buffer
	log := slog.New(slog.NewJSONHandler(&out, nil))
	h := opsHarness(t, memory.New(), 5*time.Second, log)
	// fasthttp refuses a body over the limit before any middleware runs;
	// only a real listener shows that.
	base := h.listen()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	head := "POST /api/v1/register?token=query-secret HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\nContent-Length: 16777216\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("got %d, want 413", resp.StatusCode)
	}
	lines := requestLines(t, out.String())
	if len(lines) != 1 || lines[0]["status"] != 413.0 || lines[0]["route"] != "unmatched" || lines[0]["method"] != "POST" {
		t.Errorf("got request lines %v, want one 413 under the unmatched route", lines)
	}
	if strings.Contains(out.String(), "query-secret") {
		t.Errorf("the log holds the query string:\n%s", out.String())
	}
}
