package web

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// SafeMethod reports whether method only reads, so needs no CSRF token.
func SafeMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return false
}

// SameToken compares a token a request sent with the session's in constant
// time; an empty token matches nothing.
func SameToken(sent, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(sent), []byte(want)) == 1
}

// FromSameOrigin reports whether a request was sent by a page of the
// origin it came to (origin, as Proxies.Origin tells it): its
// Sec-Fetch-Site is same-origin, or, from a browser that sends no
// Sec-Fetch-Site, its Origin header is origin. A request with neither
// header is not a browser's cross-site request (browsers send Origin with
// every cross-site POST) and passes; the CSRF token still guards it.
func FromSameOrigin(c *fiber.Ctx, origin string) bool {
	if site := c.Get("Sec-Fetch-Site"); site != "" {
		return site == "same-origin"
	}
	sent := c.Get(fiber.HeaderOrigin)
	if sent == "" {
		return true
	}
	u, err := url.Parse(sent)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Scheme+"://"+u.Host, origin)
}
