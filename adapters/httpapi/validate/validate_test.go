package validate_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
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

// fields returns the failures of v's error, or nil when it has none.
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
	return de.Fields
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
	name    string
	dialect validate.Dialect // Laravel when zero
	body    string
	check   func(v *validate.Validator) any
	want    any
	fails   map[string][]string
}

func runCases(t *testing.T, cases []fieldCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.dialect
			if d == 0 {
				d = validate.Laravel
			}
			v := validate.New(decode(t, tc.body), d)
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
		{name: "required absent", body: `{}`, check: req, want: "", fails: map[string][]string{"name": msgs("The name field is required.")}},
		{name: "required null", body: `{"name":null}`, check: req, want: "", fails: map[string][]string{"name": msgs("The name field is required.")}},
		{name: "required empty", body: `{"name":""}`, check: req, want: "", fails: map[string][]string{"name": msgs("The name field is required.")}},
		{name: "required blank", body: `{"name":" \t "}`, check: req, want: "", fails: map[string][]string{"name": msgs("The name field is required.")}},
		{name: "required empty list", body: `{"name":[]}`, check: req, want: "", fails: map[string][]string{"name": msgs("The name field is required.")}},
		{name: "required empty object", body: `{"name":{}}`, check: req, want: "", fails: map[string][]string{"name": msgs("The name field is required.")}},
		{name: "required stops other rules", body: `{}`, check: name(validate.Required, validate.Email, validate.Min(3)), want: "", fails: map[string][]string{"name": msgs("The name field is required.")}},
		{name: "optional absent skipped", body: `{}`, check: opt, want: ""},
		{name: "optional null fails type", body: `{"name":null}`, check: opt, want: "", fails: map[string][]string{"name": msgs("The name field must be a string.")}},
		{name: "optional empty fails type", body: `{"name":""}`, check: opt, want: "", fails: map[string][]string{"name": msgs("The name field must be a string.")}},
		{name: "nullable null", body: `{"name":null}`, check: nullable, want: ""},
		{name: "nullable empty", body: `{"name":""}`, check: nullable, want: ""},
		{name: "nullable blank", body: `{"name":"   "}`, check: nullable, want: ""},
		{name: "nullable value checked", body: `{"name":"` + e255 + `e"}`, check: nullable, want: "", fails: map[string][]string{"name": msgs("The name field must not be greater than 255 characters.")}},
		{name: "nullable does not excuse required", body: `{"name":null}`, check: name(validate.Required, validate.Nullable), want: "", fails: map[string][]string{"name": msgs("The name field is required.")}},
		{name: "255 é pass Max(255)", body: `{"name":"` + e255 + `"}`, check: req, want: e255},
		{name: "256 é fail Max(255)", body: `{"name":"` + e255 + `é"}`, check: req, want: "", fails: map[string][]string{"name": msgs("The name field must not be greater than 255 characters.")}},
		{name: "emoji count as one character", body: `{"name":"` + strings.Repeat("😀", 3) + `"}`, check: name(validate.Max(3)), want: "😀😀😀"},
		{name: "Min counts runes", body: `{"name":"ééé"}`, check: name(validate.Min(4)), want: "", fails: map[string][]string{"name": msgs("The name field must be at least 4 characters.")}},
		{name: "Min after trimming", body: `{"name":"  ab  "}`, check: name(validate.Min(3)), want: "", fails: map[string][]string{"name": msgs("The name field must be at least 3 characters.")}},
		{name: "MaxBytes counts bytes", body: `{"name":"ééé"}`, check: name(validate.MaxBytes(5)), want: "", fails: map[string][]string{"name": msgs("The name field must not be greater than 5 bytes.")}},
		{name: "MaxBytes at the limit", body: `{"name":"éé"}`, check: name(validate.MaxBytes(4)), want: "éé"},
		{name: "NUL byte", body: `{"name":"a\u0000b"}`, check: req, want: "", fails: map[string][]string{"name": msgs("The name field must not contain null bytes.")}},
		{name: "NUL byte with another failure", body: `{"name":"a\u0000b"}`, check: name(validate.Min(5)), want: "", fails: map[string][]string{"name": msgs("The name field must not contain null bytes.", "The name field must be at least 5 characters.")}},
		{name: "NUL only is not blank", body: `{"name":"\u0000"}`, check: req, want: "", fails: map[string][]string{"name": msgs("The name field must not contain null bytes.")}},
		{name: "In passes", body: `{"name":"draft"}`, check: name(validate.In("draft", "published")), want: "draft"},
		{name: "In after trimming", body: `{"name":" published "}`, check: name(validate.In("draft", "published")), want: "published"},
		{name: "In is case-sensitive", body: `{"name":"Draft"}`, check: name(validate.In("draft", "published")), want: "", fails: map[string][]string{"name": msgs("The selected name is invalid.")}},
		{name: "key with underscores shown with spaces", body: `{}`, check: func(v *validate.Validator) any { return v.String("current_password", validate.Required) }, want: "", fails: map[string][]string{"current_password": msgs("The current password field is required.")}},
		{name: "rules listed in declared order", body: `{"name":"` + strings.Repeat("x", 300) + `"}`, check: name(validate.Max(255), validate.Email, validate.In("a")), want: "", fails: map[string][]string{"name": msgs("The name field must not be greater than 255 characters.", "The name field must be a valid email address.", "The selected name is invalid.")}},
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
		{name: "confirmation compared untrimmed", body: `{"password":" secret123","password_confirmation":"secret123"}`, check: password, want: "", fails: map[string][]string{"password": msgs("The password field confirmation does not match.")}},
		{name: "spaces count toward Min", body: `{"password":"  abc   ","password_confirmation":"  abc   "}`, check: password, want: "  abc   "},
		{name: "blank password is missing", body: `{"password":"        ","password_confirmation":"        "}`, check: password, want: "", fails: map[string][]string{"password": msgs("The password field is required.")}},
		{name: "confirmation missing", body: `{"password":"secret123"}`, check: password, want: "", fails: map[string][]string{"password": msgs("The password field confirmation does not match.")}},
		{name: "confirmation not a string", body: `{"password":"12345678","password_confirmation":12345678}`, check: password, want: "", fails: map[string][]string{"password": msgs("The password field confirmation does not match.")}},
		{name: "short and unconfirmed", body: `{"password":"short","password_confirmation":"other"}`, check: password, want: "", fails: map[string][]string{"password": msgs("The password field must be at least 8 characters.", "The password field confirmation does not match.")}},
		{name: "over 72 bytes", body: `{"password":"` + long + `","password_confirmation":"` + long + `"}`, check: password, want: "", fails: map[string][]string{"password": msgs("The password field must not be greater than 72 bytes.")}},
		{name: "trimmed field compares trimmed confirmation", body: `{"email":" a@b.co ","email_confirmation":"a@b.co  "}`, check: email, want: "a@b.co"},
		{name: "required password missing skips confirmation", body: `{"password_confirmation":"x"}`, check: password, want: "", fails: map[string][]string{"password": msgs("The password field is required.")}},
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
		}, "The f field must be a string.", nil},
		{"Int", func(v *validate.Validator) any {
			return deref(v.Int("f", validate.Required, validate.Min(1), validate.Max(100)))
		},
			"The f field must be an integer.", map[string]bool{"zero": true, "number": true}},
		{"Cents", func(v *validate.Validator) any { return deref(v.Cents("f", validate.Required, validate.Max(100))) },
			"The f field must be a number.", map[string]bool{"zero": true, "number": true, "fraction": true, "huge": true}},
		{"Bool", func(v *validate.Validator) any { return deref(v.Bool("f", validate.Required)) },
			"The f field must be true or false.", map[string]bool{"true": true, "false": true, "zero": true}},
		{"Object", func(v *validate.Validator) any {
			o, ok := v.Object("f", validate.Required)
			o.String("a", validate.Required)
			return ok
		}, "The f field must be an array.", map[string]bool{"object": true, "nested object": true}},
		{"Strings", func(v *validate.Validator) any { return v.Strings("f", validate.Required, validate.Max(3)) },
			"The f field must be an array.", map[string]bool{"list": true, "list of lists": true}},
		{"Ints", func(v *validate.Validator) any { return v.Ints("f", validate.Required, validate.Max(3)) },
			"The f field must be an array.", map[string]bool{"list": true, "list of lists": true}},
	}
	for _, k := range kinds {
		for typ, value := range wrongTypes {
			if k.accept[typ] {
				continue
			}
			t.Run(k.name+"/"+typ, func(t *testing.T) {
				v := validate.New(decode(t, `{"f":`+value+`}`), validate.Laravel)
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
			want: []string(nil), fails: map[string][]string{"f.0": msgs("The f.0 field must be a string.")}},
	})
}

