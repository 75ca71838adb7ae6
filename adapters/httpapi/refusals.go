package httpapi

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// Refusals of requests that fasthttp or Fiber would otherwise answer in
// plain text of their own, before any middleware runs: an unknown method,
// another HTTP version, a header or body over the limits, a malformed
// request. Each is answered in the shape of the area its path belongs to,
// like every other error.
var (
	errMethodNotImplemented = fiber.NewError(http.StatusNotImplemented, "Not Implemented")
	errVersionNotSupported  = fiber.NewError(http.StatusHTTPVersionNotSupported, "HTTP Version Not Supported")
)

// isFault reports whether an answer of status is a failure of the server,
// which is logged. 501 and 505 are server statuses by number only: they
// answer a method or a protocol version the client chose.
func isFault(status int) bool {
	return status >= http.StatusInternalServerError &&
		status != http.StatusNotImplemented && status != http.StatusHTTPVersionNotSupported
}

// guardProtocol puts the service's own answers in front of fasthttp's and
// Fiber's refusals.
//
// Fiber answers a method outside its list with a plain-text 400 and never
// reaches the routes. A method that no route of the service serves is
// answered 501 instead, as RFC 9110 asks of a method the server does not
// implement for any resource; a known method on a path that does not serve
// it stays the router's 405. A request line of another HTTP version, such as
// the HTTP/2 preface "PRI * HTTP/2.0" sent to this HTTP/1.1 server, is a 505
// that closes the connection, since what follows the preface is not HTTP/1.
//
// fasthttp answers an "Expect: 100-continue" request with 100 Continue
// before reading its body, however large the body announces itself. The
// expectation of a request whose Content-Length is over the body limit is
// dropped once its header is read, so that fasthttp refuses the body by its
// length at once and the client gets the 413 without being asked for a body
// it would send in vain. fasthttp's own way of refusing, its
// ContinueHandler, could only send an empty 417.
//
// The errors fasthttp meets while reading a request go to rejected, which
// Fiber would turn into errors whose text includes the raw request.
func (s *Server) guardProtocol() {
	srv := s.app.Server()
	route := srv.Handler
	srv.Handler = func(ctx *fasthttp.RequestCtx) {
		switch {
		case !isHTTP1(ctx.Request.Header.Protocol()):
			s.refuse(ctx, errVersionNotSupported)
			ctx.SetConnectionClose()
		case !isKnownMethod(string(ctx.Method())):
			s.refuse(ctx, errMethodNotImplemented)
		default:
			route(ctx)
		}
	}
	limit := srv.MaxRequestBodySize
	srv.HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		if h.ContentLength() > limit {
			h.Del(fiber.HeaderExpect)
		}
		// A zero config keeps the server's timeouts and body limit.
		return fasthttp.RequestConfig{}
	}
	srv.ErrorHandler = s.rejected
}

// refuse answers a request that no route may see with err, in its area's
// shape, and records it like every rejected request.
func (s *Server) refuse(ctx *fasthttp.RequestCtx, err error) {
	c := s.app.AcquireCtx(ctx)
	defer s.app.ReleaseCtx(c)
	if herr := s.handleRejected(c, err); herr != nil {
		c.Status(http.StatusInternalServerError)
	}
}

// rejected answers a request that fasthttp could not read: a header over the
// read buffer, a body over the limit, a malformed request, a read timeout.
// fasthttp closes the connection after this answer.
//
// When fasthttp fails inside the header, the request it keeps has no path
// to choose the area by; its error quotes the start of what it read, whose
// request line is restored to the request first.
func (s *Server) rejected(ctx *fasthttp.RequestCtx, err error) {
	if line, ok := requestLineOf(err); ok {
		restoreRequestLine(&ctx.Request, line)
	}
	refusal := rejection(err)
	s.refuse(ctx, refusal)
	// The client may still be sending what was refused; the connection
	// lingers so that it can read the answer (see lingeringConn). A client
	// that timed out is sending nothing.
	if lc, ok := ctx.Conn().(*lingeringConn); ok && refusal != fiber.ErrRequestTimeout {
		lc.linger.Store(true)
	}
}

