package httpapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/internal/stacktest"
)

// TestBenchCeiling checks that /bench/ceiling exists only with
// BenchEndpoints, and then answers exactly 1 KiB of JSON. The harness of the
// other tests never turns it on, so the document test does not see it.
func TestBenchCeiling(t *testing.T) {
	for _, tc := range []struct {
		on   bool
		want int
	}{
		{false, http.StatusNotFound},
		{true, http.StatusOK},
	} {
		srv := benchServer(t, tc.on)
		resp, err := srv.App().Test(httptest.NewRequest(http.MethodGet, "/bench/ceiling", nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Fatalf("BenchEndpoints %v: got %d, want %d", tc.on, resp.StatusCode, tc.want)
		}
		if !tc.on {
			continue
		}
		if len(raw) != 1024 || !json.Valid(raw) {
			t.Errorf("got %d bytes (valid JSON: %v), want 1024 bytes of JSON", len(raw), json.Valid(raw))
		}
		if got := resp.Header.Get("Content-Type"); got != "application/json" {
			t.Errorf("Content-Type: got %q, want application/json", got)
		}
	}
}

// benchServer builds the whole HTTP adapter over the memory store with
// BenchEndpoints set as asked.
func benchServer(t testing.TB, on bool) *httpapi.Server {
	stack := stacktest.NewStack(t, memory.New(), stacktest.Options{})
	return httpapi.New(httpapi.Config{RequestTimeout: time.Second, BodyLimit: 1 << 20, BenchEndpoints: on},
		slog.New(slog.NewTextHandler(io.Discard, nil)), stack.Services)
}

// BenchmarkCeiling serves GET /bench/ceiling through the whole middleware
// chain and router, with no connection: the server's own cost of a request
// that reaches no store, which the ceiling scenario of make bench measures
// with the network and wrk added.
func BenchmarkCeiling(b *testing.B) {
	srv := benchServer(b, true)
	h := srv.App().Handler()
	var ctx fasthttp.RequestCtx
	var req fasthttp.Request
	req.SetRequestURI("/bench/ceiling")
	req.Header.Set("Accept", "application/json")
	ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}, nil)
	for b.Loop() {
		h(&ctx)
		if ctx.Response.StatusCode() != http.StatusOK {
			b.Fatalf("status %d", ctx.Response.StatusCode())
		}
		ctx.Response.Reset()
	}
}
