package crud_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/crud"
	"github.com/inkwell/inkwell/domain"
)

func TestRenderError(t *testing.T) {
	secret := "dial tcp 10.0.0.7:5432: password authentication failed for user inkwell"
	tests := []struct {
		name        string
		path        string
		err         error
		wantStatus  int
		wantMessage string
		wantHeader  [2]string
	}{
		{"validation", "/users", domain.InvalidField("name", domain.RuleRequired, domain.RuleN(domain.RuleMax, 255)), 400, "name is required", [2]string{}},
		{"invalid without fields", "/users", &domain.Error{Kind: domain.Invalid}, 400, "Bad Request", [2]string{}},
		{"user not found", "/users/7", fmt.Errorf("get person 7: %w", domain.ErrNotFound), 404, "User not found", [2]string{}},
		{"v1 user not found", "/api/v1/users/7", domain.ErrNotFound, 404, "User not found", [2]string{}},
		{"v2 user not found", "/api/v2/users/7", domain.ErrNotFound, 404, "User not found", [2]string{}},
		{"product not found", "/api/v1/products/7", domain.ErrNotFound, 404, "Product not found", [2]string{}},
		{"record not found elsewhere", "/other", domain.ErrNotFound, 404, "Not Found", [2]string{}},
		{"route not found", "/users/7/x", fiber.NewError(404, "Cannot GET /users/7/x"), 404, "Not Found", [2]string{}},
		{"email taken", "/users", fmt.Errorf("create person: %w", domain.ErrEmailTaken), 409, "Email already exists", [2]string{}},
		{"sku taken", "/products", domain.ErrSKUTaken, 409, "SKU already exists", [2]string{}},
		{"other conflict", "/products", domain.ErrConflict, 409, "Conflict", [2]string{}},
		{"unauthenticated", "/users", domain.ErrUnauthenticated, 401, "Unauthorized", [2]string{"WWW-Authenticate", "Bearer"}},
		{"forbidden", "/users", domain.ErrForbidden, 403, "Forbidden", [2]string{}},
		{"throttled", "/users", &domain.Error{Kind: domain.TooManyRequests, RetryAfter: 1500 * time.Millisecond}, 429, "Too Many Requests", [2]string{"Retry-After", "2"}},
		{"store down", "/users", fmt.Errorf("list people: %w", &domain.Error{Kind: domain.Unavailable, Code: secret}), 503, "Service Unavailable", [2]string{}},
		{"deadline", "/users", fmt.Errorf("query: %w", context.DeadlineExceeded), 503, "Service Unavailable", [2]string{}},
		{"plain error", "/users", errors.New(secret), 500, "Internal Error", [2]string{}},
		{"internal domain error", "/users", &domain.Error{Code: secret}, 500, "Internal Error", [2]string{}},
		{"fiber 5xx", "/users", fiber.NewError(502, secret), 502, "Internal Error", [2]string{}},
		{"fiber 500", "/users", fiber.ErrInternalServerError, 500, "Internal Error", [2]string{}},
		{"body too large", "/users", fiber.ErrRequestEntityTooLarge, 413, "Payload Too Large", [2]string{}},
		{"method", "/users", fiber.ErrMethodNotAllowed, 405, "Method Not Allowed", [2]string{}},
		{"fiber 400 with detail", "/users", fiber.NewError(400, secret), 400, "Bad Request", [2]string{}},
		{"unsupported media type", "/users", fiber.ErrUnsupportedMediaType, 415, "Unsupported Media Type", [2]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := fiber.New(fiber.Config{DisableStartupMessage: true, ErrorHandler: crud.RenderError})
			app.Use(func(*fiber.Ctx) error { return tt.err })
			res, err := app.Test(httptest.NewRequest("GET", tt.path, nil), -1)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			raw, _ := io.ReadAll(res.Body)
			body := string(raw)
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status: got %d, want %d", res.StatusCode, tt.wantStatus)
			}
			if want := `{"success":false,"message":"` + tt.wantMessage + `","data":null}`; body != want {
				t.Errorf("body: got %s, want %s", body, want)
			}
			if strings.Contains(body, "10.0.0.7") {
				t.Errorf("body leaks the error's detail: %s", body)
			}
			if tt.wantHeader[0] != "" {
				if got := res.Header.Get(tt.wantHeader[0]); got != tt.wantHeader[1] {
					t.Errorf("%s: got %q, want %q", tt.wantHeader[0], got, tt.wantHeader[1])
				}
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type: got %q, want JSON", ct)
			}
		})
	}
}

func TestOwns(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"/users", true},
		{"/users/7", true},
		{"/products/7", true},
		{"/api/v1/users", true},
		{"/api/v1/users/7", true},
		{"/api/v1/products", true},
		{"/api/v1/products/7", true},
		{"/api/v2/users", true},
		{"/api/v2/users/7", true},
		{"/", true},
		{"/nowhere", true},
		{"/userslist", true},
		{"/apiary", true},
		{"/api", false},
		{"/api/", false},
		{"/api/v1/posts", false},
		{"/api/v1/user", false},
		{"/api/v1/usersx", false},
		{"/api/v2/products", false},
		{"/api/v2/posts/3", false},
		{"/api/v3/users", false},
		{"/sanctum/csrf-cookie", false},
		{"/login", false},
		{"/logout", false},
	}
	for _, tt := range tests {
		if got := crud.Owns(tt.path); got != tt.want {
			t.Errorf("Owns(%q): got %v, want %v", tt.path, got, tt.want)
		}
	}
}
