package crud

import (
	"strings"

	"github.com/inkwell/inkwell/domain"
)

// ruleSortFields is area B's own rule for the v2 list's sort parameter: the
// fields it may list are its parameters.
const ruleSortFields = "sort_fields"

// plainRules words each rule code as an Express validator would: the
// field's key, then the rule, with no final period. As in area A's table,
// :attribute is the key and :params the rule's parameters, joined with ", ".
var plainRules = map[string]string{
	string(domain.RuleRequired):    ":attribute is required",
	string(domain.RuleString):      ":attribute must be a string",
	string(domain.RuleInteger):     ":attribute must be an integer",
	string(domain.RuleNumeric):     ":attribute must be a number",
	string(domain.RuleBoolean):     ":attribute must be a boolean",
	string(domain.RuleObject):      ":attribute must be an object",
	string(domain.RuleArray):       ":attribute must be an array",
	string(domain.RuleNoNullBytes): ":attribute must not contain null bytes",
	string(domain.RuleUTF8):        ":attribute must be valid UTF-8",
	string(domain.RuleEmail):       ":attribute must be a valid email address",
	string(domain.RuleConfirmed):   ":attribute confirmation does not match",
	string(domain.RuleUnique):      ":attribute already exists",
	string(domain.RuleExists):      ":attribute is invalid",
	domain.RuleMin:                 ":attribute must be at least :params characters",
	domain.RuleMax:                 ":attribute must be at most :params characters",
	domain.RuleMaxBytes:            ":attribute must be at most :params bytes",
	domain.RuleMinValue:            ":attribute must be at least :params",
	domain.RuleMaxValue:            ":attribute must be at most :params",
	domain.RuleMinItems:            ":attribute must have at least :params items",
	domain.RuleMaxItems:            ":attribute must have at most :params items",
	domain.RuleDecimal:             ":attribute must have at most two decimals",
	domain.RuleIn:                  ":attribute must be one of :params",
	ruleSortFields:                 ":attribute must list fields among :params",

	// A list's search term holds no control character (domain.CheckSearch).
	string(domain.RuleNoControlChars): ":attribute must not contain control characters",
}

// plainMessage words one violation; a rule missing from the table still
// gets a sentence rather than a code.
func plainMessage(v domain.Violation) string {
	format, ok := plainRules[v.Rule.Name()]
	if !ok {
		format = ":attribute is invalid"
	}
	return strings.NewReplacer(":attribute", v.Field, ":params", strings.Join(v.Rule.Params(), ", ")).Replace(format)
}