func TestInt(t *testing.T) {
	age := func(rules ...validate.IntRule) func(v *validate.Validator) any {
		return func(v *validate.Validator) any { return deref(v.Int("age", rules...)) }
	}
	plain := age(validate.Min(0), validate.Max(150))
	notInt := map[string][]string{"age": msgs("The age field must be an integer.")}
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
		{name: "below Min", body: `{"age":-1}`, check: plain, want: nil, fails: map[string][]string{"age": msgs("The age field must be at least 0.")}},
		{name: "above Max", body: `{"age":151}`, check: plain, want: nil, fails: map[string][]string{"age": msgs("The age field must not be greater than 150.")}},
		{name: "at Max", body: `{"age":150}`, check: plain, want: int64(150)},
		{name: "both bounds listed", body: `{"age":5}`, check: age(validate.Min(10), validate.Max(1)), want: nil, fails: map[string][]string{"age": msgs("The age field must be at least 10.", "The age field must not be greater than 1.")}},
		{name: "largest int64", body: `{"age":9223372036854775807}`, check: age(), want: int64(9223372036854775807)},
		{name: "smallest int64", body: `{"age":-9223372036854775808}`, check: age(), want: int64(-9223372036854775808)},
		{name: "int64 overflow", body: `{"age":9223372036854775808}`, check: age(), want: nil, fails: notInt},
		{name: "int64 underflow", body: `{"age":-9223372036854775809}`, check: age(), want: nil, fails: notInt},
		{name: "20 digits string", body: `{"age":"99999999999999999999"}`, check: plain, want: nil, fails: notInt},
		{name: "1e400", body: `{"age":1e400}`, check: plain, want: nil, fails: notInt},
		{name: "huge exponent", body: `{"age":1e99999999999999999999}`, check: plain, want: nil, fails: notInt},
		{name: "zero with huge exponent", body: `{"age":0e99999999999999999999}`, check: plain, want: int64(0)},
		{name: "absent", body: `{}`, check: plain, want: nil},
		{name: "required absent", body: `{}`, check: age(validate.Required), want: nil, fails: map[string][]string{"age": msgs("The age field is required.")}},
		{name: "required empty string", body: `{"age":""}`, check: age(validate.Required), want: nil, fails: map[string][]string{"age": msgs("The age field is required.")}},
		{name: "null", body: `{"age":null}`, check: plain, want: nil, fails: notInt},
		{name: "empty string", body: `{"age":""}`, check: plain, want: nil, fails: notInt},
		{name: "nullable null", body: `{"age":null}`, check: age(validate.Nullable), want: nil},
		{name: "nullable empty string", body: `{"age":""}`, check: age(validate.Nullable), want: nil},
		{name: "bool", body: `{"age":true}`, check: plain, want: nil, fails: notInt},
		{name: "key with underscores", body: `{"per_page":"x"}`, check: func(v *validate.Validator) any { return deref(v.Int("per_page", validate.Min(1))) }, want: nil, fails: map[string][]string{"per_page": msgs("The per page field must be an integer.")}},
		{name: "per_page below 1", body: `{"per_page":0}`, check: func(v *validate.Validator) any { return deref(v.Int("per_page", validate.Min(1))) }, want: nil, fails: map[string][]string{"per_page": msgs("The per page field must be at least 1.")}},
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
		v := validate.New(map[string]any{"n": tc.raw}, validate.Laravel)
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
	notNumber := map[string][]string{"price": msgs("The price field must be a number.")}
	decimals := map[string][]string{"price": msgs("The price field must have 0-2 decimal places.")}
	tooBig := map[string][]string{"price": msgs("The price field must not be greater than 92233720368547758.")}
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
		{name: "negative", body: `{"price":-1}`, check: req, want: nil, fails: map[string][]string{"price": msgs("The price field must be at least 0.")}},
		{name: "negative with three decimals lists both", body: `{"price":-19.999}`, check: req, want: nil, fails: map[string][]string{"price": msgs("The price field must be at least 0.", "The price field must have 0-2 decimal places.")}},
		{name: "1e400", body: `{"price":1e400}`, check: req, want: nil, fails: tooBig},
		{name: "just above the int64 bound", body: `{"price":92233720368547758.01}`, check: req, want: nil, fails: tooBig},
		{name: "at the int64 bound", body: `{"price":92233720368547758}`, check: req, want: int64(9223372036854775800)},
		{name: "Max in whole units", body: `{"price":1000}`, check: price(validate.Max(1000)), want: int64(100000)},
		{name: "above Max", body: `{"price":1000.01}`, check: price(validate.Max(1000)), want: nil, fails: map[string][]string{"price": msgs("The price field must not be greater than 1000.")}},
		{name: "above Max with three decimals", body: `{"price":1000.001}`, check: price(validate.Max(1000)), want: nil, fails: map[string][]string{"price": msgs("The price field must have 0-2 decimal places.", "The price field must not be greater than 1000.")}},
		{name: "Max larger than the bound", body: `{"price":1e30}`, check: price(validate.Max(1 << 62)), want: nil, fails: tooBig},
		{name: "words", body: `{"price":"cheap"}`, check: req, want: nil, fails: notNumber},
		{name: "comma", body: `{"price":"19,99"}`, check: req, want: nil, fails: notNumber},
		{name: "Infinity", body: `{"price":"Infinity"}`, check: req, want: nil, fails: notNumber},
		{name: "NaN", body: `{"price":"NaN"}`, check: req, want: nil, fails: notNumber},
		{name: "hex", body: `{"price":"0x10"}`, check: req, want: nil, fails: notNumber},
		{name: "bare exponent", body: `{"price":"1e"}`, check: req, want: nil, fails: notNumber},
		{name: "point only", body: `{"price":"."}`, check: req, want: nil, fails: notNumber},
		{name: "bool", body: `{"price":true}`, check: req, want: nil, fails: notNumber},
		{name: "required absent", body: `{}`, check: req, want: nil, fails: map[string][]string{"price": msgs("The price field is required.")}},
		{name: "required null", body: `{"price":null}`, check: req, want: nil, fails: map[string][]string{"price": msgs("The price field is required.")}},
		{name: "optional absent", body: `{}`, check: price(), want: nil},
		{name: "optional null", body: `{"price":null}`, check: price(), want: nil, fails: notNumber},
		{name: "nullable null", body: `{"price":null}`, check: price(validate.Nullable), want: nil},
	})
}

