package domain

import (
	"reflect"
	"strings"
	"testing"
)

func TestCheckSearch(t *testing.T) {
	for _, tc := range []struct {
		term string
		want []Rule
	}{
		{"", nil},
		{"Café Olé", nil},
		{"100%_", nil},
		{"\u202eevil", nil},
		{strings.Repeat("é", MaxSearchLength), nil},
		{"a\x00b", []Rule{RuleNoNullBytes}},
		{"\xff\xfe", []Rule{RuleUTF8}},
		{"\xc0\xaf", []Rule{RuleUTF8}},
		{"a\tb", []Rule{RuleNoControlChars}},
		{"a\x1bb\x7f", []Rule{RuleNoControlChars}},
		{"a\u0085b", []Rule{RuleNoControlChars}},
		{"\x00\xff\x01", []Rule{RuleNoNullBytes, RuleUTF8, RuleNoControlChars}},
		{strings.Repeat("q", MaxSearchLength+1), []Rule{"max:255"}},
	} {
		if got := CheckSearch(tc.term); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("CheckSearch(%q): got %v, want %v", tc.term, got, tc.want)
		}
	}
}
