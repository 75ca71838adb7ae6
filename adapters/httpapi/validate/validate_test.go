package validate_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
)

// decode parses a JSON object the way the HTTP adapter does.
func decode(t *testing.T, text string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var body map[string]any
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("decode %s: %v", text, err)
	}
	return body
}

// fields returns the rules v's error lists for each field, or nil when it
// has none.
func fields(t *testing.T, v *validate.Validator) map[string][]string {
	t.Helper()
	err := v.Err()
	if err == nil {
		return nil
	}
	de, ok := domain.AsError(err)
	if !ok {
		t.Fatalf("Err() = %T, want *domain.Error", err)
	}
	if de.Kind != domain.Invalid {
		t.Errorf("Err().Kind = %v, want invalid", de.Kind)
	}
	return byField(de.Fields)
}

// byField groups violations by field, keeping each field's rules in order.
func byField(vs []domain.Violation) map[string][]string {
	out := map[string][]string{}
	for _, v := range vs {
		out[v.Field] = append(out[v.Field], string(v.Rule))
	}
	return out
}

// deref turns a pointer result into its value, or nil, so that tables can
// compare results of every method alike.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

type fieldCase struct {
	name  string
	body  string
	check func(v *validate.Validator) any
	want  any
	fails map[string][]string
}

func runCases(t *testing.T, cases []fieldCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := validate.New(decode(t, tc.body))
			got := tc.check(v)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("value: got %#v, want %#v", got, tc.want)
			}
			if gotFails := fields(t, v); !reflect.DeepEqual(gotFails, tc.fails) {
				t.Errorf("failures: got %q, want %q", gotFails, tc.fails)
			}
		})
	}
}

func msgs(m ...string) []string { return m }

func TestString(t *testing.T) {
	name := func(rules ...validate.StringRule) func(v *validate.Validator) any {
		return func(v *validate.Validator) any { return v.String("name", rules...) }
	}
	req := name(validate.Required, validate.Max(255))
	opt := name(validate.Max(255))
	nullable := name(validate.Nullable, validate.Max(255))
	e255 := strings.Repeat("é", 255)
	runCases(t, []fieldCase{
		{name: "value", body: `{"name":"Ann"}`, check: req, want: "Ann"},
		{name: "trimmed", body: `{"name":"  Ann \t\n"}`, check: req, want: "Ann"},
		{name: "unicode spaces and zero-width marks trimmed", body: `{"name":"\u00a0\ufeff\u200bAnn\u200e\u3000"}`, check: req, want: "Ann"},
		{name: "inner spaces kept", body: `{"name":" Ann  Lee "}`, check: req, want: "Ann  Lee"},
		{name: "required absent", body: `{}`, check: req, want: "", fails: map[string][]string{"name": msgs("required")}},
		{name: "required null", body: `{"name":null}`, check: req, want: "", fails: map[string][]string{"name": msgs("required")}},
		{name: "required empty", body: `{"name":""}`, check: req, want: "", fails: map[string][]string{"name": msgs("required")}},
		{name: "required blank", body: `{"name":" \t "}`, check: req, want: "", fails: map[string][]string{"name": msgs("required")}},
		{name: "required empty list", body: `{"name":[]}`, check: req, want: "", fails: map[string][]string{"name": msgs("required")}},
		{name: "required empty object", body: `{"name":{}}`, check: req, want: "", fails: map[string][]string{"name": msgs("required")}},
		{name: "required stops other rules", body: `{}`, check: name(validate.Required, validate.Email, validate.Min(3)), want: "", fails: map[string][]string{"name": msgs("required")}},
		{name: "optional absent skipped", body: `{}`, check: opt, want: ""},
		{name: "optional null fails type", body: `{"name":null}`, check: opt, want: "", fails: map[string][]string{"name": msgs("string")}},
		{name: "optional empty fails type", body: `{"name":""}`, check: opt, want: "", fails: map[string][]string{"name": msgs("string")}},
		{name: "nullable null", body: `{"name":null}`, check: nullable, want: ""},
		{name: "nullable empty", body: `{"name":""}`, check: nullable, want: ""},
		{name: "nullable blank", body: `{"name":"   "}`, check: nullable, want: ""},
		{name: "nullable value checked", body: `{"name":"` + e255 + `e"}`, check: nullable, want: "", fails: map[string][]string{"name": msgs("max:255")}},
		{name: "nullable does not excuse required", body: `{"name":null}`, check: name(validate.Required, validate.Nullable), want: "", fails: map[string][]string{"name": msgs("required")}},
		{name: "255 é pass Max(255)", body: `{"name":"` + e255 + `"}`, check: req, want: e255},
		{name: "256 é fail Max(255)", body: `{"name":"` + e255 + `é"}`, check: req, want: "", fails: map[string][]string{"name": msgs("max:255")}},
		{name: "emoji count as one character", body: `{"name":"` + strings.Repeat("😀", 3) + `"}`, check: name(validate.Max(3)), want: "😀😀😀"},
		{name: "Min counts runes", body: `{"name":"ééé"}`, check: name(validate.Min(4)), want: "", fails: map[string][]string{"name": msgs("min:4")}},
		{name: "Min after trimming", body: `{"name":"  ab  "}`, check: name(validate.Min(3)), want: "", fails: map[string][]string{"name": msgs("min:3")}},
		{name: "MaxBytes counts bytes", body: `{"name":"ééé"}`, check: name(validate.MaxBytes(5)), want: "", fails: map[string][]string{"name": msgs("max_bytes:5")}},
		{name: "MaxBytes at the limit", body: `{"name":"éé"}`, check: name(validate.MaxBytes(4)), want: "éé"},
		{name: "NUL byte", body: `{"name":"a\u0000b"}`, check: req, want: "", fails: map[string][]string{"name": msgs("no_null_bytes")}},
		{name: "NUL byte with another failure", body: `{"name":"a\u0000b"}`, check: name(validate.Min(5)), want: "", fails: map[string][]string{"name": msgs("no_null_bytes", "min:5")}},
		{name: "NUL only is not blank", body: `{"name":"\u0000"}`, check: req, want: "", fails: map[string][]string{"name": msgs("no_null_bytes")}},
		{name: "In passes", body: `{"name":"draft"}`, check: name(validate.In("draft", "published")), want: "draft"},
		{name: "In after trimming", body: `{"name":" published "}`, check: name(validate.In("draft", "published")), want: "published"},
		{name: "In is case-sensitive", body: `{"name":"Draft"}`, check: name(validate.In("draft", "published")), want: "", fails: map[string][]string{"name": msgs("in:draft,published")}},
		{name: "key with underscores shown with spaces", body: `{}`, check: func(v *validate.Validator) any { return v.String("current_password", validate.Required) }, want: "", fails: map[string][]string{"current_password": msgs("required")}},
		{name: "rules listed in declared order", body: `{"name":"` + strings.Repeat("x", 300) + `"}`, check: name(validate.Max(255), validate.Email, validate.In("a")), want: "", fails: map[string][]string{"name": msgs("max:255", "email", "in:a")}},
	})
}