func TestBool(t *testing.T) {
	flag := func(rules ...validate.BoolRule) func(v *validate.Validator) any {
		return func(v *validate.Validator) any { return deref(v.Bool("remove_image", rules...)) }
	}
	notBool := map[string][]string{"remove_image": msgs("The remove image field must be true or false.")}
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
		fieldCase{name: "required absent", body: `{}`, check: flag(validate.Required), want: nil, fails: map[string][]string{"remove_image": msgs("The remove image field is required.")}},
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
			fails: map[string][]string{"address": msgs("The address field must be an array.")}},
		{name: "required absent", body: `{}`, check: checkAddress(validate.Required), want: address{},
			fails: map[string][]string{"address": msgs("The address field is required.")}},
		{name: "required empty", body: `{"address":{}}`, check: checkAddress(validate.Required), want: address{},
			fails: map[string][]string{"address": msgs("The address field is required.")}},
		{name: "empty object checks sub-fields", body: `{"address":{}}`, check: checkAddress(), want: address{Given: true},
			fails: map[string][]string{"address.city": msgs("The address.city field is required.")}},
		{name: "string", body: `{"address":"Main St"}`, check: checkAddress(), want: address{},
			fails: map[string][]string{"address": msgs("The address field must be an array.")}},
		{name: "list", body: `{"address":["Main St"]}`, check: checkAddress(), want: address{},
			fails: map[string][]string{"address": msgs("The address field must be an array.")}},
		{name: "nested failures keyed with the prefix", body: `{"address":{"street":5,"city":"Bergen!","zip":["1"],"country":{"a":1}}}`, check: checkAddress(),
			want: address{Given: true, HasCity: true, FilledCity: true},
			fails: map[string][]string{
				"address.street":  msgs("The address.street field must be a string."),
				"address.city":    msgs("The address.city field must not be greater than 5 characters."),
				"address.zip":     msgs("The address.zip field must be a string."),
				"address.country": msgs("The address.country field must be a string."),
			}},
		{name: "blank sub-field", body: `{"address":{"city":"  "}}`, check: checkAddress(), want: address{Given: true, HasCity: true},
			fails: map[string][]string{"address.city": msgs("The address.city field is required.")}},
		{name: "plain dialect", dialect: validate.Plain, body: `{"address":{"city":7}}`, check: checkAddress(), want: address{Given: true, HasCity: true, FilledCity: true},
			fails: map[string][]string{"address.city": msgs("address.city must be a string")}},
		{name: "plain not an object", dialect: validate.Plain, body: `{"address":"x"}`, check: checkAddress(), want: address{},
			fails: map[string][]string{"address": msgs("address must be an object")}},
		{name: "nested objects", body: `{"a":{"b":{"c":""}}}`, check: func(v *validate.Validator) any {
			a, _ := v.Object("a")
			b, _ := a.Object("b")
			c := b.String("c", validate.Required)
			b.Fail("d", "custom")
			return c
		}, want: "", fails: map[string][]string{"a.b.c": msgs("The a.b.c field is required."), "a.b.d": msgs("custom")}},
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
			fails: map[string][]string{"abilities": msgs("The abilities field is required.")}},
		{name: "null", body: `{"abilities":null}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("The abilities field must be an array.")}},
		{name: "nullable null", body: `{"abilities":null}`, check: abilities(validate.Nullable), want: []string(nil)},
		{name: "string instead of list", body: `{"abilities":"posts:read"}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("The abilities field must be an array.")}},
		{name: "object instead of list", body: `{"abilities":{"0":"posts:read"}}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("The abilities field must be an array.")}},
		{name: "element types", body: `{"abilities":["ok",1,null,"",true,{},[],"a\u0000"]}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{
				"abilities.1": msgs("The abilities.1 field must be a string."),
				"abilities.2": msgs("The abilities.2 field must be a string."),
				"abilities.3": msgs("The abilities.3 field must be a string."),
				"abilities.4": msgs("The abilities.4 field must be a string."),
				"abilities.5": msgs("The abilities.5 field must be a string."),
				"abilities.6": msgs("The abilities.6 field must be a string."),
				"abilities.7": msgs("The abilities.7 field must not contain null bytes."),
			}},
		{name: "element rules", body: `{"abilities":["posts:read","root","` + strings.Repeat("x", 11) + `"]}`,
			check: abilities(validate.Max(10), validate.In("posts:read", "posts:write")), want: []string(nil),
			fails: map[string][]string{
				"abilities.1": msgs("The selected abilities.1 is invalid."),
				"abilities.2": msgs("The abilities.2 field must not be greater than 10 characters.", "The selected abilities.2 is invalid."),
			}},
		{name: "element NoTrim", body: `{"abilities":[" a "]}`, check: abilities(validate.NoTrim), want: []string{" a "}},
		{name: "item counts", body: `{"abilities":["a","b","c"]}`, check: abilities(validate.MaxItems(2)), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("The abilities field must not have more than 2 items.")}},
		{name: "too few items", body: `{"abilities":["a"]}`, check: abilities(validate.MinItems(2)), want: []string(nil),
			fails: map[string][]string{"abilities": msgs("The abilities field must have at least 2 items.")}},
		{name: "item count and elements both listed", body: `{"abilities":[1,2,3]}`, check: abilities(validate.MaxItems(2)), want: []string(nil),
			fails: map[string][]string{
				"abilities":   msgs("The abilities field must not have more than 2 items."),
				"abilities.0": msgs("The abilities.0 field must be a string."),
				"abilities.1": msgs("The abilities.1 field must be a string."),
				"abilities.2": msgs("The abilities.2 field must be a string."),
			}},
		{name: "plain", dialect: validate.Plain, body: `{"abilities":[1]}`, check: abilities(), want: []string(nil),
			fails: map[string][]string{"abilities.0": msgs("abilities.0 must be a string")}},
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
			fails: map[string][]string{"tags": msgs("The tags field must be an array.")}},
		{name: "not a list", body: `{"tags":5}`, check: tags(), want: []int64(nil),
			fails: map[string][]string{"tags": msgs("The tags field must be an array.")}},
		{name: "comma string", body: `{"tags":"1,2"}`, check: tags(), want: []int64(nil),
			fails: map[string][]string{"tags": msgs("The tags field must be an array.")}},
		{name: "bad elements", body: `{"tags":[1,"x",1.5,null,"",true,[1],{"a":1},1e400,-9223372036854775809]}`, check: tags(), want: []int64(nil),
			fails: map[string][]string{
				"tags.1": msgs("The tags.1 field must be an integer."),
				"tags.2": msgs("The tags.2 field must be an integer."),
				"tags.3": msgs("The tags.3 field must be an integer."),
				"tags.4": msgs("The tags.4 field must be an integer."),
				"tags.5": msgs("The tags.5 field must be an integer."),
				"tags.6": msgs("The tags.6 field must be an integer."),
				"tags.7": msgs("The tags.7 field must be an integer."),
				"tags.8": msgs("The tags.8 field must be an integer."),
				"tags.9": msgs("The tags.9 field must be an integer."),
			}},
		{name: "element bounds", body: `{"tags":[0,5]}`, check: tags(validate.Min(1), validate.Max(4)), want: []int64(nil),
			fails: map[string][]string{
				"tags.0": msgs("The tags.0 field must be at least 1."),
				"tags.1": msgs("The tags.1 field must not be greater than 4."),
			}},
		{name: "item count", body: `{"tags":[1,2]}`, check: tags(validate.MaxItems(1)), want: []int64(nil),
			fails: map[string][]string{"tags": msgs("The tags field must not have more than 1 items.")}},
		{name: "existence reported by the caller", body: `{"tags":[1,99,98]}`, check: func(v *validate.Validator) any {
			ids := v.Ints("tags")
			for i, id := range ids {
				if id > 10 {
					v.Invalid(validate.Elem("tags", i))
				}
			}
			return ids
		}, want: []int64{1, 99, 98}, fails: map[string][]string{
			"tags.1": msgs("The selected tags.1 is invalid."),
			"tags.2": msgs("The selected tags.2 is invalid."),
		}},
		{name: "plain", dialect: validate.Plain, body: `{"tags":["a"]}`, check: tags(), want: []int64(nil),
			fails: map[string][]string{"tags.0": msgs("tags.0 must be an integer")}},
		{name: "plain not a list", dialect: validate.Plain, body: `{"tags":"a"}`, check: tags(validate.MinItems(1)), want: []int64(nil),
			fails: map[string][]string{"tags": msgs("tags must be an array")}},
	})
}

