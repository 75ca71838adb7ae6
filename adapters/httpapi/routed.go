package httpapi

import (
	"github.com/gofiber/fiber/v2"
)

// localRefusal is the Locals key of a deferredRefusal.
const localRefusal = "inkwell.refusal"

// deferredRefusal is a refusal decided by a global middleware and answered
// by the route the request reaches, so that the answer is logged and
// counted under that route rather than as unmatched: a global middleware
// runs before the router knows the route. taken says a route answered it.
type deferredRefusal struct {
	err   error
	taken bool
}

// deferRefusal refuses the request with err from the route it matches, or,
// when it matches none, from here. The middleware that calls it must be the
// last global one, so that nothing else runs for a refused request before
// its route does.
func deferRefusal(c *fiber.Ctx, err error) error {
	d := &deferredRefusal{err: err}
	c.Locals(localRefusal, d)
	nerr := c.Next()
	if d.taken {
		return nerr
	}
	// No route took the request (an unknown path or method): the refusal
	// wins over the 404 or 405.
	return err
}

// takeRefusal answers a deferred refusal before the route's own handlers.
func takeRefusal(next fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if d, ok := c.Locals(localRefusal).(*deferredRefusal); ok && !d.taken {
			d.taken = true
			return d.err
		}
		return next(c)
	}
}

// atRoutes wraps the handlers of every route registered so far, as Fiber
// has no middleware that runs once a route is found: each route first
// answers a deferred refusal (the rate limit's), and each POST route runs
// its own handler, the last, through idempotent, so that what the route's
// middleware refuses (authentication, CSRF, abilities) keeps no answer
// under the request's Idempotency-Key.
//
// The handlers are replaced in place: GetRoutes returns copies of the
// routes that share their handler slices with the router, and a GET and its
// HEAD share one, which is wrapped once.
func atRoutes(app *fiber.App, handler func(fiber.Handler) fiber.Handler) {
	wrappedLast, wrappedFirst := map[*fiber.Handler]bool{}, map[*fiber.Handler]bool{}
	for _, r := range app.GetRoutes(true) {
		if len(r.Handlers) == 0 {
			continue
		}
		if last := &r.Handlers[len(r.Handlers)-1]; r.Method == fiber.MethodPost && !wrappedLast[last] {
			*last, wrappedLast[last] = handler(*last), true
		}
		if first := &r.Handlers[0]; !wrappedFirst[first] {
			*first, wrappedFirst[first] = takeRefusal(*first), true
		}
	}
}