// rejection is the error a failure to read a request is answered with.
// Its message is fixed: fasthttp's text quotes the request, headers and
// all.
func rejection(err error) error {
	var small *fasthttp.ErrSmallBuffer
	var netErr net.Error
	switch {
	case errors.As(err, &small):
		return fiber.ErrRequestHeaderFieldsTooLarge
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return fiber.ErrRequestEntityTooLarge
	case errors.As(err, &netErr) && netErr.Timeout(), errors.Is(err, fasthttp.ErrTimeout):
		return fiber.ErrRequestTimeout
	}
	return fiber.ErrBadRequest
}

// requestLineOf finds the request line quoted in an error of fasthttp's
// header parser, which ends "contents: " followed by the first bytes it
// read as a Go string literal.
func requestLineOf(err error) (string, bool) {
	_, quoted, ok := strings.Cut(err.Error(), "contents: ")
	if !ok {
		return "", false
	}
	lit, qerr := strconv.QuotedPrefix(quoted)
	if qerr != nil {
		return "", false
	}
	start, qerr := strconv.Unquote(lit)
	if qerr != nil {
		return "", false
	}
	line, _, _ := strings.Cut(start, "\r\n")
	return line, true
}

// restoreRequestLine sets the method and target of line on req, for the
// answer, the log line and the metrics; a part that fasthttp would refuse
// is left out.
func restoreRequestLine(req *fasthttp.Request, line string) {
	method, rest, _ := strings.Cut(line, " ")
	target, _, _ := strings.Cut(rest, " ")
	if isKnownMethod(method) {
		req.Header.SetMethod(method)
	}
	if strings.HasPrefix(target, "/") {
		req.SetRequestURI(target)
	}
}

// isHTTP1 reports whether proto names HTTP/1.0 or HTTP/1.1, the versions
// this server speaks.
func isHTTP1(proto []byte) bool {
	return bytes.Equal(proto, []byte("HTTP/1.1")) || bytes.Equal(proto, []byte("HTTP/1.0"))
}

// isKnownMethod reports whether method is one Fiber's router knows; some
// route or middleware of the service answers each of them, if only with a
// 405.
func isKnownMethod(method string) bool {
	switch method {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodPost, fiber.MethodPut, fiber.MethodPatch,
		fiber.MethodDelete, fiber.MethodOptions, fiber.MethodConnect, fiber.MethodTrace:
		return true
	}
	return false
}

// metricsMethod is the method label of a request: its method when Fiber
// knows it, else "OTHER", so that a scanner trying made-up methods adds no
// series.
func metricsMethod(method string) string {
	if isKnownMethod(method) {
		return method
	}
	return "OTHER"
}

// refuseUnservablePaths answers 404 to a path that can name nothing the
// service serves: one with a NUL byte once decoded, or with a "." or ".."
// segment once decoded. fasthttp removes such segments from the path it
// serves files by while Fiber routes by the path as sent, so the two could
// disagree on what a request addresses; clients remove dot segments before
// sending, so only a crafted request carries them. Whatever serves a path,
// the refusal is the area's 404.
func refuseUnservablePaths(c *fiber.Ctx) error {
	if bytes.IndexByte(c.Context().Path(), 0) >= 0 || hasDotSegment(c.Path()) {
		return fiber.ErrNotFound
	}
	return c.Next()
}

// hasDotSegment reports whether the path raw, as sent, has a "." or ".."
// segment once its escapes are decoded.
func hasDotSegment(raw string) bool {
	if !strings.Contains(raw, ".") && !strings.Contains(raw, "%") {
		return false
	}
	if p, err := url.PathUnescape(raw); err == nil {
		raw = p
	}
	for seg := range strings.SplitSeq(raw, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
