package httpapi

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/ports"
)

// Headers of the request rate limit, with Laravel's names.
const (
	headerRateLimit          = "X-RateLimit-Limit"
	headerRateLimitRemaining = "X-RateLimit-Remaining"
)

// limitRequests counts every request to an API route, of either area,
// against its caller's quota and refuses it past the limit, in the area's
// shape with Retry-After. The refusal is answered by the route the request
// matches (see deferRefusal), so that it is logged and counted under it.
// The caller is the bearer token when a valid one comes with the request,
// keyed by its id so that the secret never reaches the store, and the
// client address otherwise. The probes, the metrics, the
// documentation and the stored files are no API and are not counted.
func limitRequests(limit ports.RequestLimit, auth *authenticator, proxies web.Proxies) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if !limited(c.Path()) {
			return c.Next()
		}
		q, err := limit.Hit(c.UserContext(), callerKey(c, auth, proxies))
		if q.Limit > 0 {
			c.Set(headerRateLimit, strconv.Itoa(q.Limit))
			c.Set(headerRateLimitRemaining, strconv.Itoa(q.Remaining))
		}
		if err != nil {
			return deferRefusal(c, err)
		}
		return c.Next()
	}
}

// callerKey names whom a request is counted for; the client address is
// the one the login throttle counts too.
func callerKey(c *fiber.Ctx, auth *authenticator, proxies web.Proxies) string {
	if token := bearer(c); token != "" {
		if actor, err := auth.bearerActor(c, token); err == nil && actor.Token != nil {
			return "token:" + strconv.FormatInt(actor.Token.ID, 10)
		}
	}
	return "ip:" + proxies.ClientIP(c)
}

// unlimited are the paths, and the prefixes ending in "/", that are no API
// route; the root, a redirect to /docs, is one too.
var unlimited = []string{"/healthz", "/up", "/readyz", "/metrics", "/openapi.json", "/docs", "/docs/", "/storage/", "/bench/ceiling"}

// limited reports whether path is an API route. Routes match ignoring case
// and a trailing slash, so the comparison does too.
func limited(path string) bool {
	p := strings.ToLower(path)
	if len(p) > 1 {
		p = strings.TrimRight(p, "/")
	}
	if p == "/" {
		return false
	}
	for _, u := range unlimited {
		if p == u || (strings.HasSuffix(u, "/") && strings.HasPrefix(p, u)) {
			return false
		}
	}
	return true
}
