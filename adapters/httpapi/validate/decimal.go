package validate

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// decimal is an exact decimal number: digits × 10^exp. Numbers are kept as
// their text's digits rather than as float64 so that 19.99 is 1999 cents
// exactly, 1e400 is a large number rather than +Inf, and 0.1+0.2 problems
// never arise. digits has no leading or trailing zeros and is empty for
// zero, so every value has one representation.
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// expClamp bounds the exponent read from text. Any number with a larger
// exponent is far outside every range checked here, and the bound keeps the
// exponent arithmetic far from overflowing int64.
const expClamp = 1 << 40

// parseDecimal reads a JSON number, or a numeric form string: an optional
// sign, digits with an optional decimal point (at least one digit in all),
// and an optional exponent. Hexadecimal, "Inf", "NaN", digit separators and
// white space are refused.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[start:i]
	fracPart := ""
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		fracPart = s[start:i]
	}
	if intPart == "" && fracPart == "" {
		return decimal{}, false
	}
	var e int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		negExp := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			negExp = s[i] == '-'
			i++
		}
		start = i
		for i < len(s) && isDigit(s[i]) {
			e = min(e*10+int64(s[i]-'0'), expClamp)
			i++
		}
		if start == i {
			return decimal{}, false
		}
		if negExp {
			e = -e
		}
	}
	if i != len(s) {
		return decimal{}, false
	}
	digits := strings.TrimLeft(intPart+fracPart, "0")
	exp := e - int64(len(fracPart))
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	if trimmed == "" {
		return decimal{}, true
	}
	d.digits, d.exp = trimmed, exp
	return d, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isZero reports whether d is zero (of either sign in the text).
func (d decimal) isZero() bool { return d.digits == "" }

// decimals is the number of digits after the decimal point that d needs.
func (d decimal) decimals() int64 {
	if d.exp >= 0 {
		return 0
	}
	return -d.exp
}

// scaled returns d × 10^shift as an int64, and false when that is not a
// whole number or does not fit.
func (d decimal) scaled(shift int64) (int64, bool) {
	if d.isZero() {
		return 0, true
	}
	exp := d.exp + shift
	if exp < 0 || int64(len(d.digits))+exp > 19 {
		return 0, false
	}
	text := d.digits + strings.Repeat("0", int(exp))
	if d.neg {
		text = "-" + text
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// magnitude is the position of d's leading digit: 1 for 1..9, 2 for
// 10..99, 0 for 0.1..0.9.
func (d decimal) magnitude() int64 { return int64(len(d.digits)) + d.exp }

// cmpAbs compares the absolute values of a and b: -1, 0 or +1.
func cmpAbs(a, b decimal) int {
	switch {
	case a.isZero() && b.isZero():
		return 0
	case a.isZero():
		return -1
	case b.isZero():
		return 1
	}
	if ma, mb := a.magnitude(), b.magnitude(); ma != mb {
		if ma < mb {
			return -1
		}
		return 1
	}
	// Same leading position: the digit strings line up, and the longer one
	// has more non-zero digits after the shorter one ends.
	n := min(len(a.digits), len(b.digits))
	if c := strings.Compare(a.digits[:n], b.digits[:n]); c != 0 {
		return c
	}
	switch {
	case len(a.digits) < len(b.digits):
		return -1
	case len(a.digits) > len(b.digits):
		return 1
	}
	return 0
}

// decimalOf returns n as a decimal.
func decimalOf(n int64) decimal {
	d, _ := parseDecimal(strconv.FormatInt(n, 10))
	return d
}

// numberOf reads a JSON value that should hold a number: a json.Number, a
// float64 or an integer type (from decoders without UseNumber), or a
// string, which is how form bodies and query strings carry numbers. The
// string has already been trimmed.
func numberOf(v any) (decimal, bool) {
	switch v := v.(type) {
	case json.Number:
		return parseDecimal(string(v))
	case string:
		return parseDecimal(v)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return decimal{}, false
		}
		return parseDecimal(strconv.FormatFloat(v, 'g', -1, 64))
	case int:
		return decimalOf(int64(v)), true
	case int64:
		return decimalOf(v), true
	}
	return decimal{}, false
}

// integerOf reads a JSON value that should hold an integer that fits int64.
// A JSON number passes when its value is whole (42, 42.0, 4.2e1), as PHP's
// integer filter accepts a whole float; a string must be written as an
// integer ("42", "-7", "+3"), as that filter requires of strings.
func integerOf(v any) (int64, bool) {
	if s, ok := v.(string); ok {
		if s == "" || strings.ContainsAny(s, ".eE") {
			return 0, false
		}
	}
	d, ok := numberOf(v)
	if !ok {
		return 0, false
	}
	return d.scaled(0)
}