func TestEmail(t *testing.T) {
	accept := []string{
		"a@b.co",
		"user@example.com",
		"first.last@example.com",
		"user+tag@example.com",
		"o'brien@example.ie",
		"x!#$%&'*+-/=?^_`{|}~@example.com",
		"USER@EXAMPLE.COM",
		"josé@example.com",
		"用户@例子.广告",
		"user@bücher.de",
		"user@sub.domain-with-hyphen.example.co.uk",
		"user@123.example.com",
		"1@2.x9",
		strings.Repeat("a", 64) + "@example.com",
		"a@" + strings.Repeat(strings.Repeat("b", 63)+".", 3) + strings.Repeat("c", 60),
	}
	reject := []string{
		"plainaddress",
		"@example.com",
		"user@",
		"user@@example.com",
		"a@b@example.com",
		"user@localhost",
		"user@example",
		"user name@example.com",
		"user@exam ple.com",
		"user\t@example.com",
		"user\u00a0name@example.com",
		"user\u200b@example.com",
		".user@example.com",
		"user.@example.com",
		"us..er@example.com",
		`"user name"@example.com`,
		"<user@example.com>",
		"user@example.com>",
		"User <user@example.com>",
		"user(comment)@example.com",
		"user,other@example.com",
		"user;@example.com",
		"user@[127.0.0.1]",
		"user@127.0.0.1",
		"user@-example.com",
		"user@example-.com",
		"user@exa_mple.com",
		"user@.example.com",
		"user@example..com",
		"user@example.com.",
		"user@example.c-m-",
		"user@example.123",
		"user@exa$mple.com",
		"user\x00@example.com",
		"user@example.com\n",
		strings.Repeat("a", 65) + "@example.com",
		"a@" + strings.Repeat("b", 64) + ".com",
		"a@" + strings.Repeat(strings.Repeat("b", 63)+".", 3) + strings.Repeat("c", 61),
		"javascript:alert(1)",
		"user@exam\xffple.com",
	}
	check := func(t *testing.T, address string, want bool) {
		v := validate.New(map[string]any{"email": address}, validate.Laravel)
		v.String("email", validate.NoTrim, validate.Email)
		failed := false
		for _, m := range fields(t, v)["email"] {
			if m == "The email field must be a valid email address." {
				failed = true
			}
		}
		if got := !failed; got != want {
			t.Errorf("Email(%q): got valid=%v, want %v", address, got, want)
		}
	}
	for _, a := range accept {
		check(t, a, true)
	}
	for _, a := range reject {
		check(t, a, false)
	}
}

