package cors_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/cors"
)

const (
	listed  = "https://app.example.com"
	foreign = "https://evil.example.net"
)

// newApp serves one route behind the middleware, the way the server mounts
// it in front of everything.
func newApp(cfg cors.Config) *fiber.App {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Use(cors.New(cfg))
	app.Post("/users", func(c *fiber.Ctx) error { return c.Status(201).SendString(`{"ok":true}`) })
	app.Get("/users", func(c *fiber.Ctx) error { return c.SendString(`[]`) })
	return app
}

type result struct {
	status  int
	headers http.Header
	body    string
}

func send(t *testing.T, app *fiber.App, method, origin string, preflight bool) result {
	t.Helper()
	req := httptest.NewRequest(method, "/users", nil)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if preflight {
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type")
	}
	res, err := app.Test(req, -1)
	if err != nil {
		t.Fatalf("%s /users: %v", method, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return result{status: res.StatusCode, headers: res.Header, body: string(body)}
}

func TestPolicy(t *testing.T) {
	development := cors.Config{AllowAnyOrigin: true}
	production := cors.Config{AllowedOrigins: []string{listed + "/", "https://other.example.com"}}

	tests := []struct {
		name       string
		cfg        cors.Config
		method     string
		origin     string
		preflight  bool
		wantStatus int
		wantOrigin string // "" means the header must be absent
	}{
		{"development, simple request", development, "GET", foreign, false, 200, foreign},
		{"development, preflight", development, "OPTIONS", foreign, true, 200, foreign},
		{"development, POST", development, "POST", foreign, false, 201, foreign},
		{"production, listed origin, simple request", production, "GET", listed, false, 200, listed},
		{"production, listed origin, preflight", production, "OPTIONS", listed, true, 200, listed},
		{"production, listed origin, POST", production, "POST", listed, false, 201, listed},
		{"production, foreign origin, simple request", production, "GET", foreign, false, 200, ""},
		{"production, foreign origin, preflight", production, "OPTIONS", foreign, true, 200, ""},
		{"production, foreign origin, POST", production, "POST", foreign, false, 201, ""},
		{"production, no origin", production, "GET", "", false, 200, ""},
		{"production, wildcard entry", cors.Config{AllowedOrigins: []string{"*"}}, "GET", foreign, false, 200, foreign},
		{"production, origin in other case", production, "GET", "HTTPS://APP.example.com", false, 200, "HTTPS://APP.example.com"},
		{"production, empty list", cors.Config{}, "OPTIONS", listed, true, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := send(t, newApp(tt.cfg), tt.method, tt.origin, tt.preflight)
			if got.status != tt.wantStatus {
				t.Errorf("status: got %d, want %d", got.status, tt.wantStatus)
			}
			if o := got.headers.Get("Access-Control-Allow-Origin"); o != tt.wantOrigin {
				t.Errorf("Access-Control-Allow-Origin: got %q, want %q", o, tt.wantOrigin)
			}
			if v := got.headers.Values("Vary"); len(v) != 1 || v[0] != "Origin" {
				t.Errorf("Vary: got %q, want [Origin]", v)
			}
			allowed := tt.wantOrigin != ""
			wantCreds := map[bool]string{true: "true"}[allowed]
			if c := got.headers.Get("Access-Control-Allow-Credentials"); c != wantCreds {
				t.Errorf("Access-Control-Allow-Credentials: got %q, want %q", c, wantCreds)
			}
			wantMethods, wantHeaders, wantExposed := "", "", ""
			if allowed && tt.preflight {
				wantMethods, wantHeaders = "GET,POST,PUT,DELETE,OPTIONS,PATCH", defaultHeaders
			}
			if allowed && !tt.preflight {
				wantExposed = defaultExposed
			}
			if m := got.headers.Get("Access-Control-Allow-Methods"); m != wantMethods {
				t.Errorf("Access-Control-Allow-Methods: got %q, want %q", m, wantMethods)
			}
			if h := got.headers.Get("Access-Control-Allow-Headers"); h != wantHeaders {
				t.Errorf("Access-Control-Allow-Headers: got %q, want %q", h, wantHeaders)
			}
			if e := got.headers.Get("Access-Control-Expose-Headers"); e != wantExposed {
				t.Errorf("Access-Control-Expose-Headers: got %q, want %q", e, wantExposed)
			}
			if tt.preflight && got.body != "" {
				t.Errorf("preflight body: got %q, want none", got.body)
			}
		})
	}
}

// The headers a browser page may send and read when nothing is configured:
// what the API's features take and answer, and what axios sends on every
// call of a cookie-session front end.
const (
	defaultHeaders = "Content-Type,Authorization,Idempotency-Key,If-Match,If-None-Match,X-XSRF-TOKEN,X-Requested-With,Accept-Language"
	defaultExposed = "ETag,Location,Link,X-Total-Count,Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,Idempotent-Replayed,X-Request-ID"
)

// TestConfiguredHeaders checks that configured headers add to the
// defaults, each named once.
func TestConfiguredHeaders(t *testing.T) {
	app := newApp(cors.Config{
		AllowedOrigins: []string{listed},
		AllowedHeaders: []string{"X-Tenant", " x-xsrf-token", ""},
		ExposedHeaders: []string{"X-Cache", "etag"},
	})
	got := send(t, app, "OPTIONS", listed, true)
	if h, want := got.headers.Get("Access-Control-Allow-Headers"), defaultHeaders+",X-Tenant"; h != want {
		t.Errorf("Access-Control-Allow-Headers: got %q, want %q", h, want)
	}
	got = send(t, app, "GET", listed, false)
	if h, want := got.headers.Get("Access-Control-Expose-Headers"), defaultExposed+",X-Cache"; h != want {
		t.Errorf("Access-Control-Expose-Headers: got %q, want %q", h, want)
	}
}

// TestPlainOptions checks that an OPTIONS request that is no preflight (it
// names no method) is left to the routes.
func TestPlainOptions(t *testing.T) {
	got := send(t, newApp(cors.Config{AllowAnyOrigin: true}), "OPTIONS", listed, false)
	if got.status != http.StatusMethodNotAllowed {
		t.Errorf("status: got %d, want %d", got.status, http.StatusMethodNotAllowed)
	}
	if o := got.headers.Get("Access-Control-Allow-Origin"); o != listed {
		t.Errorf("Access-Control-Allow-Origin: got %q, want %q", o, listed)
	}
}
