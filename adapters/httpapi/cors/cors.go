// Package cors answers cross-origin requests the way the specification's
// policy reads: listed origins (every origin in development) are echoed with
// credentials allowed, and preflights are answered here with 200.
//
// Fiber's own cors middleware is not used: it answers preflights with 204
// and refuses credentials together with a wildcard origin by panicking.
package cors

import (
	"strings"

	"github.com/gofiber/fiber/v2"
)

// AllowedMethods is the specification's list of allowed methods with PATCH
// added after it: area B's v2 users, v2 posts and comments take PATCH, and a
// browser sends a cross-origin PATCH only when its preflight names it.
const AllowedMethods = "GET,POST,PUT,DELETE,OPTIONS,PATCH"

// DefaultAllowedHeaders are the request headers a cross-origin page may
// send: a body's type and a bearer token; the keys of safe retries and
// conditional requests; the CSRF token and X-Requested-With that axios
// sends on every call of a cookie-session front end (Breeze's), and the
// language a page asks for.
var DefaultAllowedHeaders = []string{
	"Content-Type", "Authorization", "Idempotency-Key", "If-Match", "If-None-Match",
	"X-XSRF-TOKEN", "X-Requested-With", "Accept-Language",
}

// DefaultExposedHeaders are the response headers a cross-origin page may
// read besides the always-safe ones: what conditional requests, paging,
// created records, rate limits, replayed retries and request ids answer.
var DefaultExposedHeaders = []string{
	"ETag", "Location", "Link", "X-Total-Count", "Retry-After", "X-RateLimit-Limit",
	"X-RateLimit-Remaining", "Idempotent-Replayed", "X-Request-ID",
}

// Config is the cross-origin policy.
type Config struct {
	// AllowedOrigins lists the origins (scheme://host[:port]) that may call
	// the API from a browser. Case and a trailing slash do not matter; an
	// entry "*" allows every origin, as AllowAnyOrigin does.
	AllowedOrigins []string
	// AllowAnyOrigin allows every origin; it is meant for development.
	AllowAnyOrigin bool
	// AllowedHeaders are request headers a preflight allows besides
	// DefaultAllowedHeaders (CORS_ALLOWED_HEADERS).
	AllowedHeaders []string
	// ExposedHeaders are response headers a page may read besides
	// DefaultExposedHeaders (CORS_EXPOSED_HEADERS).
	ExposedHeaders []string
}

// New returns the middleware enforcing cfg on every path it is mounted on.
func New(cfg Config) fiber.Handler {
	allowed := make(map[string]bool, len(cfg.AllowedOrigins))
	anyOrigin := cfg.AllowAnyOrigin
	for _, o := range cfg.AllowedOrigins {
		o = normalize(o)
		if o == "*" {
			anyOrigin = true
		}
		if o != "" {
			allowed[o] = true
		}
	}
	headers := join(DefaultAllowedHeaders, cfg.AllowedHeaders)
	exposed := join(DefaultExposedHeaders, cfg.ExposedHeaders)

	return func(c *fiber.Ctx) error {
		// The answer depends on Origin whether or not it is allowed, so a
		// shared cache must never hand one origin's answer to another.
		c.Vary(fiber.HeaderOrigin)
		origin := c.Get(fiber.HeaderOrigin)
		ok := origin != "" && (anyOrigin || allowed[normalize(origin)])
		preflight := c.Method() == fiber.MethodOptions && c.Get(fiber.HeaderAccessControlRequestMethod) != ""

		if ok {
			// The origin is echoed, never "*": browsers refuse "*" on a
			// request that carries credentials.
			c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
			c.Set(fiber.HeaderAccessControlAllowCredentials, "true")
		}
		if !preflight {
			if ok {
				c.Set(fiber.HeaderAccessControlExposeHeaders, exposed)
			}
			return c.Next()
		}
		// Express's cors answers every preflight itself with the configured
		// success status (200 here), leaving out Access-Control-Allow-Origin
		// for an origin it does not allow. A refused preflight gets the same
		// 200 but no CORS headers at all, since without an allowed origin
		// they would grant nothing.
		if ok {
			c.Set(fiber.HeaderAccessControlAllowMethods, AllowedMethods)
			c.Set(fiber.HeaderAccessControlAllowHeaders, headers)
		}
		c.Status(fiber.StatusOK)
		c.Context().Response.ResetBody()
		return nil
	}
}

// normalize makes configured and presented origins comparable: browsers send
// scheme and host in lower case and without a trailing slash, while people
// configuring the list may not.
func normalize(origin string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimSpace(origin), "/"))
}

// join renders the default header list followed by the added headers,
// each named once whatever its letter case (header names ignore it).
func join(defaults, added []string) string {
	out := make([]string, 0, len(defaults)+len(added))
	seen := map[string]bool{}
	for _, h := range append(append([]string{}, defaults...), added...) {
		h = strings.TrimSpace(h)
		if h == "" || seen[strings.ToLower(h)] {
			continue
		}
		seen[strings.ToLower(h)] = true
		out = append(out, h)
	}
	return strings.Join(out, ",")
}
