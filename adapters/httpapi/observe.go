package httpapi

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
)

// unmatchedRoute is the route label of every request that no route answered:
// unknown paths and methods, and requests a global middleware settled before
// the router reached a route (CORS preflights). One fixed label keeps
// scanners from creating a series per path they try.
const unmatchedRoute = "unmatched"

// operationalRoutes are the routes orchestrators and scrapers call every few
// seconds. Their successful calls are logged at debug level so that the
// request log stays a record of traffic; they are counted like any other.
var operationalRoutes = map[string]bool{"/healthz": true, "/up": true, "/readyz": true, "/metrics": true}

// observe records every request once it is answered: one log line and the
// request metrics. It renders the error of the rest of the chain itself, as
// Fiber's own logger does, so that the status it records is the one sent.
//
// The line carries the method, the route template, the path without its
// query, the status, the duration, the request id, the user id when a token
// identified the caller, and the response size. Headers, cookies, query
// strings and bodies are never logged: they carry tokens, passwords and
// session secrets.
func (s *Server) observe(c *fiber.Ctx) error {
	began := time.Now()
	if err := c.Next(); err != nil {
		if herr := s.handleError(c, err); herr != nil {
			c.Status(http.StatusInternalServerError)
		}
	}
	web.NameStatus(c)
	s.record(c, s.labels.label(c), time.Since(began))
	return nil
}

// handleRejected renders and records the requests refused before any
// middleware ran (see guardProtocol): an unknown method or HTTP version, a
// header or body over the limits, a malformed request, a read timeout. They
// are rendered like every error, and recorded under the unmatched route.
func (s *Server) handleRejected(c *fiber.Ctx, err error) error {
	began := time.Now()
	herr := s.handleError(c, err)
	web.NameStatus(c)
	s.record(c, unmatchedRoute, time.Since(began))
	return herr
}

// record counts an answered request and writes its log line.
func (s *Server) record(c *fiber.Ctx, route string, took time.Duration) {
	status := c.Response().StatusCode()
	s.metrics.observe(metricsMethod(c.Method()), route, status, took)

	level := slog.LevelInfo
	if operationalRoutes[route] && status < http.StatusInternalServerError {
		level = slog.LevelDebug
	}
	if !s.log.Enabled(c.UserContext(), level) {
		return
	}
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs,
		slog.String("method", c.Method()),
		slog.String("route", route),
		slog.String("path", c.Path()),
		slog.Int("status", status),
		slog.Float64("duration_ms", float64(took.Microseconds())/1000),
		slog.String("request_id", requestID(c)),
	)
	if a, ok := actorOf(c); ok {
		attrs = append(attrs, slog.Int64("user_id", a.User.ID))
	}
	if n := bytesOut(c); n >= 0 {
		attrs = append(attrs, slog.Int("bytes_out", n))
	}
	s.log.LogAttrs(c.UserContext(), level, "request", attrs...)
}

// bytesOut is the size of the response body, or -1 when it is streamed and
// its length is not known in advance. A streamed body is not read here: that
// would consume it before it is sent.
func bytesOut(c *fiber.Ctx) int {
	resp := c.Response()
	if resp.IsBodyStream() {
		return resp.Header.ContentLength()
	}
	return len(resp.Body())
}

// routeLabels gives each request the template of the route that answered it,
// such as /api/v1/tokens/:id, never its raw path. A request that ended in a
// middleware or a static mount with a prefix of its own, such as /storage, is
// labelled with that prefix; one that ended in a global middleware, with
// unmatchedRoute. Either way the labels are bounded by the registered routes.
//
// Fiber's Ctx.Route is the last route the request reached, which is a
// middleware when no route matched; Fiber does not say which routes are
// middleware except through App.GetRoutes, so the answer is looked up there
// once per route and remembered. The cache holds one entry per registered
// route at most.
type routeLabels struct {
	app   *fiber.App
	known sync.Map // *fiber.Route → string
}

func (r *routeLabels) label(c *fiber.Ctx) string {
	route := c.Route()
	if len(route.Handlers) == 0 {
		// Fiber makes up a route when none was reached at all.
		return unmatchedRoute
	}
	if l, ok := r.known.Load(route); ok {
		return l.(string)
	}
	l := unmatchedRoute
	if route.Path != "/" {
		l = route.Path
	}
	for _, e := range r.app.GetRoutes(true) {
		// GetRoutes returns copies; a copy shares its handlers with the
		// route it was made from, which tells two routes on one path apart.
		if e.Method == route.Method && e.Path == route.Path && len(e.Handlers) > 0 && &e.Handlers[0] == &route.Handlers[0] {
			l = e.Path
			break
		}
	}
	r.known.Store(route, l)
	return l
}