func TestStringNoTrimAndConfirmed(t *testing.T) {
	password := func(v *validate.Validator) any {
		return v.String("password", validate.Required, validate.NoTrim, validate.Min(8), validate.MaxBytes(72), validate.Confirmed)
	}
	email := func(v *validate.Validator) any {
		return v.String("email", validate.Required, validate.Confirmed)
	}
	long := strings.Repeat("é", 40) // 40 characters, 80 bytes
	runCases(t, []fieldCase{
		{name: "confirmed", body: `{"password":"secret123","password_confirmation":"secret123"}`, check: password, want: "secret123"},
		{name: "spaces kept", body: `{"password":"  secret123  ","password_confirmation":"  secret123  "}`, check: password, want: "  secret123  "},
		{name: "confirmation compared untrimmed", body: `{"password":" secret123","password_confirmation":"secret123"}`, check: password, want: "", fails: map[string][]string{"password": msgs("confirmed")}},
		{name: "spaces count toward Min", body: `{"password":"  abc   ","password_confirmation":"  abc   "}`, check: password, want: "  abc   "},
		{name: "blank password is missing", body: `{"password":"        ","password_confirmation":"        "}`, check: password, want: "", fails: map[string][]string{"password": msgs("required")}},
		{name: "confirmation missing", body: `{"password":"secret123"}`, check: password, want: "", fails: map[string][]string{"password": msgs("confirmed")}},
		{name: "confirmation not a string", body: `{"password":"12345678","password_confirmation":12345678}`, check: password, want: "", fails: map[string][]string{"password": msgs("confirmed")}},
		{name: "short and unconfirmed", body: `{"password":"short","password_confirmation":"other"}`, check: password, want: "", fails: map[string][]string{"password": msgs("min:8", "confirmed")}},
		{name: "over 72 bytes", body: `{"password":"` + long + `","password_confirmation":"` + long + `"}`, check: password, want: "", fails: map[string][]string{"password": msgs("max_bytes:72")}},
		{name: "trimmed field compares trimmed confirmation", body: `{"email":" a@b.co ","email_confirmation":"a@b.co  "}`, check: email, want: "a@b.co"},
		{name: "required password missing skips confirmation", body: `{"password_confirmation":"x"}`, check: password, want: "", fails: map[string][]string{"password": msgs("required")}},
	})
}

// wrongTypes holds a value of every JSON type, keyed by a readable name.
var wrongTypes = map[string]string{
	"true":          `true`,
	"false":         `false`,
	"zero":          `0`,
	"number":        `42`,
	"fraction":      `1.5`,
	"huge":          `1e400`,
	"list":          `[1,"a"]`,
	"list of lists": `[[]]`,
	"object":        `{"a":"b"}`,
	"nested object": `{"a":{"b":[null]}}`,
}

// TestWrongTypes feeds every JSON type to every kind of field: each must
// fail with the field's type message, and none may panic.
func TestWrongTypes(t *testing.T) {
	type kind struct {
		name   string
		check  func(v *validate.Validator) any
		msg    string
		accept map[string]bool // JSON types the kind accepts
	}
	kinds := []kind{
		{"String", func(v *validate.Validator) any {
			return v.String("f", validate.Required, validate.Max(3), validate.Email, validate.In("x"), validate.Confirmed)
		}, "string", nil},
		{"Int", func(v *validate.Validator) any {
			return deref(v.Int("f", validate.Required, validate.Min(1), validate.Max(100)))
		},
			"integer", map[string]bool{"zero": true, "number": true}},
		{"Cents", func(v *validate.Validator) any { return deref(v.Cents("f", validate.Required, validate.Max(100))) },
			"numeric", map[string]bool{"zero": true, "number": true, "fraction": true, "huge": true}},
		{"Bool", func(v *validate.Validator) any { return deref(v.Bool("f", validate.Required)) },
			"boolean", map[string]bool{"true": true, "false": true, "zero": true}},
		{"Object", func(v *validate.Validator) any {
			o, ok := v.Object("f", validate.Required)
			o.String("a", validate.Required)
			return ok
		}, "object", map[string]bool{"object": true, "nested object": true}},
		{"Strings", func(v *validate.Validator) any { return v.Strings("f", validate.Required, validate.Max(3)) },
			"array", map[string]bool{"list": true, "list of lists": true}},
		{"Ints", func(v *validate.Validator) any { return v.Ints("f", validate.Required, validate.Max(3)) },
			"array", map[string]bool{"list": true, "list of lists": true}},
	}
	for _, k := range kinds {
		for typ, value := range wrongTypes {
			if k.accept[typ] {
				continue
			}
			t.Run(k.name+"/"+typ, func(t *testing.T) {
				v := validate.New(decode(t, `{"f":`+value+`}`))
				k.check(v)
				got := fields(t, v)
				want := map[string][]string{"f": {k.msg}}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("got %q, want %q", got, want)
				}
			})
		}
	}
}

// TestAcceptedTypes covers the other side of TestWrongTypes: the values a
// kind accepts, and how they convert.
func TestAcceptedTypes(t *testing.T) {
	runCases(t, []fieldCase{
		{name: "object with nested values", body: `{"f":{"a":"b","c":{"d":[null]}}}`, check: func(v *validate.Validator) any {
			o, ok := v.Object("f", validate.Required)
			return []any{ok, o.String("a")}
		}, want: []any{true, "b"}},
		{name: "list with a nested list fails per element", body: `{"f":[[]]}`, check: func(v *validate.Validator) any { return v.Strings("f") },
			want: []string(nil), fails: map[string][]string{"f.0": msgs("string")}},
	})
}

