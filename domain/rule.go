package domain

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rule names a rule that a value broke, spelled as Laravel spells rules: the
// rule's name, then, after a colon, its parameters separated by commas
// ("required", "max:255", "in:draft,published"). A rule is a code, not a
// sentence: each HTTP area words it in its own table, so the domain says
// what is wrong and never how to say it.
//
// The names are Laravel's where Laravel has the rule. Size rules name what
// they count, because a message must say it and the rule alone does not:
// min and max count the characters (runes) of a string, min_value and
// max_value bound a number, min_items and max_items bound a list, max_bytes
// bounds a string's UTF-8 bytes and max_kilobytes a file.
type Rule string

// Rules without parameters.
const (
	RuleRequired        Rule = "required"         // absent, null or blank
	RuleString          Rule = "string"           // not a string
	RuleInteger         Rule = "integer"          // not a whole number
	RuleNumeric         Rule = "numeric"          // not a number
	RuleBoolean         Rule = "boolean"          // not true or false
	RuleArray           Rule = "array"            // not a list
	RuleObject          Rule = "object"           // not an object
	RuleNoNullBytes     Rule = "no_null_bytes"    // a string holding a NUL byte
	RuleUTF8            Rule = "utf8"             // a string that is not valid UTF-8
	RuleNoControlChars  Rule = "no_control_chars" // a string holding a control character other than NUL
	RuleEmail           Rule = "email"            // not an e-mail address
	RuleConfirmed       Rule = "confirmed"        // differs from its _confirmation field
	RuleUnique          Rule = "unique"           // another record holds the value
	RuleExists          Rule = "exists"           // names no record
	RuleCurrentPassword Rule = "current_password" // not the user's password
	RuleCredentials     Rule = "credentials"      // no account with this e-mail and password
	RuleResetToken      Rule = "reset_token"      // a password reset token that is wrong, used, expired or another account's
	RuleImage           Rule = "image"            // a file that is not an image
	RuleDimensions      Rule = "dimensions"       // an image too wide or too high
	RulePublicURL       Rule = "public_url"       // not an http(s) URL the service may call
)

// Rule names with parameters, for RuleOf and for matching Rule.Name.
const (
	RuleMin          = "min"
	RuleMax          = "max"
	RuleMinValue     = "min_value"
	RuleMaxValue     = "max_value"
	RuleMinItems     = "min_items"
	RuleMaxItems     = "max_items"
	RuleMaxBytes     = "max_bytes"
	RuleMaxKilobytes = "max_kilobytes"
	RuleIn           = "in"
	RuleMimes        = "mimes"
	RuleDecimal      = "decimal"
	RuleMaxWebhooks  = "max_webhooks" // a user holds as many webhooks as allowed
)

// RuleOf builds the rule name with params: RuleOf(RuleMax, "255") is
// "max:255".
func RuleOf(name string, params ...string) Rule {
	if len(params) == 0 {
		return Rule(name)
	}
	return Rule(name + ":" + strings.Join(params, ","))
}

// RuleN builds a rule with one integer parameter: RuleN(RuleMax, 255) is
// "max:255".
func RuleN(name string, n int64) Rule {
	return RuleOf(name, strconv.FormatInt(n, 10))
}

// Name is the rule without its parameters.
func (r Rule) Name() string {
	name, _, _ := strings.Cut(string(r), ":")
	return name
}

// Params are the rule's parameters, nil when it has none.
func (r Rule) Params() []string {
	_, params, ok := strings.Cut(string(r), ":")
	if !ok {
		return nil
	}
	return strings.Split(params, ",")
}

// Violation is one rule that one field broke. Field is the key a request
// would carry the value under; elements of lists and members of objects are
// dotted ("tags.0", "address.city").
type Violation struct {
	Field string
	Rule  Rule
}

// checkText returns what a required text of at most limit characters
// breaks: nothing, "required" alone when it is blank (Laravel's required
// rule stops a field's other rules), or the max rule.
func checkText(s string, limit int) []Rule {
	if strings.TrimSpace(s) == "" {
		return []Rule{RuleRequired}
	}
	return checkLength(s, limit)
}

// checkLength returns what an optional text of at most limit characters
// breaks: a NUL byte or bytes that are not UTF-8, which no store keeps as
// sent (PostgreSQL refuses them with an error of its own), and the max
// rule. The API's decoding refuses both before a use case runs; this
// holds every other transport (the console's forms) to the same.
func checkLength(s string, limit int) []Rule {
	return append(checkEncoding(s), checkMax(s, limit)...)
}

// checkEncoding returns what text s breaks before any store may keep it:
// a NUL byte (no_null_bytes), bytes that are not UTF-8 (utf8).
func checkEncoding(s string) []Rule {
	var rules []Rule
	if strings.IndexByte(s, 0) >= 0 {
		rules = append(rules, RuleNoNullBytes)
	}
	if !utf8.ValidString(s) {
		rules = append(rules, RuleUTF8)
	}
	return rules
}

// checkMax returns the max rule when s has more than limit characters.
func checkMax(s string, limit int) []Rule {
	if utf8.RuneCountInString(s) > limit {
		return []Rule{RuleN(RuleMax, int64(limit))}
	}
	return nil
}

// checkRange returns what a number from lo to hi breaks: nothing, the
// min_value rule or the max_value rule.
func checkRange(n, lo, hi int64) []Rule {
	switch {
	case n < lo:
		return []Rule{RuleN(RuleMinValue, lo)}
	case n > hi:
		return []Rule{RuleN(RuleMaxValue, hi)}
	}
	return nil
}

// Violations collects the rules that fields broke, field by field in the
// order they were checked, so that one error reports every broken field. A
// use case that changes only some fields of an entity checks those with it.
type Violations []Violation

// Add records that field broke rules, after what is recorded already.
func (vs *Violations) Add(field string, rules []Rule) {
	for _, r := range rules {
		*vs = append(*vs, Violation{Field: field, Rule: r})
	}
}

// Err returns the collected violations as one Invalid error, or nil.
func (vs Violations) Err() error {
	if len(vs) == 0 {
		return nil
	}
	return InvalidFields(vs...)
}

// MaxPageSize bounds how many items one page of area A's lists holds, so
// that no caller makes one read return a whole table.
const MaxPageSize = 100

// CheckPageSize returns what a page of size items breaks: at least one, at
// most MaxPageSize, named as the request field per_page. A transport may
// cap a larger size before asking, as the HTTP API does.
func CheckPageSize(size int) error {
	if rules := checkRange(int64(size), 1, MaxPageSize); rules != nil {
		return InvalidField("per_page", rules...)
	}
	return nil
}

// MaxSearchLength bounds, in characters, a search term or any other text a
// list's query carries to a store.
const MaxSearchLength = 255

// CheckSearch returns what a search term, or any other text of a list's
// query, breaks before it may reach a store: a NUL byte (no_null_bytes),
// bytes that are not UTF-8 (utf8), another control character
// (no_control_chars: C0, DEL or C1), or more than MaxSearchLength
// characters (max:255). PostgreSQL refuses NUL and invalid UTF-8 in text
// with an error of its own, SQLite cuts a string at NUL, and a control
// character in a term matches nothing a person typed; every transport's
// list asks this, the use case again before it reads.
func CheckSearch(s string) []Rule {
	rules := checkEncoding(s)
	if strings.ContainsFunc(s, func(r rune) bool { return r != 0 && unicode.IsControl(r) }) {
		rules = append(rules, RuleNoControlChars)
	}
	return append(rules, checkMax(s, MaxSearchLength)...)
}
