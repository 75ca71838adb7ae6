package console

import "testing"

func TestNeutralise(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"},
		{"+1+1", "'+1+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"a=1", "a=1"},
	} {
		if got := neutralise(tc.in); got != tc.want {
			t.Errorf("neutralise(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}