func TestInt(t *testing.T) {
	age := func(rules ...validate.IntRule) func(v *validate.Validator) any {
		return func(v *validate.Validator) any { return deref(v.Int("age", rules...)) }
	}
	plain := age(validate.Min(0), validate.Max(150))
	notInt := map[string][]string{"age": msgs("integer")}
	runCases(t, []fieldCase{
		{name: "number", body: `{"age":42}`, check: plain, want: int64(42)},
		{name: "zero", body: `{"age":0}`, check: plain, want: int64(0)},
		{name: "whole fraction", body: `{"age":42.0}`, check: plain, want: int64(42)},
		{name: "exponent", body: `{"age":4.2e1}`, check: plain, want: int64(42)},
		{name: "negative zero", body: `{"age":-0}`, check: plain, want: int64(0)},
		{name: "string", body: `{"age":"42"}`, check: plain, want: int64(42)},
		{name: "string trimmed", body: `{"age":" 42 "}`, check: plain, want: int64(42)},
		{name: "string with plus", body: `{"age":"+42"}`, check: plain, want: int64(42)},
		{name: "string with leading zeros", body: `{"age":"007"}`, check: plain, want: int64(7)},
		{name: "fraction", body: `{"age":42.5}`, check: plain, want: nil, fails: notInt},
		{name: "tiny fraction", body: `{"age":1e-400}`, check: plain, want: nil, fails: notInt},
		{name: "string fraction", body: `{"age":"42.0"}`, check: plain, want: nil, fails: notInt},
		{name: "string exponent", body: `{"age":"4e1"}`, check: plain, want: nil, fails: notInt},
		{name: "string words", body: `{"age":"forty"}`, check: plain, want: nil, fails: notInt},
		{name: "string hex", body: `{"age":"0x2a"}`, check: plain, want: nil, fails: notInt},
		{name: "string inner space", body: `{"age":"4 2"}`, check: plain, want: nil, fails: notInt},
		{name: "string sign only", body: `{"age":"-"}`, check: plain, want: nil, fails: notInt},
		{name: "below Min", body: `{"age":-1}`, check: plain, want: nil, fails: map[string][]string{"age": msgs("min_value:0")}},
		{name: "above Max", body: `{"age":151}`, check: plain, want: nil, fails: map[string][]string{"age": msgs("max_value:150")}},
		{name: "at Max", body: `{"age":150}`, check: plain, want: int64(150)},
		{name: "both bounds listed", body: `{"age":5}`, check: age(validate.Min(10), validate.Max(1)), want: nil, fails: map[string][]string{"age": msgs("min_value:10", "max_value:1")}},
		{name: "largest int64", body: `{"age":9223372036854775807}`, check: age(), want: int64(9223372036854775807)},
		{name: "smallest int64", body: `{"age":-9223372036854775808}`, check: age(), want: int64(-9223372036854775808)},
		{name: "int64 overflow", body: `{"age":9223372036854775808}`, check: age(), want: nil, fails: notInt},
		{name: "int64 underflow", body: `{"age":-9223372036854775809}`, check: age(), want: nil, fails: notInt},
		{name: "20 digits string", body: `{"age":"99999999999999999999"}`, check: plain, want: nil, fails: notInt},
		{name: "1e400", body: `{"age":1e400}`, check: plain, want: nil, fails: notInt},
		{name: "huge exponent", body: `{"age":1e99999999999999999999}`, check: plain, want: nil, fails: notInt},
		{name: "zero with huge exponent", body: `{"age":0e99999999999999999999}`, check: plain, want: int64(0)},
		{name: "absent", body: `{}`, check: plain, want: nil},
		{name: "required absent", body: `{}`, check: age(validate.Required), want: nil, fails: map[string][]string{"age": msgs("required")}},
		{name: "required empty string", body: `{"age":""}`, check: age(validate.Required), want: nil, fails: map[string][]string{"age": msgs("required")}},
		{name: "null", body: `{"age":null}`, check: plain, want: nil, fails: notInt},
		{name: "empty string", body: `{"age":""}`, check: plain, want: nil, fails: notInt},
		{name: "nullable null", body: `{"age":null}`, check: age(validate.Nullable), want: nil},
		{name: "nullable empty string", body: `{"age":""}`, check: age(validate.Nullable), want: nil},
		{name: "bool", body: `{"age":true}`, check: plain, want: nil, fails: notInt},
		{name: "key with underscores", body: `{"per_page":"x"}`, check: func(v *validate.Validator) any { return deref(v.Int("per_page", validate.Min(1))) }, want: nil, fails: map[string][]string{"per_page": msgs("integer")}},
		{name: "per_page below 1", body: `{"per_page":0}`, check: func(v *validate.Validator) any { return deref(v.Int("per_page", validate.Min(1))) }, want: nil, fails: map[string][]string{"per_page": msgs("min_value:1")}},
	})
}

func TestIntFromGoValues(t *testing.T) {
	// Bodies built by hand, or decoded without UseNumber, hold float64 and
	// int values.
	for _, tc := range []struct {
		raw  any
		want any
	}{
		{float64(42), int64(42)},
		{42.5, nil},
		{1e300, nil},
		{int(7), int64(7)},
		{int64(-7), int64(-7)},
		{[]string{"x"}, nil},
		{struct{}{}, nil},
	} {
		v := validate.New(map[string]any{"n": tc.raw})
		if got := deref(v.Int("n")); got != tc.want {
			t.Errorf("Int(%#v): got %#v, want %#v", tc.raw, got, tc.want)
		}
	}
}

