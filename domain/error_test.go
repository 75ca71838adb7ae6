package domain

import (
	"reflect"
	"testing"
)

func TestRuleSyntax(t *testing.T) {
	for _, tc := range []struct {
		rule   Rule
		want   string
		name   string
		params []string
	}{
		{RuleRequired, "required", "required", nil},
		{RuleN(RuleMax, 255), "max:255", "max", []string{"255"}},
		{RuleOf(RuleIn, "draft", "published"), "in:draft,published", "in", []string{"draft", "published"}},
		{RuleOf(RuleDecimal, "0", "2"), "decimal:0,2", "decimal", []string{"0", "2"}},
		{RuleOf("exists"), "exists", "exists", nil},
	} {
		if string(tc.rule) != tc.want || tc.rule.Name() != tc.name || !reflect.DeepEqual(tc.rule.Params(), tc.params) {
			t.Errorf("%q: got name %q, params %q, want %q, %q, %q", tc.rule, tc.rule.Name(), tc.rule.Params(), tc.want, tc.name, tc.params)
		}
	}
}

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  *Error
		want string
	}{
		{ErrNotFound, "not found: not_found"},
		{InvalidFields(Violation{"title", "required"}, Violation{"tags.0", "exists"}), "invalid: invalid; title: required; tags.0: exists"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	if got := ErrEmailTaken.Rules("email"); !reflect.DeepEqual(got, []Rule{RuleUnique}) {
		t.Errorf("ErrEmailTaken.Rules(email): got %v, want [unique]", got)
	}
}
