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

// DefaultAllowedHeaders are the request headers a cross-origin page may send
// when the configuration names none.
var DefaultAllowedHeaders = []string{"Content-Type", "Authorization"}

// DefaultExposedHeaders are the response headers a cross-origin page may
// read besides the always-safe ones: area B's paging headers and the
// Location of a created record.
var DefaultExposedHeaders = []string{"X-Total-Count", "Link", "Location"}

// Config is the cross-origin policy.
type Config struct {
	// AllowedOrigins lists the origins (scheme://host[:port]) that may call
	// the API from a browser. Case and a trailing slash do not matter; an
	// entry "*" allows every origin, as AllowAnyOrigin does.
	AllowedOrigins []string
	// AllowAnyOrigin allows every origin; it is meant for development.
	AllowAnyOrigin bool
	// AllowedHeaders are the request headers a preflight allows; empty means
	// DefaultAllowedHeaders.
	AllowedHeaders []string
	// ExposedHeaders are the response headers a page may read; empty means
	// DefaultExposedHeaders.
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
	headers := join(cfg.AllowedHeaders, DefaultAllowedHeaders)
	exposed := join(cfg.ExposedHeaders, DefaultExposedHeaders)

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

// join renders a header list, falling back to def when list is empty.
func join(list, def []string) string {
	var out []string
	for _, h := range list {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		out = def
	}
	return strings.Join(out, ",")
}
