// Package qs decodes application/x-www-form-urlencoded bodies with nested
// keys into the same structure Express 5 produces for req.body.
//
// Express 5 parses such bodies with body-parser's extended urlencoded parser,
// which hands the text to the qs library with these options: depth 32,
// strictDepth, allowPrototypes, parameterLimit 1000 and an arrayLimit of
// max(100, number of parameters). Clients written against that server rely on
// its exact behaviour (bracket and index notation, sparse indices being
// compacted, large indices turning arrays into objects, duplicate keys
// combining into arrays, lenient percent-decoding), so this package
// reproduces qs's algorithm step by step rather than approximating it.
//
// Decoded values are always one of three types: string, []any or
// map[string]any. The top level is always a map.
package qs

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Limits applied by Express 5's extended urlencoded parser.
const (
	// MaxDepth is the number of bracket groups a key may have below its
	// parent; one more is rejected with ErrTooDeep.
	MaxDepth = 32
	// ParameterLimit is the largest number of '&'-separated parameters a
	// body may contain; one more is rejected with ErrTooManyParameters.
	ParameterLimit = 1000
	// minArrayLimit is the floor of the array limit; the limit grows with
	// the parameter count so that a body can always list every parameter
	// as an array element.
	minArrayLimit = 100
)

// ErrTooDeep means a key has more than MaxDepth bracket groups. Express
// answers such a body with 400 Bad Request ("The input exceeded the depth").
var ErrTooDeep = errors.New("qs: the input exceeded the depth")

// ErrTooManyParameters means the body has more than ParameterLimit
// parameters. Express answers such a body with 413 Payload Too Large
// ("too many parameters").
var ErrTooManyParameters = errors.New("qs: too many parameters")

// ErrUnsupportedCharset means the Content-Type names a charset other than
// utf-8 or iso-8859-1. Express answers such a request with 415 Unsupported
// Media Type ("unsupported charset").
var ErrUnsupportedCharset = errors.New("qs: unsupported charset")

// Status returns the HTTP status Express answers with for an error returned
// by Parse or ParseCharset: 400 for ErrTooDeep, 413 for
// ErrTooManyParameters and 415 for ErrUnsupportedCharset. A nil error maps to
// 200, and any other error to 500 because it cannot stem from the body.
func Status(err error) int {
	switch {
	case err == nil:
		return http.StatusOK
	case errors.Is(err, ErrTooDeep):
		return http.StatusBadRequest
	case errors.Is(err, ErrTooManyParameters):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrUnsupportedCharset):
		return http.StatusUnsupportedMediaType
	default:
		return http.StatusInternalServerError
	}
}

// Parse decodes a UTF-8 urlencoded body as Express 5 does. It is
// ParseCharset with the default charset.
func Parse(body []byte) (map[string]any, error) {
	return ParseCharset(body, "")
}

// ParseCharset decodes a urlencoded body whose Content-Type carries the given
// charset parameter; an empty charset means utf-8, as in Express. Only utf-8
// and iso-8859-1 are accepted (compared case-insensitively, without aliases),
// anything else yields ErrUnsupportedCharset.
//
// The raw bytes are first turned into text the way body-parser does: utf-8
// bodies lose a leading byte order mark and have invalid sequences replaced
// by U+FFFD, iso-8859-1 bodies map each byte to the code point of the same
// value. The text is then parsed with qs's algorithm.
func ParseCharset(body []byte, charset string) (map[string]any, error) {
	var latin1 bool
	switch strings.ToLower(charset) {
	case "", "utf-8":
	case "iso-8859-1":
		latin1 = true
	default:
		return nil, fmt.Errorf("%w %q", ErrUnsupportedCharset, strings.ToUpper(charset))
	}
	var text string
	if latin1 {
		text = latin1Text(body)
	} else {
		text = utf8Text(body)
	}
	return parseText(text, latin1)
}
