package httpapi_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
	"github.com/inkwell/inkwell/adapters/sqlite"
)

// tcpProxy stands between a store and PostgreSQL, so that a test can make the
// database unreachable and bring it back on the same address without
// touching the server other tests share.
type tcpProxy struct {
	t      *testing.T
	target string
	addr   string // the proxy's own address, fixed by the first start

	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
	silent bool // accept connections but never answer, as a dead host behind a firewall does
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	p := &tcpProxy{t: t, target: target, addr: "127.0.0.1:0", conns: map[net.Conn]bool{}}
	p.start(false)
	t.Cleanup(p.stop)
	return p
}

// start listens on the proxy's address; silent makes it swallow connections.
func (p *tcpProxy) start(silent bool) {
	p.t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatalf("proxy: listen on %s: %v", p.addr, err)
	}
	p.mu.Lock()
	p.ln, p.addr, p.silent = ln, ln.Addr().String(), silent
	p.mu.Unlock()
	go p.accept(ln, silent)
}

func (p *tcpProxy) accept(ln net.Listener, silent bool) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) || silent {
			continue
		}
		go p.forward(c)
	}
}

func (p *tcpProxy) forward(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil || !p.track(up) {
		c.Close()
		return
	}
	go func() { _, _ = io.Copy(up, c); up.Close() }()
	_, _ = io.Copy(c, up)
	c.Close()
}

// track remembers c so that stop can cut it; false when the proxy has
// stopped meanwhile, and c is then closed.
func (p *tcpProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		c.Close()
		return false
	}
	p.conns[c] = true
	return true
}

// stop closes the listener and cuts every connection through the proxy.
func (p *tcpProxy) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// outageCheck is one request made while the store is unreachable and the
// answer it must get.
type outageCheck struct {
	method, path string
	token        bool
	status       int
	body         string
}

// checkOutage makes every request and requires its answer within the
// request deadline plus a margin for the rest of the work.
func checkOutage(t *testing.T, h *harness, token string, deadline time.Duration, checks []outageCheck) {
	t.Helper()
	for _, c := range checks {
		var headers []string
		if c.token {
			headers = as(token)
		}
		began := time.Now()
		r := h.do(c.method, c.path, nil, headers...)
		took := time.Since(began)
		if r.status != c.status || (c.body != "" && string(r.raw) != c.body) {
			t.Errorf("%s %s: got %d %s, want %d %s", c.method, c.path, r.status, r.raw, c.status, c.body)
		}
		// Ready answers come at once and refusals at the deadline; the
		// slack is for a loaded machine, still short of the ten seconds a
		// request stuck behind SQLite's busy wait would take.
		if took > deadline+4*time.Second {
			t.Errorf("%s %s: answered after %v, want within the deadline of %v", c.method, c.path, took, deadline)
		}
		t.Logf("%s %s: %d after %v", c.method, c.path, r.status, took.Round(time.Millisecond))
	}
}

// storeDownChecks are the answers of both areas while the store is down.
var storeDownChecks = []outageCheck{
	{"GET", "/api/v1/user", true, http.StatusServiceUnavailable, `{"success":false,"message":"Service Unavailable"}`},
	{"GET", "/users", false, http.StatusServiceUnavailable, `{"success":false,"message":"Service Unavailable","data":null}`},
	{"GET", "/readyz", false, http.StatusServiceUnavailable, `{"status":"unavailable"}`},
	{"GET", "/healthz", false, http.StatusOK, `{"status":"ok"}`},
}

func TestPostgresOutage(t *testing.T) {
	for _, silent := range []bool{false, true} {
		name := map[bool]string{false: "connection refused", true: "no answer"}[silent]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			u, err := url.Parse(pgtest.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			proxy := newTCPProxy(t, u.Host)
			u.Host = proxy.addr
			store, cleanup, err := postgres.Open(context.Background(), u.String())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(cleanup)
			const deadline = time.Second
			h := opsHarness(t, store, deadline, nil)
			token := h.register("Ann", "ann@example.com", "password1")
			h.do("POST", "/users", map[string]any{"name": "Bob", "email": "bob@example.com"}).expect(t, http.StatusCreated, nil)

			proxy.stop()
			if silent {
				proxy.start(true)
			}
			// Twice: the first round meets the pool's broken connections, the
			// second has to open new ones.
			checkOutage(t, h, token, deadline, storeDownChecks)
			checkOutage(t, h, token, deadline, storeDownChecks)

			proxy.stop()
			proxy.start(false)
			// The pool may still hold connections that died with the proxy; it
			// drops them as it meets them, so service resumes within a few
			// requests and without a restart.
			var r response
			for i := range 3 {
				began := time.Now()
				r = h.do("GET", "/api/v1/user", nil, as(token)...)
				t.Logf("after the restart, request %d: %d after %v", i+1, r.status, time.Since(began).Round(time.Millisecond))
				if r.status == http.StatusOK {
					break
				}
			}
			r.expect(t, http.StatusOK, map[string]any{"email": "ann@example.com"})
			h.do("GET", "/users", nil).expect(t, http.StatusOK, nil)
			h.do("GET", "/readyz", nil).expect(t, http.StatusOK, map[string]any{"status": "ok"})
		})
	}
}

