package domain

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxEmailLength bounds an e-mail address, in characters, wherever one is
// kept: accounts and area B's user records alike.
const MaxEmailLength = 255

// CheckEmail returns the rules an e-mail address breaks: required, an
// address IsEmail accepts, and at most MaxEmailLength characters. An
// address too long for IsEmail breaks both of the last two.
func CheckEmail(email string) []Rule {
	if strings.TrimSpace(email) == "" {
		return []Rule{RuleRequired}
	}
	var rules []Rule
	if !IsEmail(email) {
		rules = append(rules, RuleEmail)
	}
	if utf8.RuneCountInString(email) > MaxEmailLength {
		rules = append(rules, RuleN(RuleMax, MaxEmailLength))
	}
	return rules
}

// IsEmail reports whether s is an address a person can receive mail at.
//
// It accepts local@domain where:
//   - the whole address is valid UTF-8 of at most 254 bytes, the longest
//     path SMTP carries (RFC 5321);
//   - there is exactly one @;
//   - the local part is 1 to 64 bytes of dot-separated atoms (no leading,
//     trailing or doubled dot), each made of ASCII letters and digits, the
//     RFC 5322 atext symbols !#$%&'*+-/=?^_`{|}~, and any printable
//     non-ASCII character (RFC 6531), as Laravel's default RFC validation
//     accepts "josé@example.com";
//   - the domain is at most 253 bytes of at least two dot-separated labels of
//     1 to 63 bytes, each made of letters and digits (any script, so that
//     internationalized names pass) and inner hyphens, and the last label is
//     not all digits.
//
// It refuses, unlike Laravel's RFC validation, quoted local parts
// ("a b"@x.com), comments, IP address literals (a@[127.0.0.1]) and
// single-label domains (a@localhost): users who type those into a sign-up
// form have almost always made a mistake, and the service sends no mail to
// them.
func IsEmail(s string) bool {
	if len(s) > 254 || !utf8.ValidString(s) {
		return false
	}
	at := strings.IndexByte(s, '@')
	if at < 0 || at != strings.LastIndexByte(s, '@') {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) == 0 || len(local) > 64 || len(domain) > 253 {
		return false
	}
	for atom := range strings.SplitSeq(local, ".") {
		if atom == "" || strings.IndexFunc(atom, notAtext) >= 0 {
			return false
		}
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, label := range labels {
		if !isLabel(label) {
			return false
		}
	}
	tld := labels[len(labels)-1]
	return strings.IndexFunc(tld, func(r rune) bool { return !('0' <= r && r <= '9') }) >= 0
}

// notAtext reports whether r may not appear in an atom of a local part.
func notAtext(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return !(isASCIIAlnum(r) || strings.ContainsRune("!#$%&'*+-/=?^_`{|}~", r))
	default:
		return !unicode.IsPrint(r)
	}
}

// isLabel reports whether s is one label of a host name.
func isLabel(s string) bool {
	if s == "" || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, r := range s {
		ok := r == '-' || isASCIIAlnum(r) ||
			(r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)))
		if !ok {
			return false
		}
	}
	return true
}

func isASCIIAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}
