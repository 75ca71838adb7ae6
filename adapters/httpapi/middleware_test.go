package httpapi

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// fakeAccounts authenticates the bearer "reader" with posts:read,
// "writer" with posts:write, "all" with "*" and "profile" with
// profile:update; the rest of ports.Accounts is not used here.
type fakeAccounts struct{ ports.Accounts }

func (fakeAccounts) Authenticate(_ context.Context, bearer string) (domain.Actor, error) {
	abilities := map[string][]string{"reader": {"posts:read"}, "writer": {"posts:write"}, "all": {"*"}, "profile": {"profile:update"}}[bearer]
	if abilities == nil {
		return domain.Actor{}, domain.ErrUnauthenticated
	}
	return domain.Actor{User: domain.User{ID: 1}, Token: &domain.Token{Abilities: abilities}}, nil
}

func newTestServer() *Server {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return New(Config{RequestTimeout: time.Second, BodyLimit: 1 << 20}, log, Deps{UseCases: ports.UseCases{Accounts: fakeAccounts{}}})
}

func TestRouteGuards(t *testing.T) {
	s := newTestServer()
	auth := requireAuth(s.auth)
	ok := func(c *fiber.Ctx) error { return c.SendString("ok") }
	s.app.Get("/api/test/write", auth, allow(domain.WritePosts), ok)
	s.app.Get("/api/test/read", auth, gateReads, ok)

	for _, tc := range []struct {
		path, token string
		want        int
	}{
		{"/api/test/write", "reader", 403},
		{"/api/test/write", "writer", 200},
		{"/api/test/write", "all", 200},
		{"/api/test/read", "reader", 200},
		{"/api/test/read", "writer", 200},
		{"/api/test/read", "profile", 403},
		{"/api/test/read", "nobody", 401},
	} {
		req := httptest.NewRequest("GET", tc.path, nil)
		req.Header.Set("Authorization", "Bearer "+tc.token)
		resp, err := s.app.Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != tc.want {
			t.Errorf("%s as %s: got %d, want %d", tc.path, tc.token, resp.StatusCode, tc.want)
		}
		if tc.want == 403 && string(body) != `{"success":false,"message":"Invalid ability provided."}` {
			t.Errorf("%s as %s: got body %s", tc.path, tc.token, body)
		}
	}
}

func TestPanicBecomesOpaque500(t *testing.T) {
	s := newTestServer()
	s.app.Get("/api/test/panic", func(*fiber.Ctx) error { panic("secret detail") })
	resp, err := s.app.Test(httptest.NewRequest("GET", "/api/test/panic", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 500 || string(body) != `{"success":false,"message":"Internal Server Error"}` {
		t.Errorf("got %d %s, want 500 with the bare message", resp.StatusCode, body)
	}
	if strings.Contains(string(body), "secret") {
		t.Error("the panic's text reached the client")
	}
}

func TestRequestID(t *testing.T) {
	s := newTestServer()
	req := httptest.NewRequest("GET", "/api/v1/nothing", nil)
	req.Header.Set("X-Request-ID", "abc-123")
	resp, _ := s.app.Test(req, -1)
	if got := resp.Header.Get("X-Request-ID"); got != "abc-123" {
		t.Errorf("echoed id: got %q, want abc-123", got)
	}
	req.Header.Set("X-Request-ID", "bad id with spaces")
	resp, _ = s.app.Test(req, -1)
	if got := resp.Header.Get("X-Request-ID"); len(got) != 32 {
		t.Errorf("made id: got %q, want 32 hex characters", got)
	}
}

func TestDeadlineReachesHandlers(t *testing.T) {
	s := newTestServer()
	s.app.Get("/api/test/deadline", func(c *fiber.Ctx) error {
		if _, ok := c.UserContext().Deadline(); !ok {
			return c.SendString("none")
		}
		return c.SendString("set")
	})
	resp, _ := s.app.Test(httptest.NewRequest("GET", "/api/test/deadline", nil), -1)
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "set" {
		t.Errorf("got %q, want a deadline on the request context", body)
	}
}
