package httpapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
)

// readyTimeout bounds the store check of /readyz. It is shorter than the
// usual probe timeout of orchestrators, so they get a 503 rather than a
// dropped probe when the store hangs.
const readyTimeout = 2 * time.Second

// probe is the body of /healthz, /up and /readyz.
type probe struct {
	Status string `json:"status"`
	// Reason says why /readyz answers 503 when the cause is the
	// operator's to know and holds nothing internal (the backup's lag).
	Reason string `json:"reason,omitempty"`
}

// operations registers the routes of orchestrators and scrapers, and the
// root, which sends a browser that opens the server's address to the
// documentation. /up is /healthz under the name Laravel 11 gives its
// health route, so that probes written for a Laravel deployment work as
// they are. Other methods on / answer 404 (see rootMethodError).
func (s *Server) operations() {
	s.app.Get("/", home)
	s.app.Get("/healthz", s.healthz)
	s.app.Get("/up", s.healthz)
	s.app.Get("/readyz", s.readyz)
	s.app.Get("/metrics", s.metrics.handler())
}

// home redirects GET and HEAD / to the documentation.
func home(c *fiber.Ctx) error {
	return c.Redirect("/docs", http.StatusFound)
}

// rootMethodError is the error of a request to / with a method other than
// GET or HEAD: the router's 405, with its Allow header, becomes the 404
// every method got there before / redirected, since the root is no
// resource of the API that a client should try other methods on.
func rootMethodError(c *fiber.Ctx, err error) error {
	if c.Path() != "/" || !errors.Is(err, fiber.ErrMethodNotAllowed) {
		return err
	}
	c.Response().Header.Del(fiber.HeaderAllow)
	return fiber.ErrNotFound
}

// healthz answers while the process can serve HTTP at all; it does not touch
// the store, so that an outage of the database does not get the process
// restarted, which would not help.
func (s *Server) healthz(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	return sendJSON(c, http.StatusOK, probe{Status: "ok"})
}

// readyz answers 200 when the store answers a ping within readyTimeout,
// and the backup, if any, lags no more than BackupMaxLag; 503 otherwise, so
// that a load balancer sends traffic elsewhere meanwhile. The store's cause
// goes to the log only; the backup's lag is in the body too.
func (s *Server) readyz(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	ctx, cancel := context.WithTimeout(c.UserContext(), readyTimeout)
	defer cancel()
	if err := s.pinger.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "not ready: store unreachable", "request_id", requestID(c), "error", err.Error())
		return sendJSON(c, http.StatusServiceUnavailable, probe{Status: "unavailable"})
	}
	if reason := s.backupBehind(ctx); reason != "" {
		s.log.WarnContext(ctx, "not ready: "+reason, "request_id", requestID(c))
		return sendJSON(c, http.StatusServiceUnavailable, probe{Status: "unavailable", Reason: reason})
	}
	return sendJSON(c, http.StatusOK, probe{Status: "ok"})
}
