package web

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
)

// StatusCSRFMismatch is Laravel's "Page Expired", which net/http has no
// name for: a request whose CSRF token is missing or stale.
const StatusCSRFMismatch = 419

// reasonPhrases are the status lines' words for the statuses fasthttp has
// none for, which it would call "Unknown Status Code".
var reasonPhrases = map[int][]byte{StatusCSRFMismatch: []byte("Page Expired")}

// NameStatus gives c's response the reason phrase of its status when
// fasthttp has none. Call it once the status is final: the phrase stays
// whatever status is set after it.
func NameStatus(c *fiber.Ctx) {
	if phrase, ok := reasonPhrases[c.Response().StatusCode()]; ok {
		c.Response().Header.SetStatusMessage(phrase)
	}
}

// kindStatus is the table from an error's kind to its status, the same for
// every adapter; each words the answer in its own shape.
var kindStatus = map[domain.Kind]int{
	domain.Invalid:         http.StatusUnprocessableEntity,
	domain.Unauthenticated: http.StatusUnauthorized,
	domain.Forbidden:       http.StatusForbidden,
	domain.NotFound:        http.StatusNotFound,
	domain.Conflict:        http.StatusConflict,
	domain.TooManyRequests: http.StatusTooManyRequests,
	domain.Unavailable:     http.StatusServiceUnavailable,
	domain.Internal:        http.StatusInternalServerError,
	// A conditional write (If-Match) found the resource changed.
	domain.PreconditionFailed: http.StatusPreconditionFailed,
}

// Status is the status that answers de: its kind's, except a CSRF mismatch,
// which is 419 rather than a plain 403, so that a client can tell "fetch a
// new token" from "not allowed".
func Status(de *domain.Error) int {
	if de.Code == domain.ErrCSRFMismatch.Code {
		return StatusCSRFMismatch
	}
	return KindStatus(de.Kind)
}

// KindStatus is the status of an error of kind k.
func KindStatus(k domain.Kind) int {
	if st, ok := kindStatus[k]; ok {
		return st
	}
	return http.StatusInternalServerError
}