func TestCents(t *testing.T) {
	price := func(rules ...validate.CentsRule) func(v *validate.Validator) any {
		return func(v *validate.Validator) any { return deref(v.Cents("price", rules...)) }
	}
	req := price(validate.Required)
	notNumber := map[string][]string{"price": msgs("numeric")}
	decimals := map[string][]string{"price": msgs("decimal:0,2")}
	tooBig := map[string][]string{"price": msgs("max_value:92233720368547758")}
	runCases(t, []fieldCase{
		{name: "two decimals", body: `{"price":19.99}`, check: req, want: int64(1999)},
		{name: "one decimal", body: `{"price":0.1}`, check: req, want: int64(10)},
		{name: "whole", body: `{"price":20}`, check: req, want: int64(2000)},
		{name: "zero", body: `{"price":0}`, check: req, want: int64(0)},
		{name: "negative zero", body: `{"price":-0.00}`, check: req, want: int64(0)},
		{name: "trailing zero", body: `{"price":19.990}`, check: req, want: int64(1999)},
		{name: "exponent", body: `{"price":1.5e1}`, check: req, want: int64(1500)},
		{name: "negative exponent", body: `{"price":1999e-2}`, check: req, want: int64(1999)},
		{name: "float trap", body: `{"price":0.29}`, check: req, want: int64(29)},
		{name: "string", body: `{"price":"19.99"}`, check: req, want: int64(1999)},
		{name: "string trimmed", body: `{"price":" 19.99 "}`, check: req, want: int64(1999)},
		{name: "string leading point", body: `{"price":".5"}`, check: req, want: int64(50)},
		{name: "string trailing point", body: `{"price":"5."}`, check: req, want: int64(500)},
		{name: "three decimals", body: `{"price":19.999}`, check: req, want: nil, fails: decimals},
		{name: "three decimals string", body: `{"price":"19.999"}`, check: req, want: nil, fails: decimals},
		{name: "tiny", body: `{"price":1e-400}`, check: req, want: nil, fails: decimals},
		{name: "negative", body: `{"price":-1}`, check: req, want: nil, fails: map[string][]string{"price": msgs("min_value:0")}},
		{name: "negative with three decimals lists both", body: `{"price":-19.999}`, check: req, want: nil, fails: map[string][]string{"price": msgs("min_value:0", "decimal:0,2")}},
		{name: "1e400", body: `{"price":1e400}`, check: req, want: nil, fails: tooBig},
		{name: "just above the int64 bound", body: `{"price":92233720368547758.01}`, check: req, want: nil, fails: tooBig},
		{name: "at the int64 bound", body: `{"price":92233720368547758}`, check: req, want: int64(9223372036854775800)},
		{name: "Max in whole units", body: `{"price":1000}`, check: price(validate.Max(1000)), want: int64(100000)},
		{name: "above Max", body: `{"price":1000.01}`, check: price(validate.Max(1000)), want: nil, fails: map[string][]string{"price": msgs("max_value:1000")}},
		{name: "above Max with three decimals", body: `{"price":1000.001}`, check: price(validate.Max(1000)), want: nil, fails: map[string][]string{"price": msgs("decimal:0,2", "max_value:1000")}},
		{name: "Max larger than the bound", body: `{"price":1e30}`, check: price(validate.Max(1 << 62)), want: nil, fails: tooBig},
		{name: "words", body: `{"price":"cheap"}`, check: req, want: nil, fails: notNumber},
		{name: "comma", body: `{"price":"19,99"}`, check: req, want: nil, fails: notNumber},
		{name: "Infinity", body: `{"price":"Infinity"}`, check: req, want: nil, fails: notNumber},
		{name: "NaN", body: `{"price":"NaN"}`, check: req, want: nil, fails: notNumber},
		{name: "hex", body: `{"price":"0x10"}`, check: req, want: nil, fails: notNumber},
		{name: "bare exponent", body: `{"price":"1e"}`, check: req, want: nil, fails: notNumber},
		{name: "point only", body: `{"price":"."}`, check: req, want: nil, fails: notNumber},
		{name: "bool", body: `{"price":true}`, check: req, want: nil, fails: notNumber},
		{name: "required absent", body: `{}`, check: req, want: nil, fails: map[string][]string{"price": msgs("required")}},
		{name: "required null", body: `{"price":null}`, check: req, want: nil, fails: map[string][]string{"price": msgs("required")}},
		{name: "optional absent", body: `{}`, check: price(), want: nil},
		{name: "optional null", body: `{"price":null}`, check: price(), want: nil, fails: notNumber},
		{name: "nullable null", body: `{"price":null}`, check: price(validate.Nullable), want: nil},
	})
}

func TestBool(t *testing.T) {
	flag := func(rules ...validate.BoolRule) func(v *validate.Validator) any {
		return func(v *validate.Validator) any { return deref(v.Bool("remove_image", rules...)) }
	}
	notBool := map[string][]string{"remove_image": msgs("boolean")}
	var cases []fieldCase
	for body, want := range map[string]any{
		`true`: true, `false`: false, `1`: true, `0`: false, `1.0`: true,
		`"true"`: true, `"false"`: false, `"1"`: true, `"0"`: false, `"TRUE"`: true, `" False "`: false,
	} {
		cases = append(cases, fieldCase{name: body, body: `{"remove_image":` + body + `}`, check: flag(), want: want})
	}
	for _, body := range []string{`2`, `-1`, `0.5`, `1e400`, `"yes"`, `"on"`, `"2"`, `"t"`, `null`, `""`} {
		cases = append(cases, fieldCase{name: body, body: `{"remove_image":` + body + `}`, check: flag(), want: nil, fails: notBool})
	}
	cases = append(cases,
		fieldCase{name: "absent", body: `{}`, check: flag(), want: nil},
		fieldCase{name: "nullable null", body: `{"remove_image":null}`, check: flag(validate.Nullable), want: nil},
		fieldCase{name: "required absent", body: `{}`, check: flag(validate.Required), want: nil, fails: map[string][]string{"remove_image": msgs("required")}},
		fieldCase{name: "required false is present", body: `{"remove_image":false}`, check: flag(validate.Required), want: false},
	)
	runCases(t, cases)
}

type address struct {
	Given                        bool
	Street, City, Zip, Country   string
	HasCity, FilledCity, HasRoot bool
}

func checkAddress(rules ...validate.ObjectRule) func(v *validate.Validator) any {
	return func(v *validate.Validator) any {
		o, ok := v.Object("address", rules...)
		return address{
			Given:      ok,
			Street:     o.String("street", validate.Max(255)),
			City:       o.String("city", validate.Required, validate.Max(5)),
			Zip:        o.String("zip", validate.Max(10)),
			Country:    o.String("country", validate.Max(255)),
			HasCity:    o.Has("city"),
			FilledCity: o.Filled("city"),
			HasRoot:    o.Has("address"),
		}
	}
}

