// Package domain holds Inkwell's entities, the rules they enforce and the one
// error type every layer speaks. It imports the standard library only.
package domain

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Kind classifies an Error so that each HTTP area can map it to a status in one
// table. The zero value is Internal: an error nobody classified is a fault.
type Kind int

const (
	Internal        Kind = iota // a fault; details stay in the log
	Invalid                     // the input breaks a rule; Fields says which
	Unauthenticated             // no, bad, expired or revoked credentials
	Forbidden                   // authenticated, but not allowed
	NotFound                    // the record does not exist (or is not visible)
	Conflict                    // a uniqueness rule would break
	TooManyRequests             // a rate limit was reached
	Unavailable                 // a dependency (the store) is down
)

var kindNames = [...]string{"internal", "invalid", "unauthenticated", "forbidden", "not found", "conflict", "too many requests", "unavailable"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is the error type of the domain. Code is a stable machine-readable
// identifier (for example "email_taken"), Message a text safe to show a client,
// and Fields the per-field messages of a validation failure, in the order the
// rules were checked.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	Fields  map[string][]string
	// RetryAfter tells a TooManyRequests caller when to try again.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if len(e.Fields) == 0 {
		return e.Kind.String() + ": " + e.Message
	}
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(e.Kind.String() + ": " + e.Message)
	for _, k := range keys {
		fmt.Fprintf(&b, "; %s: %s", k, strings.Join(e.Fields[k], " "))
	}
	return b.String()
}

// Is makes errors.Is match two domain errors by Kind and Code, so a sentinel
// matches a copy that carries different fields or a different message.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	return e.Kind == t.Kind && e.Code == t.Code
}

// KindOf returns the Kind of the first domain error in err's chain, and
// Internal when there is none.
func KindOf(err error) Kind {
	var de *Error
	if errors.As(err, &de) {
		return de.Kind
	}
	return Internal
}

// AsError returns the first domain error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var de *Error
	ok := errors.As(err, &de)
	return de, ok
}

// InvalidField builds a validation error for a single field.
func InvalidField(field, message string) *Error {
	return &Error{Kind: Invalid, Code: "invalid", Message: "Validation failed.", Fields: map[string][]string{field: {message}}}
}

// Sentinels. Callers wrap them with context (fmt.Errorf("...: %w", err)) and
// match them with errors.Is.
var (
	ErrNotFound         = &Error{Kind: NotFound, Code: "not_found", Message: "Resource not found."}
	ErrConflict         = &Error{Kind: Conflict, Code: "conflict", Message: "The record conflicts with an existing one."}
	ErrEmailTaken       = &Error{Kind: Conflict, Code: "email_taken", Message: "The email has already been taken."}
	ErrUnauthenticated  = &Error{Kind: Unauthenticated, Code: "unauthenticated", Message: "Unauthenticated."}
	ErrForbidden        = &Error{Kind: Forbidden, Code: "forbidden", Message: "This action is unauthorized."}
	ErrInvalidAbility   = &Error{Kind: Forbidden, Code: "invalid_ability", Message: "Invalid ability provided."}
	ErrBadCredentials   = &Error{Kind: Invalid, Code: "bad_credentials", Message: "Validation failed.", Fields: map[string][]string{"email": {"The provided credentials are incorrect."}}}
	ErrTooManyAttempts  = &Error{Kind: TooManyRequests, Code: "too_many_attempts", Message: "Too Many Attempts."}
	ErrUnavailable      = &Error{Kind: Unavailable, Code: "unavailable", Message: "Service Unavailable"}
	ErrPasswordMismatch = &Error{Kind: Invalid, Code: "password_mismatch", Message: "The password is incorrect."}
)
