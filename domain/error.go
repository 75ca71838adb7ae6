// Package domain holds Inkwell's entities, the rules they enforce and the one
// error type every layer speaks. It imports the standard library only.
package domain

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Kind classifies an Error so that each HTTP area can map it to a status in one
// table. The zero value is Internal: an error nobody classified is a fault.
type Kind int

const (
	Internal           Kind = iota // a fault; details stay in the log
	Invalid                        // the input breaks a rule; Fields says which
	Unauthenticated                // no, bad, expired or revoked credentials
	Forbidden                      // authenticated, but not allowed
	NotFound                       // the record does not exist (or is not visible)
	Conflict                       // a uniqueness rule would break
	TooManyRequests                // a rate limit was reached
	Unavailable                    // a dependency (the store) is down
	PreconditionFailed             // the resource changed since the caller read it
)

var kindNames = [...]string{"internal", "invalid", "unauthenticated", "forbidden", "not found", "conflict", "too many requests", "unavailable", "precondition failed"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is the error type of the domain. Kind classifies it and Code is its
// stable, machine-readable identity ("email_taken"); neither is a sentence,
// because wording is the business of each HTTP area, which keeps a table of
// its own. Fields lists the rules a validation failure broke, field by field
// in the order they were checked, so that an area which shows only the
// first failure shows the one checked first.
type Error struct {
	Kind   Kind
	Code   string
	Fields []Violation
	// RetryAfter tells a TooManyRequests caller when to try again.
	RetryAfter time.Duration
}

// Error describes e for logs: its kind, its code and its broken rules.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind.String() + ": " + e.Code)
	for _, v := range e.Fields {
		fmt.Fprintf(&b, "; %s: %s", v.Field, v.Rule)
	}
	return b.String()
}

// Rules returns the rules field broke, in the order they were checked.
func (e *Error) Rules(field string) []Rule {
	var rules []Rule
	for _, v := range e.Fields {
		if v.Field == field {
			rules = append(rules, v.Rule)
		}
	}
	return rules
}

// Is makes errors.Is match two domain errors by Kind and Code, so a sentinel
// matches a copy that carries different fields or a different retry time.
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

// CodeInvalid is the Code of a validation failure that no sentinel names.
const CodeInvalid = "invalid"

// InvalidField builds a validation error of one field that broke rules.
func InvalidField(field string, rules ...Rule) *Error {
	vs := make([]Violation, len(rules))
	for i, r := range rules {
		vs[i] = Violation{Field: field, Rule: r}
	}
	return InvalidFields(vs...)
}

// InvalidFields builds a validation error of the violations, in their order.
func InvalidFields(vs ...Violation) *Error {
	return &Error{Kind: Invalid, Code: CodeInvalid, Fields: vs}
}

// Sentinels. Callers wrap them with context (fmt.Errorf("...: %w", err)) and
// match them with errors.Is. A conflict that a field's value caused names
// the field and the unique rule, so that an area reporting uniqueness as a
// validation failure, as Laravel does, knows where.
var (
	ErrNotFound         = &Error{Kind: NotFound, Code: "not_found"}
	ErrConflict         = &Error{Kind: Conflict, Code: "conflict"}
	ErrEmailTaken       = &Error{Kind: Conflict, Code: "email_taken", Fields: []Violation{{"email", RuleUnique}}}
	ErrUnauthenticated  = &Error{Kind: Unauthenticated, Code: "unauthenticated"}
	ErrForbidden        = &Error{Kind: Forbidden, Code: "forbidden"}
	ErrInvalidAbility   = &Error{Kind: Forbidden, Code: "invalid_ability"}
	ErrBadCredentials   = &Error{Kind: Invalid, Code: "bad_credentials", Fields: []Violation{{"email", RuleCredentials}}}
	ErrTooManyAttempts  = &Error{Kind: TooManyRequests, Code: "too_many_attempts"}
	ErrUnavailable      = &Error{Kind: Unavailable, Code: "unavailable"}
	ErrPasswordMismatch = &Error{Kind: Invalid, Code: "password_mismatch", Fields: []Violation{{"current_password", RuleCurrentPassword}}}
	// ErrPreconditionFailed refuses a conditional write (If-Match) to a
	// resource that is no longer at the version the caller read.
	ErrPreconditionFailed = &Error{Kind: PreconditionFailed, Code: "precondition_failed"}
	// ErrAdminExists refuses the making of a first admin once an account
	// has admin rights: the setup link has served its purpose.
	ErrAdminExists = &Error{Kind: Conflict, Code: "admin_exists"}
)