// TestAllFailuresListed is the register request with everything wrong.
func TestAllFailuresListed(t *testing.T) {
	body := decode(t, `{"name":"`+strings.Repeat("n", 256)+`","email":"`+strings.Repeat("x", 300)+`","password":"short","password_confirmation":"other","status":"archived","tags":[1,"b"]}`)
	v := validate.New(body, validate.Laravel)
	v.String("name", validate.Required, validate.Max(255))
	v.String("email", validate.Required, validate.Email, validate.Max(255))
	v.String("password", validate.Required, validate.NoTrim, validate.Min(8), validate.MaxBytes(72), validate.Confirmed)
	v.String("status", validate.Required, validate.In("draft", "published"))
	v.Ints("tags")
	v.String("title", validate.Required)
	got := fields(t, v)
	want := map[string][]string{
		"name":     {"The name field must not be greater than 255 characters."},
		"email":    {"The email field must be a valid email address.", "The email field must not be greater than 255 characters."},
		"password": {"The password field must be at least 8 characters.", "The password field confirmation does not match."},
		"status":   {"The selected status is invalid."},
		"tags.1":   {"The tags.1 field must be an integer."},
		"title":    {"The title field is required."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	field, message, ok := v.First()
	if field != "name" || message != want["name"][0] || !ok {
		t.Errorf("First() = %q, %q, %v, want name, %q, true", field, message, ok, want["name"][0])
	}
	if err := v.Err(); err.(*domain.Error).Message != "Validation failed." {
		t.Errorf("Message = %q, want Validation failed.", err.(*domain.Error).Message)
	}
}

// TestPlain covers area B: Express wording, form strings converted, and the
// first failure as the envelope message.
func TestPlain(t *testing.T) {
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
		{name: "user from JSON", dialect: validate.Plain, body: `{"name":"Ann","email":"ann@example.com","age":30,"address":{"city":"Oslo"}}`, check: user,
			want: "Ann|ann@example.com|30|true|Oslo"},
		{name: "user from a form", dialect: validate.Plain, body: `{"name":"Ann","email":"ann@example.com","age":"30","address":{"city":"Oslo"}}`, check: user,
			want: "Ann|ann@example.com|30|true|Oslo"},
		{name: "user without optional fields", dialect: validate.Plain, body: `{"name":"Ann","email":"ann@example.com","age":null,"address":null}`, check: user,
			want: "Ann|ann@example.com|<nil>|false|"},
		{name: "user all wrong", dialect: validate.Plain, body: `{"name":"","email":"` + strings.Repeat("x", 300) + `","age":"old","address":[]}`, check: user,
			want: "||<nil>|false|", fails: map[string][]string{
				"name":    {"name is required"},
				"email":   {"email must be a valid email address", "email must be at most 255 characters"},
				"age":     {"age must be an integer"},
				"address": {"address must be an object"},
			}},
		{name: "age bounds", dialect: validate.Plain, body: `{"name":"A","email":"a@b.co","age":151}`, check: user,
			want: "A|a@b.co|<nil>|false|", fails: map[string][]string{"age": {"age must be at most 150"}}},
		{name: "age negative", dialect: validate.Plain, body: `{"name":"A","email":"a@b.co","age":"-1"}`, check: user,
			want: "A|a@b.co|<nil>|false|", fails: map[string][]string{"age": {"age must be at least 0"}}},
		{name: "product from a form", dialect: validate.Plain, body: `{"name":"Pen","price":"19.99","description":"","stock":"3","active":"true"}`, check: product,
			want: "Pen|1999||3|true"},
		{name: "product from JSON", dialect: validate.Plain, body: `{"name":"Pen","price":19.99,"stock":0,"active":false}`, check: product,
			want: "Pen|1999||0|false"},
		{name: "product all wrong", dialect: validate.Plain, body: `{"name":5,"price":"19.999","description":"` + strings.Repeat("d", 5001) + `","stock":1.5,"active":"maybe"}`, check: product,
			want: "|<nil>||<nil>|<nil>", fails: map[string][]string{
				"name":        {"name must be a string"},
				"price":       {"price must have at most two decimals"},
				"description": {"description must be at most 5000 characters"},
				"stock":       {"stock must be an integer"},
				"active":      {"active must be a boolean"},
			}},
		{name: "price missing and negative stock", dialect: validate.Plain, body: `{"name":"Pen","stock":-1}`, check: product,
			want: "Pen|<nil>||<nil>|<nil>", fails: map[string][]string{"price": {"price is required"}, "stock": {"stock must be at least 0"}}},
		{name: "price wrong", dialect: validate.Plain, body: `{"name":"Pen","price":"abc"}`, check: product,
			want: "Pen|<nil>||<nil>|<nil>", fails: map[string][]string{"price": {"price must be a number"}}},
		{name: "price negative and huge", dialect: validate.Plain, body: `{"name":"Pen","price":-0.001}`, check: product,
			want: "Pen|<nil>||<nil>|<nil>", fails: map[string][]string{"price": {"price must be at least 0", "price must have at most two decimals"}}},
		{name: "price 1e400", dialect: validate.Plain, body: `{"name":"Pen","price":1e400}`, check: product,
			want: "Pen|<nil>||<nil>|<nil>", fails: map[string][]string{"price": {"price must be at most 92233720368547758"}}},
	})
}

