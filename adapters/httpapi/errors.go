package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/domain"
)

// Errors that arise in the HTTP layer itself, before any use case runs.
var (
	errMalformedJSON      = fiber.NewError(http.StatusBadRequest, "Malformed JSON body.")
	errUnsupportedContent = fiber.NewError(http.StatusBadRequest, "Unsupported content type.")
)

// errCannotCreatePosts is version 1's refusal of a post creation to a
// token not allowed domain.WritePosts: domain.ErrInvalidAbility, in the
// specification's words and shape (a message only).
var errCannotCreatePosts = &domain.Error{Kind: domain.Forbidden, Code: "cannot_create_posts"}

// cannotCreatePosts words err as version 1's post creation does: the
// missing ability as errCannotCreatePosts, anything else as it is.
func cannotCreatePosts(err error) error {
	if errors.Is(err, domain.ErrInvalidAbility) {
		return errCannotCreatePosts
	}
	return err
}

// codeMessage is area A's message for each domain error code that is not a
// validation failure; errors of other codes take their kind's message.
var codeMessage = map[string]string{
	domain.ErrNotFound.Code:         "Resource not found.",
	domain.ErrConflict.Code:         "The record conflicts with an existing one.",
	domain.ErrSlugTaken.Code:        "The slug has already been taken.",
	domain.ErrUnauthenticated.Code:  "Unauthenticated.",
	domain.ErrForbidden.Code:        "This action is unauthorized.",
	domain.ErrInvalidAbility.Code:   "Invalid ability provided.",
	errCannotCreatePosts.Code:       "This token does not have permission to create posts.",
	domain.ErrCSRFMismatch.Code:     "CSRF token mismatch.",
	domain.ErrTooManyAttempts.Code:  "Too Many Attempts.",
	domain.ErrInvalidSignature.Code: "Invalid signature.",
	domain.ErrEmailNotVerified.Code: "Your email address is not verified.",
}

// kindMessage is area A's message for a domain error whose code
// codeMessage does not name.
var kindMessage = map[domain.Kind]string{
	domain.Invalid:         "Validation failed.",
	domain.Unauthenticated: "Unauthenticated.",
	domain.Forbidden:       "This action is unauthorized.",
	domain.NotFound:        "Resource not found.",
	domain.Conflict:        "The record conflicts with an existing one.",
	domain.TooManyRequests: "Too Many Attempts.",
	domain.Unavailable:     "Service Unavailable",
	domain.Internal:        "Internal Server Error",
}

// statusMessage is area A's message for HTTP-level errors, keyed by status.
var statusMessage = map[int]string{
	http.StatusNotFound:              "Resource not found.",
	http.StatusMethodNotAllowed:      "Method Not Allowed",
	http.StatusPreconditionFailed:    "Precondition Failed",
	http.StatusRequestEntityTooLarge: "Payload Too Large",
	http.StatusInternalServerError:   "Internal Server Error",
	http.StatusServiceUnavailable:    "Service Unavailable",
}

// errorBody is area A's error shape.
type errorBody struct {
	Success bool                `json:"success"`
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors,omitempty"`
}

// renderError writes err in area A's shape. It is the only place where an
// error of area A becomes a status; faults are logged here and nowhere else,
// and their text never reaches the client.
func renderError(c *fiber.Ctx, log *slog.Logger, err error) error {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		msg, ok := statusMessage[fe.Code]
		if !ok {
			msg = fe.Message
		}
		if isFault(fe.Code) {
			logFault(c, log, err)
		}
		return sendJSON(c, fe.Code, errorBody{Message: msg})
	}

	de, ok := domain.AsError(err)
	if !ok && errors.Is(err, context.DeadlineExceeded) {
		// The request's deadline ran out in a call that did not say why,
		// typically while waiting for the store: the service is overloaded
		// or its store unreachable, which is a 503, not a bug.
		de, ok = domain.ErrUnavailable, true
	}
	if !ok {
		logFault(c, log, err)
		return sendJSON(c, http.StatusInternalServerError, errorBody{Message: statusMessage[http.StatusInternalServerError]})
	}
	msg, ok := codeMessage[de.Code]
	if !ok {
		msg = kindMessage[de.Kind]
	}
	if errors.Is(de, errCannotCreatePosts) {
		// The specification shows this refusal as the controller's own
		// response: a message and nothing else.
		return sendJSON(c, http.StatusForbidden, message{msg})
	}
	status := web.Status(de)
	body := errorBody{Message: msg}
	switch de.Kind {
	case domain.Invalid:
		body.Message, body.Errors = kindMessage[domain.Invalid], laravelFields(de.Fields)
	case domain.Conflict:
		// Area A reports a conflict that a field's value caused as a
		// validation failure of that field, as Laravel's unique rule does.
		if len(de.Fields) > 0 {
			status = web.KindStatus(domain.Invalid)
			body.Message, body.Errors = kindMessage[domain.Invalid], laravelFields(de.Fields)
		}
	case domain.TooManyRequests:
		secs := int(de.RetryAfter.Seconds() + 0.999)
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(max(secs, 1)))
	case domain.PreconditionFailed:
		body.Message = statusMessage[http.StatusPreconditionFailed]
	case domain.Unavailable:
		logFault(c, log, err)
		body.Message = statusMessage[http.StatusServiceUnavailable]
	case domain.Internal:
		logFault(c, log, err)
		body.Message = statusMessage[http.StatusInternalServerError]
	}
	return sendJSON(c, status, body)
}

// logFault records a server-side failure with the request it broke.
func logFault(c *fiber.Ctx, log *slog.Logger, err error) {
	log.ErrorContext(c.UserContext(), "request failed",
		"request_id", requestID(c), "method", c.Method(), "path", c.Path(), "error", err.Error())
}
