package crud

import (
	"strings"
	"testing"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func TestPlainMessages(t *testing.T) {
	for _, tc := range []struct {
		field string
		rule  domain.Rule
		want  string
	}{
		{"name", domain.RuleRequired, "name is required"},
		{"name", domain.RuleString, "name must be a string"},
		{"name", domain.RuleN(domain.RuleMax, 255), "name must be at most 255 characters"},
		{"name", domain.RuleN(domain.RuleMin, 2), "name must be at least 2 characters"},
		{"name", domain.RuleN(domain.RuleMaxBytes, 9), "name must be at most 9 bytes"},
		{"name", domain.RuleNoNullBytes, "name must not contain null bytes"},
		{"name", domain.RuleUTF8, "name must be valid UTF-8"},
		{"q", domain.RuleNoControlChars, "q must not contain control characters"},
		{"email", domain.RuleEmail, "email must be a valid email address"},
		{"email", domain.RuleConfirmed, "email confirmation does not match"},
		{"age", domain.RuleInteger, "age must be an integer"},
		{"age", domain.RuleN(domain.RuleMinValue, 0), "age must be at least 0"},
		{"age", domain.RuleN(domain.RuleMaxValue, 150), "age must be at most 150"},
		{"price", domain.RuleNumeric, "price must be a number"},
		{"price", domain.RuleOf(domain.RuleDecimal, "0", "2"), "price must have at most two decimals"},
		{"active", domain.RuleBoolean, "active must be a boolean"},
		{"address", domain.RuleObject, "address must be an object"},
		{"tags", domain.RuleArray, "tags must be an array"},
		{"tags", domain.RuleN(domain.RuleMinItems, 1), "tags must have at least 1 items"},
		{"tags", domain.RuleN(domain.RuleMaxItems, 1), "tags must have at most 1 items"},
		{"tags.0", domain.RuleExists, "tags.0 is invalid"},
		{"f", domain.RuleOf(domain.RuleIn, "x", "y"), "f must be one of x, y"},
		{"sort", domain.RuleOf(ruleSortFields, ports.PersonFields...), "sort must list fields among " + strings.Join(ports.PersonFields, ", ")},
		{"f", "unheard_of", "f is invalid"},
	} {
		if got := plainMessage(domain.Violation{Field: tc.field, Rule: tc.rule}); got != tc.want {
			t.Errorf("%s %s: got %q, want %q", tc.field, tc.rule, got, tc.want)
		}
	}
}

func TestInvalidMessage(t *testing.T) {
	for _, tc := range []struct {
		err  *domain.Error
		want string
	}{
		{domain.InvalidFields(domain.Violation{Field: "name", Rule: domain.RuleRequired}, domain.Violation{Field: "email", Rule: domain.RuleEmail}), "name is required"},
		{errMalformedJSON, "Malformed JSON body."},
		{errNotAnObject, "Request body must be a JSON object."},
		{errUnsupportedContent, "Unsupported content type."},
		{&domain.Error{Kind: domain.Invalid, Code: "anything"}, "Bad Request"},
	} {
		if got := invalidMessage(tc.err); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.err, got, tc.want)
		}
	}
}