// TestSQLiteWriteLockHeld covers the one outage an embedded SQLite file has
// while the process runs: another process (a backup, a migration run beside
// the server, a manual session) holding the file's write lock. The file
// itself cannot be made unreachable from outside: the store keeps it open,
// and SQLite goes on reading and writing through its open descriptors after
// the file is renamed, removed or made unreadable; only a failing disk
// remains, which the store reports as Unavailable as well.
//
// In WAL mode reads go on while the lock is held. Writes fail with a 503 and
// succeed once the lock is released. The write that holds the store's writer
// connection waits for SQLite's busy timeout (ten seconds, see the store's
// connection parameters), not for the request's deadline: SQLite's busy wait
// does not heed the interrupt that a cancelled context sends. Writes queued
// behind it give up at their own deadline.
func TestSQLiteWriteLockHeld(t *testing.T) {
	t.Parallel()
	const busyTimeout = 10 * time.Second
	path := filepath.Join(t.TempDir(), "inkwell.db")
	store, cleanup, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	const deadline = time.Second
	h := opsHarness(t, store, deadline, nil)
	token := h.register("Ann", "ann@example.com", "password1")
	// The first use of a token records it; later reads within the touch
	// interval write nothing.
	h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, http.StatusOK, nil)

	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	lock, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}

	checkOutage(t, h, token, deadline, []outageCheck{
		{"GET", "/api/v1/user", true, http.StatusOK, ""},
		{"GET", "/users", false, http.StatusOK, ""},
		{"GET", "/readyz", false, http.StatusOK, `{"status":"ok"}`},
	})
	writes := []struct {
		path, want string
		headers    []string
	}{
		{"/users", `{"success":false,"message":"Service Unavailable","data":null}`, nil},
		{"/api/v1/tokens", `{"success":false,"message":"Service Unavailable"}`, as(token)},
		{"/products", `{"success":false,"message":"Service Unavailable","data":null}`, nil},
	}
	var wg sync.WaitGroup
	for _, w := range writes {
		wg.Go(func() {
			began := time.Now()
			r := h.do("POST", w.path, map[string]any{"name": "ci", "email": "bob@example.com", "price": 1}, w.headers...)
			took := time.Since(began)
			if r.status != http.StatusServiceUnavailable || string(r.raw) != w.want {
				t.Errorf("POST %s: got %d %s, want 503 %s", w.path, r.status, r.raw, w.want)
			}
			// The bound tells a busy wait from a hang; a loaded machine may
			// add seconds to the busy wait, so it leaves that much room.
			if took > 2*busyTimeout {
				t.Errorf("POST %s: answered after %v, want within the busy timeout of %v", w.path, took, busyTimeout)
			}
			t.Logf("POST %s: %d after %v", w.path, r.status, took.Round(time.Millisecond))
		})
	}
	wg.Wait()

	if _, err := lock.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	h.do("POST", "/users", map[string]any{"name": "Bob", "email": "bob@example.com"}).expect(t, http.StatusCreated, nil)
	h.do("POST", "/api/v1/tokens", map[string]any{"name": "ci"}, as(token)...).expect(t, http.StatusCreated, nil)
}

func TestDeadlineBecomes503(t *testing.T) {
	h := opsHarness(t, memory.New(), 200*time.Millisecond, nil)
	// A call that outlives the request's deadline and reports only that.
	slow := func(c *fiber.Ctx) error {
		<-c.UserContext().Done()
		return fmt.Errorf("wait for the store: %w", c.UserContext().Err())
	}
	h.server.App().Get("/api/test/slow", slow)
	h.server.App().Get("/test/slow", slow)
	for path, want := range map[string]string{
		"/api/test/slow": `{"success":false,"message":"Service Unavailable"}`,
		"/test/slow":     `{"success":false,"message":"Service Unavailable","data":null}`,
	} {
		began := time.Now()
		r := h.do("GET", path, nil)
		if r.status != http.StatusServiceUnavailable || string(r.raw) != want {
			t.Errorf("GET %s: got %d %s, want 503 %s", path, r.status, r.raw, want)
		}
		if took := time.Since(began); took > 5*time.Second {
			t.Errorf("GET %s: answered after %v, want at the deadline of 200ms", path, took)
		}
	}
}