func TestObject(t *testing.T) {
	runCases(t, []fieldCase{
		{name: "given", body: `{"address":{"street":" Main St ","city":"Oslo","zip":"0150","country":"NO"}}`, check: checkAddress(),
			want: address{Given: true, Street: "Main St", City: "Oslo", Zip: "0150", Country: "NO", HasCity: true, FilledCity: true}},
		{name: "absent skips sub-fields", body: `{}`, check: checkAddress(), want: address{}},
		{name: "null nullable skips sub-fields", body: `{"address":null}`, check: checkAddress(validate.Nullable), want: address{}},
		{name: "null not nullable", body: `{"address":null}`, check: checkAddress(), want: address{},
			fails: map[string][]string{"address": msgs("object")}},
		{name: "required absent", body: `{}`, check: checkAddress(validate.Required), want: address{},
			fails: map[string][]string{"address": msgs("required")}},
		{name: "required empty", body: `{"address":{}}`, check: checkAddress(validate.Required), want: address{},
			fails: map[string][]string{"address": msgs("required")}},
		{name: "empty object checks sub-fields", body: `{"address":{}}`, check: checkAddress(), want: address{Given: true},
			fails: map[string][]string{"address.city": msgs("required")}},
		{name: "string", body: `{"address":"Main St"}`, check: checkAddress(), want: address{},
			fails: map[string][]string{"address": msgs("object")}},
		{name: "list", body: `{"address":["Main St"]}`, check: checkAddress(), want: address{},
			fails: map[string][]string{"address": msgs("object")}},
		{name: "nested failures keyed with the prefix", body: `{"address":{"street":5,"city":"Bergen!","zip":["1"],"country":{"a":1}}}`, check: checkAddress(),
			want: address{Given: true, HasCity: true, FilledCity: true},
			fails: map[string][]string{
				"address.street":  msgs("string"),
				"address.city":    msgs("max:5"),
				"address.zip":     msgs("string"),
				"address.country": msgs("string"),
			}},
		{name: "blank sub-field", body: `{"address":{"city":"  "}}`, check: checkAddress(), want: address{Given: true, HasCity: true},
			fails: map[string][]string{"address.city": msgs("required")}},
		{name: "sub-field of the wrong type", body: `{"address":{"city":7}}`, check: checkAddress(), want: address{Given: true, HasCity: true, FilledCity: true},
			fails: map[string][]string{"address.city": msgs("string")}},
		{name: "a string is not an object", body: `{"address":"x"}`, check: checkAddress(), want: address{},
			fails: map[string][]string{"address": msgs("object")}},
		{name: "nested objects", body: `{"a":{"b":{"c":""}}}`, check: func(v *validate.Validator) any {
			a, _ := v.Object("a")
			b, _ := a.Object("b")
			c := b.String("c", validate.Required)
			b.Fail("d", "custom")
			return c
		}, want: "", fails: map[string][]string{"a.b.c": msgs("required"), "a.b.d": msgs("custom")}},
	})
}

