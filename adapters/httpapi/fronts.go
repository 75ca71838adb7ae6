package httpapi

import (
	"github.com/gofiber/fiber/v2"
)

// Front is another driving adapter served on this listener under a path
// prefix of its own, such as the admin console under /admin. httpapi
// imports none of them: the composition root hands them over in
// Services.Fronts. The API's CORS policy does not apply to a front's
// paths, and every error on them, the refusals made before routing
// included (an unknown method, a header too large, a bad path), is the
// front's to render.
type Front interface {
	// Owns reports whether path, as sent (any letter case), is the
	// front's.
	Owns(path string) bool
	// Mount registers the front's routes on the service's app.
	Mount(app *fiber.App)
	// RenderError answers err in the front's own shape.
	RenderError(c *fiber.Ctx, err error) error
}

// frontOf returns the front that owns path, if any.
func (s *Server) frontOf(path string) (Front, bool) {
	for _, f := range s.fronts {
		if f.Owns(path) {
			return f, true
		}
	}
	return nil, false
}

// exceptFronts runs h on every path but the fronts'.
func (s *Server) exceptFronts(h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if _, ok := s.frontOf(c.Path()); ok {
			return c.Next()
		}
		return h(c)
	}
}
