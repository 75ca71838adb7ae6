package qs

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// utf8Text converts a raw body to text the way Node's utf-8 decoder does:
// a leading byte order mark is dropped, and every maximal ill-formed
// subsequence becomes one U+FFFD (the WHATWG rule, which differs from Go's
// one-replacement-per-byte conversion).
func utf8Text(body []byte) string {
	s := strings.TrimPrefix(string(body), "\uFEFF")
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		need := 0
		lower, upper := byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c >= 0xE0 && c <= 0xEF:
			need = 2
			if c == 0xE0 {
				lower = 0xA0
			} else if c == 0xED {
				upper = 0x9F
			}
		case c >= 0xF0 && c <= 0xF4:
			need = 3
			if c == 0xF0 {
				lower = 0x90
			} else if c == 0xF4 {
				upper = 0x8F
			}
		default:
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		j := i + 1
		got := 0
		for got < need && j < len(s) && s[j] >= lower && s[j] <= upper {
			lower, upper = 0x80, 0xBF
			j++
			got++
		}
		if got == need {
			b.WriteString(s[i:j])
		} else {
			// The offending byte (if any) starts the next sequence.
			b.WriteRune(utf8.RuneError)
		}
		i = j
	}
	return b.String()
}

// latin1Text converts an iso-8859-1 body to text: every byte is the code
// point of the same value.
func latin1Text(body []byte) string {
	ascii := true
	for _, c := range body {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return string(body)
	}
	var b strings.Builder
	b.Grow(len(body) * 2)
	for _, c := range body {
		b.WriteRune(rune(c))
	}
	return b.String()
}

// replaceBrackets turns percent-encoded brackets (%5B, %5D, any case) into
// literal ones before the body is split, as qs does. It runs over the whole
// body, values included, which matters when a value is malformed: "%%5B"
// becomes "%[" and is then kept verbatim instead of as "%%5B".
func replaceBrackets(s string) string {
	if !strings.Contains(s, "%5") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && s[i+1] == '5' {
			switch s[i+2] {
			case 'b', 'B':
				b.WriteByte('[')
				i += 2
				continue
			case 'd', 'D':
				b.WriteByte(']')
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// decodeComponent is qs's default decoder: '+' means space, then the text is
// percent-decoded. In utf-8 mode this is JavaScript's decodeURIComponent,
// and if that rejects the text (a stray '%', a bad hex digit, or escapes that
// are not well-formed UTF-8) the text is kept as it is, with only the '+'
// replaced. In iso-8859-1 mode every well-formed %XX becomes the code point
// XX and anything else is left alone.
func decodeComponent(s string, latin1 bool) string {
	if strings.IndexByte(s, '+') >= 0 {
		s = strings.ReplaceAll(s, "+", " ")
	}
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	if latin1 {
		return unescapeLatin1(s)
	}
	if d, ok := decodeURIComponent(s); ok {
		return d
	}
	return s
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// hexAt decodes the escape "%XX" starting at s[i], if there is one.
func hexAt(s string, i int) (byte, bool) {
	if i+2 >= len(s) || s[i] != '%' {
		return 0, false
	}
	hi, ok1 := unhex(s[i+1])
	lo, ok2 := unhex(s[i+2])
	return hi<<4 | lo, ok1 && ok2
}

// decodeURIComponent follows ECMAScript's Decode with an empty reserved set:
// escapes must form complete, shortest-form UTF-8 sequences of scalar values
// (no surrogates, nothing above U+10FFFF), otherwise the whole call fails.
func decodeURIComponent(s string) (string, bool) {
	i := strings.IndexByte(s, '%')
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	var seq [utf8.UTFMax]byte
	for i < len(s) {
		if s[i] != '%' {
			b.WriteByte(s[i])
			i++
			continue
		}
		c, ok := hexAt(s, i)
		if !ok {
			return "", false
		}
		i += 3
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			continue
		}
		var n int
		switch {
		case c&0xE0 == 0xC0:
			n = 2
		case c&0xF0 == 0xE0:
			n = 3
		case c&0xF8 == 0xF0:
			n = 4
		default:
			return "", false
		}
		seq[0] = c
		for k := 1; k < n; k++ {
			cc, ok := hexAt(s, i)
			if !ok || cc&0xC0 != 0x80 {
				return "", false
			}
			seq[k] = cc
			i += 3
		}
		if _, size := utf8.DecodeRune(seq[:n]); size != n {
			return "", false
		}
		b.Write(seq[:n])
	}
	return b.String(), true
}

// unescapeLatin1 replaces every %XX with the code point XX, which is what qs
// does with JavaScript's unescape in iso-8859-1 mode.
func unescapeLatin1(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if c, ok := hexAt(s, i); ok {
			b.WriteRune(rune(c))
			i += 3
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// jsNumber formats a number as JavaScript's String(number) does, which is how
// numeric property keys are spelled.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	case math.Abs(f) < 1e21 && math.Abs(f) >= 1e-6:
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	// Go pads the exponent to two digits, JavaScript does not.
	if m, e, ok := strings.Cut(s, "e"); ok && len(e) == 3 && e[1] == '0' {
		s = m + "e" + e[:1] + e[2:]
	}
	return s
}

// jsIndex reports whether key is the canonical spelling of a non-negative
// integer, i.e. whether String(parseInt(key, 10)) === key holds in
// JavaScript, and returns that integer. Spellings of integers beyond 2^53
// only qualify when they survive the round trip through a double.
func jsIndex(key string) (float64, bool) {
	if key == "" || len(key) > 21 || (key[0] == '0' && len(key) > 1) {
		return 0, false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return 0, false
		}
	}
	if len(key) <= 15 {
		n, _ := strconv.ParseInt(key, 10, 64)
		return float64(n), true
	}
	f, err := strconv.ParseFloat(key, 64)
	if err != nil || jsNumber(f) != key {
		return 0, false
	}
	return f, true
}

// jsParseInt is JavaScript's parseInt(s, 10): optional leading white space
// and sign, then the longest run of decimal digits; NaN when there is none.
func jsParseInt(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == 0 {
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(s[:end], 64)
	if neg {
		f = -f
	}
	return f
}