func TestStrings(t *testing.T) {
	abilities := func(rules ...validate.StringsRule) func(v *validate.Validator) any {
		return func(v *validate.Validator) any { return v.Strings("abilities", rules...) }
	}
	runCases(t, []fieldCase{
		{name: "list", body: `{"abilities":["posts:read"," posts:write "]}`, check: abilities(validate.Max(255)), want: []string{"posts:read", "posts:write"}},
		{name: "empty list", body: `{"abilities":[]}`, check: abilities(), want: []string{}},
		{name: "absent", body: `{}`, check: abilities(), want: []string(nil)},
		{name: "required empty list", body: `{"abilities":[]}`, check: abilities(validate.Required), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("required")}},
		{name: "null", body: `{"abilities":null}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("array")}},
		{name: "nullable null", body: `{"abilities":null}`, check: abilities(validate.Nullable), want: []string(nil)},
		{name: "string instead of list", body: `{"abilities":"posts:read"}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("array")}},
		{name: "object instead of list", body: `{"abilities":{"0":"posts:read"}}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("array")}},
		{name: "element types", body: `{"abilities":["ok",1,null,"",true,{},[],"a\u0000"]}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{
				"abilities.1": msgs("string"),
				"abilities.2": msgs("string"),
				"abilities.3": msgs("string"),
				"abilities.4": msgs("string"),
				"abilities.5": msgs("string"),
				"abilities.6": msgs("string"),
				"abilities.7": msgs("no_null_bytes"),
			}},
		{name: "element rules", body: `{"abilities":["posts:read","root","` + strings.Repeat("x", 11) + `"]}`,
			check: abilities(validate.Max(10), validate.In("posts:read", "posts:write")), want: []string(nil),
			fails: map[string][]string{
				"abilities.1": msgs("in:posts:read,posts:write"),
				"abilities.2": msgs("max:10", "in:posts:read,posts:write"),
			}},
		{name: "element NoTrim", body: `{"abilities":[" a "]}`, check: abilities(validate.NoTrim), want: []string{" a "}},
		{name: "item counts", body: `{"abilities":["a","b","c"]}`, check: abilities(validate.MaxItems(2)), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("max_items:2")}},
		{name: "too few items", body: `{"abilities":["a"]}`, check: abilities(validate.MinItems(2)), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("min_items:2")}},
		{name: "item count and elements both listed", body: `{"abilities":[1,2,3]}`, check: abilities(validate.MaxItems(2)), want: []string(nil),
			fails: map[string][]string{
				"abilities":   msgs("max_items:2"),
				"abilities.0": msgs("string"),
				"abilities.1": msgs("string"),
				"abilities.2": msgs("string"),
			}},
		{name: "a number is no string", body: `{"abilities":[1]}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{"abilities.0": msgs("string")}},
	})
}

func TestInts(t *testing.T) {
	tags := func(rules ...validate.IntsRule) func(v *validate.Validator) any {
		return func(v *validate.Validator) any { return v.Ints("tags", rules...) }
	}
	runCases(t, []fieldCase{
		{name: "ids", body: `{"tags":[1,2,3]}`, check: tags(), want: []int64{1, 2, 3}},
		{name: "form strings", body: `{"tags":["1"," 2 "]}`, check: tags(), want: []int64{1, 2}},
		{name: "whole floats", body: `{"tags":[1.0,2e0]}`, check: tags(), want: []int64{1, 2}},
		{name: "empty", body: `{"tags":[]}`, check: tags(), want: []int64{}},
		{name: "absent", body: `{}`, check: tags(), want: []int64(nil)},
		{name: "nullable null", body: `{"tags":null}`, check: tags(validate.Nullable), want: []int64(nil)},
		{name: "null", body: `{"tags":null}`, check: tags(), want: []int64(nil),
			fails: map[string][]string{"tags": msgs("array")}},
		{name: "not a list", body: `{"tags":5}`, check: tags(), want: []int64(nil),
			fails: map[string][]string{"tags": msgs("array")}},
		{name: "comma string", body: `{"tags":"1,2"}`, check: tags(), want: []int64(nil),
			fails: map[string][]string{"tags": msgs("array")}},
		{name: "bad elements", body: `{"tags":[1,"x",1.5,null,"",true,[1],{"a":1},1e400,-9223372036854775809]}`, check: tags(), want: []int64(nil),
			fails: map[string][]string{
				"tags.1": msgs("integer"),
				"tags.2": msgs("integer"),
				"tags.3": msgs("integer"),
				"tags.4": msgs("integer"),
				"tags.5": msgs("integer"),
				"tags.6": msgs("integer"),
				"tags.7": msgs("integer"),
				"tags.8": msgs("integer"),
				"tags.9": msgs("integer"),
			}},
		{name: "element bounds", body: `{"tags":[0,5]}`, check: tags(validate.Min(1), validate.Max(4)), want: []int64(nil),
			fails: map[string][]string{
				"tags.0": msgs("min_value:1"),
				"tags.1": msgs("max_value:4"),
			}},
		{name: "item count", body: `{"tags":[1,2]}`, check: tags(validate.MaxItems(1)), want: []int64(nil),
			fails: map[string][]string{"tags": msgs("max_items:1")}},
		{name: "existence reported by the caller", body: `{"tags":[1,99,98]}`, check: func(v *validate.Validator) any {
			ids := v.Ints("tags")
			for i, id := range ids {
				if id > 10 {
					v.Invalid(validate.Elem("tags", i))
				}
			}
			return ids
		}, want: []int64{1, 99, 98}, fails: map[string][]string{
			"tags.1": msgs("exists"),
			"tags.2": msgs("exists"),
		}},
		{name: "a letter is no integer", body: `{"tags":["a"]}`, check: tags(), want: []int64(nil),
			fails: map[string][]string{"tags.0": msgs("integer")}},
		{name: "a string is not a list", body: `{"tags":"a"}`, check: tags(validate.MinItems(1)), want: []int64(nil),
			fails: map[string][]string{"tags": msgs("array")}},
	})
}

// TestEmail checks that the Email rule is domain.IsEmail, on the untrimmed
// value when NoTrim is given; domain's tests hold the addresses it accepts.
func TestEmail(t *testing.T) {
	for _, tc := range []struct {
		address string
		want    bool
	}{
		{"user@example.com", true},
		{"josé@example.com", true},
		{"user@localhost", false},
		{"user@example.com\n", false},
		{`"user name"@example.com`, false},
	} {
		v := validate.New(map[string]any{"email": tc.address})
		v.String("email", validate.NoTrim, validate.Email)
		failed := slices.Contains(fields(t, v)["email"], "email")
		if got := !failed; got != tc.want || got != domain.IsEmail(tc.address) {
			t.Errorf("Email(%q): got valid=%v, want %v", tc.address, got, tc.want)
		}
	}
}

// TestAllFailuresListed is the register request with everything wrong.
func TestAllFailuresListed(t *testing.T) {
	body := decode(t, `{"name":"`+strings.Repeat("n", 256)+`","email":"`+strings.Repeat("x", 300)+`","password":"short","password_confirmation":"other","status":"archived","tags":[1,"b"]}`)
	v := validate.New(body)
	v.String("name", validate.Required, validate.Max(255))
	v.String("email", validate.Required, validate.Email, validate.Max(255))
	v.String("password", validate.Required, validate.NoTrim, validate.Min(8), validate.MaxBytes(72), validate.Confirmed)
	v.String("status", validate.Required, validate.In("draft", "published"))
	v.Ints("tags")
	v.String("title", validate.Required)
	got := fields(t, v)
	want := map[string][]string{
		"name":     {"max:255"},
		"email":    {"email", "max:255"},
		"password": {"min:8", "confirmed"},
		"status":   {"in:draft,published"},
		"tags.1":   {"integer"},
		"title":    {"required"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if first := v.Err().(*domain.Error).Fields[0]; first != (domain.Violation{Field: "name", Rule: "max:255"}) {
		t.Errorf("first failure: got %v, want name max:255", first)
	}
}

// TestAreaBBodies covers area B's bodies: users and products, from JSON and
// from forms, whose strings are converted.
func TestAreaBBodies(t *testing.T) {
	user := func(v *validate.Validator) any {
		name := v.String("name", validate.Required, validate.Max(255))
		email := v.String("email", validate.Required, validate.Email, validate.Max(255))
		age := v.Int("age", validate.Nullable, validate.Min(0), validate.Max(150))
		addr, given := v.Object("address", validate.Nullable)
		city := addr.String("city", validate.Max(255))
		return fmt.Sprint(name, "|", email, "|", deref(age), "|", given, "|", city)
	}
	product := func(v *validate.Validator) any {
		name := v.String("name", validate.Required, validate.Max(255))
		price := v.Cents("price", validate.Required)
		desc := v.String("description", validate.Nullable, validate.Max(5000))
		stock := v.Int("stock", validate.Nullable, validate.Min(0))
		active := v.Bool("active")
		return fmt.Sprint(name, "|", deref(price), "|", desc, "|", deref(stock), "|", deref(active))
	}
	runCases(t, []fieldCase{
		{name: "user from JSON", body: `{"name":"Ann","email":"ann@example.com","age":30,"address":{"city":"Oslo"}}`, check: user,
			want: "Ann|ann@example.com|30|true|Oslo"},
		{name: "user from a form", body: `{"name":"Ann","email":"ann@example.com","age":"30","address":{"city":"Oslo"}}`, check: user,
			want: "Ann|ann@example.com|30|true|Oslo"},
		{name: "user without optional fields", body: `{"name":"Ann","email":"ann@example.com","age":null,"address":null}`, check: user,
			want: "Ann|ann@example.com|<nil>|false|"},
		{name: "user all wrong", body: `{"name":"","email":"` + strings.Repeat("x", 300) + `","age":"old","address":[]}`, check: user,
			want: "||<nil>|false|", fails: map[string][]string{
				"name":    {"required"},
				"email":   {"email", "max:255"},
				"age":     {"integer"},
				"address": {"object"},
			}},
		{name: "age bounds", body: `{"name":"A","email":"a@b.co","age":151}`, check: user,
			want: "A|a@b.co|<nil>|false|", fails: map[string][]string{"age": {"max_value:150"}}},
		{name: "age negative", body: `{"name":"A","email":"a@b.co","age":"-1"}`, check: user,
			want: "A|a@b.co|<nil>|false|", fails: map[string][]string{"age": {"min_value:0"}}},
		{name: "product from a form", body: `{"name":"Pen","price":"19.99","description":"","stock":"3","active":"true"}`, check: product,
			want: "Pen|1999||3|true"},
		{name: "product from JSON", body: `{"name":"Pen","price":19.99,"stock":0,"active":false}`, check: product,
			want: "Pen|1999||0|false"},
		{name: "product all wrong", body: `{"name":5,"price":"19.999","description":"` + strings.Repeat("d", 5001) + `","stock":1.5,"active":"maybe"}`, check: product,
			want: "|<nil>||<nil>|<nil>", fails: map[string][]string{
				"name":        {"string"},
				"price":       {"decimal:0,2"},
				"description": {"max:5000"},
				"stock":       {"integer"},
				"active":      {"boolean"},
			}},
		{name: "price missing and negative stock", body: `{"name":"Pen","stock":-1}`, check: product,
			want: "Pen|<nil>||<nil>|<nil>", fails: map[string][]string{"price": {"required"}, "stock": {"min_value:0"}}},
		{name: "price wrong", body: `{"name":"Pen","price":"abc"}`, check: product,
			want: "Pen|<nil>||<nil>|<nil>", fails: map[string][]string{"price": {"numeric"}}},
		{name: "price negative and huge", body: `{"name":"Pen","price":-0.001}`, check: product,
			want: "Pen|<nil>||<nil>|<nil>", fails: map[string][]string{"price": {"min_value:0", "decimal:0,2"}}},
		{name: "price 1e400", body: `{"name":"Pen","price":1e400}`, check: product,
			want: "Pen|<nil>||<nil>|<nil>", fails: map[string][]string{"price": {"max_value:92233720368547758"}}},
	})
}

// TestFirstFailure: the first violation is the first rule broken in the
// order the fields were checked, which is what area B's envelope shows.
func TestFirstFailure(t *testing.T) {
	for _, tc := range []struct {
		body string
		want domain.Violation
	}{
		{`{}`, domain.Violation{Field: "name", Rule: "required"}},
		{`{"name":"Ann"}`, domain.Violation{Field: "email", Rule: "required"}},
		{`{"name":"Ann","email":"nope"}`, domain.Violation{Field: "email", Rule: "email"}},
		{`{"name":"Ann","email":"a@b.co","age":"x"}`, domain.Violation{Field: "age", Rule: "integer"}},
		{`{"name":"` + strings.Repeat("é", 256) + `","email":"bad","age":200}`, domain.Violation{Field: "name", Rule: "max:255"}},
	} {
		v := validate.New(decode(t, tc.body))
		v.String("name", validate.Required, validate.Max(255))
		v.String("email", validate.Required, validate.Email)
		v.Int("age", validate.Min(0), validate.Max(150))
		de, _ := domain.AsError(v.Err())
		if de == nil || de.Fields[0] != tc.want {
			t.Errorf("%s: got %v, want first %v", tc.body, de, tc.want)
		}
	}
}

// TestRuleCodes names the rule code every check records.
func TestRuleCodes(t *testing.T) {
	type check func(v *validate.Validator)
	for _, tc := range []struct {
		body  string
		check check
		want  domain.Rule
	}{
		{`{}`, func(v *validate.Validator) { v.String("f", validate.Required) }, "required"},
		{`{"f":1}`, func(v *validate.Validator) { v.String("f") }, "string"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.Min(4)) }, "min:4"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.Max(2)) }, "max:2"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.MaxBytes(2)) }, "max_bytes:2"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.Email) }, "email"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.In("x", "y")) }, "in:x,y"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.Confirmed) }, "confirmed"},
		{`{"f":"a\u0000"}`, func(v *validate.Validator) { v.String("f") }, "no_null_bytes"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Int("f") }, "integer"},
		{`{"f":0}`, func(v *validate.Validator) { v.Int("f", validate.Min(1)) }, "min_value:1"},
		{`{"f":9}`, func(v *validate.Validator) { v.Int("f", validate.Max(8)) }, "max_value:8"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Cents("f") }, "numeric"},
		{`{"f":-1}`, func(v *validate.Validator) { v.Cents("f") }, "min_value:0"},
		{`{"f":0.001}`, func(v *validate.Validator) { v.Cents("f") }, "decimal:0,2"},
		{`{"f":11}`, func(v *validate.Validator) { v.Cents("f", validate.Max(10)) }, "max_value:10"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Bool("f") }, "boolean"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Object("f") }, "object"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Strings("f") }, "array"},
		{`{"f":[]}`, func(v *validate.Validator) { v.Ints("f", validate.MinItems(1)) }, "min_items:1"},
		{`{"f":[1,2]}`, func(v *validate.Validator) { v.Ints("f", validate.MaxItems(1)) }, "max_items:1"},
		{`{}`, func(v *validate.Validator) { v.Invalid("f") }, "exists"},
		{`{"f":"  "}`, func(v *validate.Validator) { v.String("f", validate.Nullable, validate.Check(domain.CheckTitle)) }, ""},
		{`{"f":"` + strings.Repeat("x", 256) + `"}`, func(v *validate.Validator) { v.String("f", validate.Check(domain.CheckTitle)) }, "max:255"},
		{`{"f":"Draft"}`, func(v *validate.Validator) { v.String("f", validate.Check(domain.CheckStatus)) }, "in:draft,published"},
	} {
		v := validate.New(decode(t, tc.body))
		tc.check(v)
		var got domain.Rule
		if de, ok := domain.AsError(v.Err()); ok {
			got = de.Fields[0].Rule
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.body, got, tc.want)
		}
	}
}

// TestCheckRunsInDeclaredOrder: a domain check's rules take their place
// among the field's other rules, after the type checks.
func TestCheckRunsInDeclaredOrder(t *testing.T) {
	v := validate.New(decode(t, `{"title":"`+strings.Repeat("@", 300)+`\u0000"}`))
	v.String("title", validate.Required, validate.Email, validate.Check(domain.CheckTitle), validate.Min(400))
	want := map[string][]string{"title": {"no_null_bytes", "email", "max:255", "min:400"}}
	if got := fields(t, v); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCheckInt(t *testing.T) {
	v := validate.New(decode(t, `{"age":"151","stock":4.0,"ages":[1,-1,"x"],"bad":"1.5","ok":150}`))
	age := v.Int("age", validate.CheckInt(domain.CheckAge))
	stock := v.Int("stock", validate.CheckInt(domain.CheckStock), validate.Max(3))
	ages := v.Ints("ages", validate.CheckInt(domain.CheckAge))
	v.Int("bad", validate.CheckInt(domain.CheckAge))
	ok := v.Int("ok", validate.CheckInt(domain.CheckAge))
	want := map[string][]string{
		"age":    {"max_value:150"},
		"stock":  {"max_value:3"},
		"ages.1": {"min_value:0"},
		"ages.2": {"integer"},
		"bad":    {"integer"},
	}
	if got := fields(t, v); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if age != nil || stock != nil || ages != nil || ok == nil || *ok != 150 {
		t.Errorf("values: got %v %v %v %v, want nil nil nil 150", age, stock, ages, ok)
	}
}

func TestInvalidUTF8(t *testing.T) {
	// Form decoding can yield bytes that are not UTF-8, which JSON decoding
	// never does.
	v := validate.New(map[string]any{"name": "ab\xffc", "tags": []any{"x\xfe"}})
	v.String("name", validate.Max(3))
	v.Strings("tags")
	want := map[string][]string{
		"name":   {"utf8", "max:3"},
		"tags.0": {"utf8"},
	}
	if got := fields(t, v); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHasAndFilled(t *testing.T) {
	body := decode(t, `{"a":null,"b":"","c":"  ","d":"x","e":0,"f":false,"g":[],"h":{},"i":[0]}`)
	v := validate.New(body)
	for _, tc := range []struct {
		field       string
		has, filled bool
	}{
		{"a", true, false}, {"b", true, false}, {"c", true, false}, {"d", true, true},
		{"e", true, true}, {"f", true, true}, {"g", true, false}, {"h", true, false},
		{"i", true, true}, {"missing", false, false},
	} {
		if got := v.Has(tc.field); got != tc.has {
			t.Errorf("Has(%q) = %v, want %v", tc.field, got, tc.has)
		}
		if got := v.Filled(tc.field); got != tc.filled {
			t.Errorf("Filled(%q) = %v, want %v", tc.field, got, tc.filled)
		}
	}
	if err := v.Err(); err != nil {
		t.Errorf("Has and Filled recorded failures: %v", err)
	}
}

// TestUpdateOnlyPresentFields is the shape of an update handler: only the
// fields a request names are checked.
func TestUpdateOnlyPresentFields(t *testing.T) {
	update := func(body string) (map[string]string, map[string][]string) {
		v := validate.New(decode(t, body))
		changes := map[string]string{}
		for _, f := range []string{"title", "body", "status"} {
			if !v.Has(f) {
				continue
			}
			rules := []validate.StringRule{validate.Required}
			switch f {
			case "title":
				rules = append(rules, validate.Max(255))
			case "status":
				rules = append(rules, validate.In("draft", "published"))
			}
			changes[f] = v.String(f, rules...)
		}
		return changes, fields(t, v)
	}
	for _, tc := range []struct {
		body    string
		changes map[string]string
		fails   map[string][]string
	}{
		{`{}`, map[string]string{}, nil},
		{`{"status":"published"}`, map[string]string{"status": "published"}, nil},
		{`{"title":" New "}`, map[string]string{"title": "New"}, nil},
		{`{"title":null,"status":"gone"}`, map[string]string{"title": "", "status": ""}, map[string][]string{
			"title":  {"required"},
			"status": {"in:draft,published"},
		}},
	} {
		changes, fails := update(tc.body)
		if !reflect.DeepEqual(changes, tc.changes) || !reflect.DeepEqual(fails, tc.fails) {
			t.Errorf("%s: got %v %q, want %v %q", tc.body, changes, fails, tc.changes, tc.fails)
		}
	}
}

func TestErr(t *testing.T) {
	v := validate.New(nil)
	if err := v.Err(); err != nil {
		t.Fatalf("Err() on no failures = %v, want nil", err)
	}
	if got := v.String("x"); got != "" {
		t.Errorf("String on nil body: got %q, want empty", got)
	}

	v.Fail("current_password", domain.RuleCurrentPassword)
	v.Fail("current_password", domain.RuleCurrentPassword)
	err := v.Err()
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("Err() = %T, want *domain.Error", err)
	}
	if de.Kind != domain.Invalid || de.Code != "invalid" {
		t.Errorf("Err() = %+v, want kind invalid, code invalid", de)
	}
	if want := []domain.Violation{{Field: "current_password", Rule: "current_password"}}; !reflect.DeepEqual(de.Fields, want) {
		t.Errorf("Fields = %v, want %v (a repeated rule once)", de.Fields, want)
	}

	v.Fail("current_password", domain.RuleConfirmed)
	v.Invalid("tags.0")
	if got := len(de.Fields); got != 1 {
		t.Errorf("earlier error changed by later failures: %d violations, want 1", got)
	}
	if got := fields(t, v)["current_password"]; !reflect.DeepEqual(got, []string{"current_password", "confirmed"}) {
		t.Errorf("later error: got %q", got)
	}
	if !errors.Is(err, &domain.Error{Kind: domain.Invalid, Code: "invalid"}) {
		t.Errorf("errors.Is(err, invalid) = false, want true")
	}
}

func TestElem(t *testing.T) {
	if got, want := validate.Elem("tags", 12), "tags.12"; got != want {
		t.Errorf("Elem: got %q, want %q", got, want)
	}
}

// TestAbsentObjectChecksNothing: the fields of an object that was not given
// are neither checked nor reported, whatever their rules.
func TestAbsentObjectChecksNothing(t *testing.T) {
	for _, body := range []string{`{}`, `{"o":null}`, `{"o":"x"}`, `{"o":[{"a":1}]}`} {
		v := validate.New(decode(t, body))
		o, given := v.Object("o", validate.Nullable)
		got := []any{
			given,
			o.String("a", validate.Required),
			deref(o.Int("b", validate.Required)),
			deref(o.Cents("c", validate.Required)),
			deref(o.Bool("d", validate.Required)),
			o.Strings("e", validate.Required),
			o.Ints("f", validate.Required),
			o.Has("a"),
			o.Filled("a"),
		}
		inner, innerGiven := o.Object("g", validate.Required)
		got = append(got, innerGiven, inner.String("h", validate.Required))
		want := []any{false, "", nil, nil, nil, []string(nil), []int64(nil), false, false, false, ""}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, want %#v", body, got, want)
		}
		for k := range fields(t, v) {
			if k != "o" {
				t.Errorf("%s: failure reported for %q inside an absent object", body, k)
			}
		}
	}
}

func TestTypedRefusesNumbersWrittenAsStrings(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		check func(v *validate.Validator) any
		want  any
		fails map[string][]string
	}{
		{"price as a number", `{"price":1.5}`, func(v *validate.Validator) any { return deref(v.Cents("price", validate.Required)) },
			int64(150), nil},
		{"price as a string", `{"price":"1.50"}`, func(v *validate.Validator) any { return deref(v.Cents("price", validate.Required)) },
			nil, map[string][]string{"price": msgs("numeric")}},
		{"blank price is missing", `{"price":" "}`, func(v *validate.Validator) any { return deref(v.Cents("price", validate.Required)) },
			nil, map[string][]string{"price": msgs("required")}},
		{"age as a string", `{"age":"30"}`, func(v *validate.Validator) any { return deref(v.Int("age", validate.Nullable)) },
			nil, map[string][]string{"age": msgs("integer")}},
		{"nested integer as a string", `{"box":{"n":"3"}}`, func(v *validate.Validator) any {
			o, _ := v.Object("box")
			return deref(o.Int("n"))
		}, nil, map[string][]string{"box.n": msgs("integer")}},
		{"strings stay strings", `{"name":"42"}`, func(v *validate.Validator) any { return v.String("name") },
			"42", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := validate.NewTyped(decode(t, tt.body))
			if got := tt.check(v); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("value: got %#v, want %#v", got, tt.want)
			}
			if got := fields(t, v); !reflect.DeepEqual(got, tt.fails) {
				t.Errorf("failures: got %q, want %q", got, tt.fails)
			}
		})
	}
}
