package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/domain"
)

func TestFromSameOrigin(t *testing.T) {
	app := fiber.New()
	app.Post("/", func(c *fiber.Ctx) error {
		if web.FromSameOrigin(c, web.Proxies(nil).Origin(c)) {
			return c.SendStatus(http.StatusNoContent)
		}
		return c.SendStatus(http.StatusForbidden)
	})
	for _, tc := range []struct {
		name    string
		headers []string
		want    int
	}{
		{"no header: not a browser's cross-site request", nil, http.StatusNoContent},
		{"same-origin fetch", []string{"Sec-Fetch-Site", "same-origin"}, http.StatusNoContent},
		{"same-site is another origin", []string{"Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
		{"cross-site fetch", []string{"Sec-Fetch-Site", "cross-site", "Origin", "http://example.com"}, http.StatusForbidden},
		{"typed by the user", []string{"Sec-Fetch-Site", "none"}, http.StatusForbidden},
		{"own origin", []string{"Origin", "http://example.com"}, http.StatusNoContent},
		{"own origin, other case", []string{"Origin", "HTTP://EXAMPLE.COM"}, http.StatusNoContent},
		{"other scheme", []string{"Origin", "https://example.com"}, http.StatusForbidden},
		{"other port", []string{"Origin", "http://example.com:8080"}, http.StatusForbidden},
		{"other host", []string{"Origin", "http://evil.example"}, http.StatusForbidden},
		{"opaque origin", []string{"Origin", "null"}, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "http://example.com/", nil)
			for i := 0; i+1 < len(tc.headers); i += 2 {
				req.Header.Set(tc.headers[i], tc.headers[i+1])
			}
			resp, err := app.Test(req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.want {
				t.Errorf("got %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
}

func TestSameToken(t *testing.T) {
	for _, tc := range []struct {
		sent, want string
		ok         bool
	}{
		{"abc", "abc", true},
		{"abd", "abc", false},
		{"", "abc", false},
		{"", "", false},
		{"abc", "", false},
	} {
		if got := web.SameToken(tc.sent, tc.want); got != tc.ok {
			t.Errorf("SameToken(%q, %q): got %v", tc.sent, tc.want, got)
		}
	}
}

func TestStatus(t *testing.T) {
	for _, tc := range []struct {
		err  *domain.Error
		want int
	}{
		{domain.ErrCSRFMismatch, web.StatusCSRFMismatch},
		{domain.ErrNotFound, http.StatusNotFound},
		{domain.ErrForbidden, http.StatusForbidden},
		{domain.ErrConflict, http.StatusConflict},
		{&domain.Error{Kind: domain.Invalid}, http.StatusUnprocessableEntity},
		{&domain.Error{}, http.StatusInternalServerError},
	} {
		if got := web.Status(tc.err); got != tc.want {
			t.Errorf("Status(%v): got %d, want %d", tc.err, got, tc.want)
		}
	}
}
