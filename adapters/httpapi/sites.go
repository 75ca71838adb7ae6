package httpapi

import (
	"github.com/gofiber/fiber/v2"
)

// Site is another driving adapter served on this listener under a path
// prefix of its own, such as the admin console under /admin. httpapi
// imports none of them: the composition root hands them over in
// Deps.Sites. The API's CORS policy does not apply to a site's
// paths, and every error on them, the refusals made before routing
// included (an unknown method, a header too large, a bad path), is the
// site's to render.
type Site interface {
	// Owns reports whether path, as sent (any letter case), is the
	// site's.
	Owns(path string) bool
	// Mount registers the site's routes on the service's app.
	Mount(app *fiber.App)
	// RenderError answers err in the site's own shape.
	RenderError(c *fiber.Ctx, err error) error
}

// siteOf returns the site that owns path, if any.
func (s *Server) siteOf(path string) (Site, bool) {
	for _, f := range s.sites {
		if f.Owns(path) {
			return f, true
		}
	}
	return nil, false
}

// exceptSites runs h on every path but the sites'.
func (s *Server) exceptSites(h fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if _, ok := s.siteOf(c.Path()); ok {
			return c.Next()
		}
		return h(c)
	}
}
