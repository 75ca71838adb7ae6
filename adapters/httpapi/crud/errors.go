package crud

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/domain"
)

// Errors of the HTTP layer itself, met before any use case runs.
var (
	errMalformedJSON = &domain.Error{Kind: domain.Invalid, Code: "malformed_json"}
	errNotAnObject   = &domain.Error{Kind: domain.Invalid, Code: "not_an_object"}
	// errUnsupportedContent answers a body in a type area B does not read.
	// It is a 400, not a 415: Express leaves such a body unparsed and its
	// validation then fails with a 400, and area A answers 400 as well.
	errUnsupportedContent = &domain.Error{Kind: domain.Invalid, Code: "unsupported_content_type"}
)

// bodyMessage is the envelope message of each refusal of a body that could
// not be read, before any field was checked.
var bodyMessage = map[string]string{
	errMalformedJSON.Code:      "Malformed JSON body.",
	errNotAnObject.Code:        "Request body must be a JSON object.",
	errUnsupportedContent.Code: "Unsupported content type.",
}

// kindStatus is area B's status of an error of kind k: every adapter's
// (web.KindStatus), but for a refusal of what was sent, which area B
// answers 400 where area A answers 422.
func kindStatus(k domain.Kind) int {
	if k == domain.Invalid {
		return http.StatusBadRequest
	}
	return web.KindStatus(k)
}

// statusMessage is the envelope message of each status, the specification's
// default texts first. A status missing here takes its standard reason
// phrase; a missing 5xx, but for 501 and 505, takes "Internal Error".
var statusMessage = map[int]string{
	http.StatusOK:                    "Success",
	http.StatusCreated:               "Created",
	http.StatusBadRequest:            "Bad Request",
	http.StatusUnauthorized:          "Unauthorized",
	http.StatusForbidden:             "Forbidden",
	http.StatusNotFound:              "Not Found",
	http.StatusMethodNotAllowed:      "Method Not Allowed",
	http.StatusConflict:              "Conflict",
	http.StatusPreconditionFailed:    "Precondition Failed",
	http.StatusRequestEntityTooLarge: "Payload Too Large",
	http.StatusUnprocessableEntity:   "Unprocessable Entity",
	http.StatusTooManyRequests:       "Too Many Requests",
	http.StatusInternalServerError:   "Internal Error",
	http.StatusServiceUnavailable:    "Service Unavailable",
}

// conflictMessage is the envelope message of each uniqueness conflict.
var conflictMessage = map[string]string{
	domain.ErrEmailTaken.Code: "Email already exists",
	domain.ErrSKUTaken.Code:   "SKU already exists",
}

// envelope is the shape of every area B response. Meta is set only by the
// v2 users list.
type envelope struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Data    any    `json:"data"`
	Meta    *meta  `json:"meta,omitempty"`
}

// RenderError writes err as an area B error envelope: success false, data
// null and a message from this package's tables: the first broken rule of a
// validation failure, the refusal of an unreadable body, a conflict's own
// message, or else the message of the status the error's kind (or a
// *fiber.Error's status) maps to, so no internal detail reaches the client. Logging faults is the caller's
// concern.
func RenderError(c *fiber.Ctx, err error) error {
	status, msg := classify(c.Path(), err)
	switch status {
	case http.StatusUnauthorized:
		c.Set(fiber.HeaderWWWAuthenticate, "Bearer")
	case http.StatusTooManyRequests:
		if de, ok := domain.AsError(err); ok && de.RetryAfter > 0 {
			secs := int(de.RetryAfter.Seconds() + 0.999)
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(secs))
		}
	}
	return c.Status(status).JSON(envelope{Message: msg})
}

// classify picks the status and message of err on path.
func classify(path string, err error) (int, string) {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fe.Code, messageOf(fe.Code)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return http.StatusServiceUnavailable, messageOf(http.StatusServiceUnavailable)
	}
	de, ok := domain.AsError(err)
	if !ok {
		return http.StatusInternalServerError, messageOf(http.StatusInternalServerError)
	}
	status := kindStatus(de.Kind)
	switch de.Kind {
	case domain.Invalid:
		return status, invalidMessage(de)
	case domain.NotFound:
		if r := resourceOf(path); r != "" {
			return status, r + " not found"
		}
	case domain.Conflict:
		if m, ok := conflictMessage[de.Code]; ok {
			return status, m
		}
	}
	return status, messageOf(status)
}

// messageOf is the envelope message of an error status. 501 and 505 keep
// their reason phrases: they answer the client's method or HTTP version,
// not a failure of the server.
func messageOf(status int) string {
	if m, ok := statusMessage[status]; ok {
		return m
	}
	if status >= 500 && status != http.StatusNotImplemented && status != http.StatusHTTPVersionNotSupported {
		return statusMessage[http.StatusInternalServerError]
	}
	if t := http.StatusText(status); t != "" {
		return t
	}
	return statusMessage[http.StatusBadRequest]
}

// invalidMessage is the envelope message of a validation failure: the first
// broken rule, as "email must be a valid email address", or the refusal of
// an unreadable body.
func invalidMessage(de *domain.Error) string {
	if len(de.Fields) > 0 {
		return plainMessage(de.Fields[0])
	}
	if m, ok := bodyMessage[de.Code]; ok {
		return m
	}
	return statusMessage[http.StatusBadRequest]
}
