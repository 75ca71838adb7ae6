package validate

import (
	"strings"
	"testing"
)

func TestParseDecimal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want decimal
		ok   bool
	}{
		{"0", decimal{}, true},
		{"-0", decimal{}, true},
		{"000.000", decimal{}, true},
		{"0e99999999999999999999999", decimal{}, true},
		{"1", decimal{digits: "1"}, true},
		{"100", decimal{digits: "1", exp: 2}, true},
		{"19.99", decimal{digits: "1999", exp: -2}, true},
		{"19.990", decimal{digits: "1999", exp: -2}, true},
		{"-0.05", decimal{neg: true, digits: "5", exp: -2}, true},
		{"+7", decimal{digits: "7"}, true},
		{"1.5e1", decimal{digits: "15"}, true},
		{"1.5E+1", decimal{digits: "15"}, true},
		{"15e-1", decimal{digits: "15", exp: -1}, true},
		{"1e400", decimal{digits: "1", exp: 400}, true},
		{"1e-400", decimal{digits: "1", exp: -400}, true},
		{".5", decimal{digits: "5", exp: -1}, true},
		{"5.", decimal{digits: "5"}, true},
		{"1e99999999999999999999", decimal{digits: "1", exp: expClamp}, true},
		{"", decimal{}, false},
		{"-", decimal{}, false},
		{".", decimal{}, false},
		{"e5", decimal{}, false},
		{"1e", decimal{}, false},
		{"1e+", decimal{}, false},
		{"1.2.3", decimal{}, false},
		{"--1", decimal{}, false},
		{" 1", decimal{}, false},
		{"1 ", decimal{}, false},
		{"1_000", decimal{}, false},
		{"0x10", decimal{}, false},
		{"Inf", decimal{}, false},
		{"NaN", decimal{}, false},
		{"١٢", decimal{}, false},
	} {
		got, ok := parseDecimal(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseDecimal(%q): got %+v, %v, want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestScaled(t *testing.T) {
	for _, tc := range []struct {
		in    string
		shift int64
		want  int64
		ok    bool
	}{
		{"19.99", 2, 1999, true},
		{"19.999", 2, 0, false},
		{"0.1", 2, 10, true},
		{"0", 2, 0, true},
		{"42", 0, 42, true},
		{"42.5", 0, 0, false},
		{"9223372036854775807", 0, 9223372036854775807, true},
		{"-9223372036854775808", 0, -9223372036854775808, true},
		{"9223372036854775808", 0, 0, false},
		{"92233720368547758.07", 2, 9223372036854775807, true},
		{"92233720368547758.08", 2, 0, false},
		{"1e400", 0, 0, false},
		{"1" + strings.Repeat("0", 19), 0, 0, false},
	} {
		d, _ := parseDecimal(tc.in)
		got, ok := d.scaled(tc.shift)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q scaled(%d): got %d, %v, want %d, %v", tc.in, tc.shift, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCmpAbs(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"0", "0", 0},
		{"0", "0.01", -1},
		{"0.01", "0", 1},
		{"1000", "1000", 0},
		{"1000.00", "1e3", 0},
		{"1000.01", "1000", 1},
		{"999.99", "1000", -1},
		{"1e400", "92233720368547758", 1},
		{"0.5", "1", -1},
		{"12", "1.9", 1},
		{"19", "20", -1},
		{"-5", "5", 0},
		{"1e-400", "1e-401", 1},
	} {
		a, _ := parseDecimal(tc.a)
		b, _ := parseDecimal(tc.b)
		if got := cmpAbs(a, b); got != tc.want {
			t.Errorf("cmpAbs(%s, %s): got %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
