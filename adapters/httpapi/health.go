package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
)

// readyTimeout bounds the store check of /readyz. It is shorter than the
// usual probe timeout of orchestrators, so they get a 503 rather than a
// dropped probe when the store hangs.
const readyTimeout = 2 * time.Second

// probe is the body of /healthz and /readyz.
type probe struct {
	Status string `json:"status"`
}

// operations registers the routes of orchestrators and scrapers.
func (s *Server) operations() {
	s.app.Get("/healthz", s.healthz)
	s.app.Get("/readyz", s.readyz)
	s.app.Get("/metrics", s.metrics.handler())
}

// healthz answers while the process can serve HTTP at all; it does not touch
// the store, so that an outage of the database does not get the process
// restarted, which would not help.
func (s *Server) healthz(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	return sendJSON(c, http.StatusOK, probe{Status: "ok"})
}

// readyz answers 200 when the store answers a ping within readyTimeout and
// 503 otherwise, so that a load balancer sends traffic elsewhere meanwhile.
// The cause goes to the log only.
func (s *Server) readyz(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	ctx, cancel := context.WithTimeout(c.UserContext(), readyTimeout)
	defer cancel()
	if err := s.pinger.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "not ready: store unreachable", "request_id", requestID(c), "error", err.Error())
		return sendJSON(c, http.StatusServiceUnavailable, probe{Status: "unavailable"})
	}
	return sendJSON(c, http.StatusOK, probe{Status: "ok"})
}