func TestPlainEnvelopeMessage(t *testing.T) {
	for _, tc := range []struct {
		body      string
		wantField string
		want      string
	}{
		{`{}`, "name", "name is required"},
		{`{"name":"Ann"}`, "email", "email is required"},
		{`{"name":"Ann","email":"nope"}`, "email", "email must be a valid email address"},
		{`{"name":"Ann","email":"a@b.co","age":"x"}`, "age", "age must be an integer"},
		{`{"name":"` + strings.Repeat("é", 256) + `","email":"bad","age":200}`, "name", "name must be at most 255 characters"},
	} {
		v := validate.New(decode(t, tc.body), validate.Plain)
		v.String("name", validate.Required, validate.Max(255))
		v.String("email", validate.Required, validate.Email)
		v.Int("age", validate.Min(0), validate.Max(150))
		field, message, ok := v.First()
		if field != tc.wantField || message != tc.want || !ok {
			t.Errorf("%s: First() = %q, %q, %v, want %q, %q, true", tc.body, field, message, ok, tc.wantField, tc.want)
		}
		de, _ := domain.AsError(v.Err())
		if de == nil || de.Message != tc.want {
			t.Errorf("%s: Err().Message = %v, want %q", tc.body, de, tc.want)
		}
	}
}

func TestMessagesByDialect(t *testing.T) {
	type check func(v *validate.Validator)
	for _, tc := range []struct {
		body           string
		check          check
		laravel, plain string
	}{
		{`{}`, func(v *validate.Validator) { v.String("f", validate.Required) }, "The f field is required.", "f is required"},
		{`{"f":1}`, func(v *validate.Validator) { v.String("f") }, "The f field must be a string.", "f must be a string"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.Min(4)) }, "The f field must be at least 4 characters.", "f must be at least 4 characters"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.Max(2)) }, "The f field must not be greater than 2 characters.", "f must be at most 2 characters"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.MaxBytes(2)) }, "The f field must not be greater than 2 bytes.", "f must be at most 2 bytes"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.Email) }, "The f field must be a valid email address.", "f must be a valid email address"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.In("x", "y")) }, "The selected f is invalid.", "f must be one of x, y"},
		{`{"f":"abc"}`, func(v *validate.Validator) { v.String("f", validate.Confirmed) }, "The f field confirmation does not match.", "f confirmation does not match"},
		{`{"f":"a\u0000"}`, func(v *validate.Validator) { v.String("f") }, "The f field must not contain null bytes.", "f must not contain null bytes"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Int("f") }, "The f field must be an integer.", "f must be an integer"},
		{`{"f":0}`, func(v *validate.Validator) { v.Int("f", validate.Min(1)) }, "The f field must be at least 1.", "f must be at least 1"},
		{`{"f":9}`, func(v *validate.Validator) { v.Int("f", validate.Max(8)) }, "The f field must not be greater than 8.", "f must be at most 8"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Cents("f") }, "The f field must be a number.", "f must be a number"},
		{`{"f":-1}`, func(v *validate.Validator) { v.Cents("f") }, "The f field must be at least 0.", "f must be at least 0"},
		{`{"f":0.001}`, func(v *validate.Validator) { v.Cents("f") }, "The f field must have 0-2 decimal places.", "f must have at most two decimals"},
		{`{"f":11}`, func(v *validate.Validator) { v.Cents("f", validate.Max(10)) }, "The f field must not be greater than 10.", "f must be at most 10"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Bool("f") }, "The f field must be true or false.", "f must be a boolean"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Object("f") }, "The f field must be an array.", "f must be an object"},
		{`{"f":"x"}`, func(v *validate.Validator) { v.Strings("f") }, "The f field must be an array.", "f must be an array"},
		{`{"f":[]}`, func(v *validate.Validator) { v.Ints("f", validate.MinItems(1)) }, "The f field must have at least 1 items.", "f must have at least 1 items"},
		{`{"f":[1,2]}`, func(v *validate.Validator) { v.Ints("f", validate.MaxItems(1)) }, "The f field must not have more than 1 items.", "f must have at most 1 items"},
		{`{}`, func(v *validate.Validator) { v.Invalid("f") }, "The selected f is invalid.", "f is invalid"},
	} {
		for d, want := range map[validate.Dialect]string{validate.Laravel: tc.laravel, validate.Plain: tc.plain} {
			v := validate.New(decode(t, tc.body), d)
			tc.check(v)
			_, got, _ := v.First()
			if got != want {
				t.Errorf("%v %s: got %q, want %q", d, tc.body, got, want)
			}
			if strings.Contains(got, "%!") {
				t.Errorf("%v %s: badly formatted %q", d, tc.body, got)
			}
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	// Form decoding can yield bytes that are not UTF-8, which JSON decoding
	// never does.
	v := validate.New(map[string]any{"name": "ab\xffc", "tags": []any{"x\xfe"}}, validate.Laravel)
	v.String("name", validate.Max(3))
	v.Strings("tags")
	want := map[string][]string{
		"name":   {"The name field must be valid UTF-8.", "The name field must not be greater than 3 characters."},
		"tags.0": {"The tags.0 field must be valid UTF-8."},
	}
	if got := fields(t, v); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestHasAndFilled(t *testing.T) {
	body := decode(t, `{"a":null,"b":"","c":"  ","d":"x","e":0,"f":false,"g":[],"h":{},"i":[0]}`)
	v := validate.New(body, validate.Laravel)
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
		v := validate.New(decode(t, body), validate.Laravel)
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
			"title":  {"The title field is required."},
			"status": {"The selected status is invalid."},
		}},
	} {
		changes, fails := update(tc.body)
		if !reflect.DeepEqual(changes, tc.changes) || !reflect.DeepEqual(fails, tc.fails) {
			t.Errorf("%s: got %v %q, want %v %q", tc.body, changes, fails, tc.changes, tc.fails)
		}
	}
}

func TestErr(t *testing.T) {
	v := validate.New(nil, validate.Laravel)
	if err := v.Err(); err != nil {
		t.Fatalf("Err() on no failures = %v, want nil", err)
	}
	if _, _, ok := v.First(); ok {
		t.Errorf("First() on no failures: got ok, want none")
	}
	if got := v.String("x"); got != "" {
		t.Errorf("String on nil body: got %q, want empty", got)
	}

	v.Fail("current_password", "The password is incorrect.")
	v.Fail("current_password", "The password is incorrect.")
	err := v.Err()
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("Err() = %T, want *domain.Error", err)
	}
	if de.Kind != domain.Invalid || de.Code != "invalid" || de.Message != "Validation failed." {
		t.Errorf("Err() = %+v, want kind invalid, code invalid, message Validation failed.", de)
	}
	if want := map[string][]string{"current_password": {"The password is incorrect."}}; !reflect.DeepEqual(de.Fields, want) {
		t.Errorf("Fields = %q, want %q (a repeated message once)", de.Fields, want)
	}

	v.Fail("current_password", "Another.")
	v.Invalid("tags.0")
	if got := len(de.Fields["current_password"]); got != 1 {
		t.Errorf("earlier error changed by later failures: %d messages, want 1", got)
	}
	if _, ok := de.Fields["tags.0"]; ok {
		t.Errorf("earlier error gained a later field")
	}
	if got := fields(t, v)["current_password"]; !reflect.DeepEqual(got, []string{"The password is incorrect.", "Another."}) {
		t.Errorf("later error: got %q", got)
	}
	if !errors.Is(err, &domain.Error{Kind: domain.Invalid, Code: "invalid"}) {
		t.Errorf("errors.Is(err, invalid) = false, want true")
	}
}

func TestUnknownDialectPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("New with dialect 0: no panic, want one")
		}
	}()
	validate.New(nil, validate.Dialect(0))
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
		v := validate.New(decode(t, body), validate.Laravel)
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
