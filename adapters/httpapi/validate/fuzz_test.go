package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/domain"
)

// checkAll runs every kind of check, with rules of every kind, over the
// fields of body, as a handler would.
func checkAll(body map[string]any) *Validator {
	v := New(body)
	v.String("name", Required, Min(2), Max(10), MaxBytes(12))
	v.String("email", Email, Confirmed)
	v.String("password", NoTrim, Nullable, In("a", "b"))
	v.Int("age", Required, Min(0), Max(150))
	v.Cents("price", Max(1000))
	v.Bool("draft", Nullable)
	o, _ := v.Object("address", Required)
	o.String("city", Required, Max(5))
	o.Int("zip", Min(1))
	inner, _ := o.Object("geo")
	inner.Cents("lat")
	v.Strings("tags", Required, MinItems(1), MaxItems(3), Max(5), Email)
	v.Ints("ids", Nullable, MaxItems(2), Min(1), Max(9))
	return v
}

// fieldNames are the keys checkAll's failures may carry besides the
// elements of the two lists.
var fieldNames = map[string]bool{
	"name": true, "email": true, "password": true, "age": true, "price": true, "draft": true,
	"address": true, "address.city": true, "address.zip": true, "address.geo": true, "address.geo.lat": true,
	"tags": true, "ids": true,
}

// FuzzValidator checks that any JSON value, as the whole body or as every
// field of it, is checked without a panic and that the failures name only
// the fields checked (list elements by an index the list has), each with
// rules the HTTP areas word, listed field by field.
func FuzzValidator(f *testing.F) {
	for _, s := range []string{
		`{}`, `null`, `[]`, `"x"`, `0`, `1e400`, `-19.999`, `" a@b.co "`, `"\u0000"`, `"\ud800"`,
		`1e99999999999999999999`, `{"name":"Ann","email":"a@b.co","email_confirmation":"a@b.co","age":"42",` +
			`"price":"19.99","draft":"true","address":{"city":"Oslo","zip":150,"geo":{"lat":1.5}},"tags":["a@b.co"],"ids":[1,2]}`,
		`{"name":[],"email":{},"age":4.2e1,"price":-0.001,"draft":2,"address":"x","tags":[null,"",1],"ids":[0,"1","x",1e30]}`,
		`{"address":{"geo":[]},"tags":[` + strings.Repeat(`"x",`, 5) + `"x"]}`,
	} {
		f.Add([]byte(s))
	}
	fields := []string{"name", "email", "email_confirmation", "password", "age", "price", "draft", "address", "tags", "ids"}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var value any
		if dec.Decode(&value) != nil {
			return
		}
		bodies := []map[string]any{{}}
		if m, ok := value.(map[string]any); ok {
			bodies[0] = m
		}
		every := map[string]any{}
		for _, k := range fields {
			every[k] = value
		}
		bodies = append(bodies, every)
		for _, body := range bodies {
			err := checkAll(body).Err()
			if err == nil {
				continue
			}
			var de *domain.Error
			if !errors.As(err, &de) || de.Kind != domain.Invalid || de.Code == "" || len(de.Fields) == 0 {
				t.Fatalf("error %#v, want an invalid-field error", err)
			}
			for i, f := range de.Fields {
				if !knownKey(body, f.Field) {
					t.Fatalf("failure names unknown field %q: %v", f.Field, de.Fields)
				}
				if !ruleNames[f.Rule.Name()] {
					t.Fatalf("field %q broke unknown rule %q", f.Field, f.Rule)
				}
				// A field's failures are listed together.
				if i > 0 && de.Fields[i-1].Field != f.Field {
					for _, g := range de.Fields[:i-1] {
						if g.Field == f.Field {
							t.Fatalf("failures of %q are split: %v", f.Field, de.Fields)
						}
					}
				}
			}
		}
	})
}

// ruleNames are the rules checkAll's checks can break, which every HTTP
// area has words for.
var ruleNames = map[string]bool{
	string(domain.RuleRequired): true, string(domain.RuleString): true, string(domain.RuleInteger): true,
	string(domain.RuleNumeric): true, string(domain.RuleBoolean): true, string(domain.RuleArray): true,
	string(domain.RuleObject): true, string(domain.RuleNoNullBytes): true, string(domain.RuleUTF8): true,
	string(domain.RuleEmail): true, string(domain.RuleConfirmed): true,
	domain.RuleMin: true, domain.RuleMax: true, domain.RuleMaxBytes: true, domain.RuleMinValue: true,
	domain.RuleMaxValue: true, domain.RuleMinItems: true, domain.RuleMaxItems: true, domain.RuleIn: true,
	domain.RuleDecimal: true,
}

// knownKey reports whether key is one checkAll checks: a field, or an
// element of one of its lists that the body's list has.
func knownKey(body map[string]any, key string) bool {
	if fieldNames[key] {
		return true
	}
	list, index, ok := strings.Cut(key, ".")
	if !ok || (list != "tags" && list != "ids") {
		return false
	}
	items, _ := body[list].([]any)
	i, err := strconv.Atoi(index)
	return err == nil && strconv.Itoa(i) == index && i >= 0 && i < len(items)
}

// numberSyntax is the grammar parseDecimal documents.
var numberSyntax = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// FuzzParseDecimal checks parseDecimal against its grammar and against
// math/big's reading of the same text, that its one representation of a
// value survives being written out and read again, and that Cents takes
// exactly the non-negative values of at most two decimals within its bound,
// to the cent.
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{
		"0", "-0", "+0.000", "19.99", "19.990", "19.999", ".5", "5.", "1e2", "1E-2", "0.01e2", "1e400",
		"1e-400", "1e99999999999999999999", "-19.99", "92233720368547758.07", "92233720368547758.08",
		"", ".", "e1", "1e", "1e+", "0x10", "Inf", "NaN", " 1", "1_000", "١",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := parseDecimal(s)
		if ok != numberSyntax.MatchString(s) {
			t.Fatalf("parseDecimal(%q) ok = %v, grammar says %v", s, ok, !ok)
		}
		if !ok {
			if got := New(map[string]any{"p": s}).Cents("p"); got != nil && trim(s) == s {
				t.Fatalf("Cents(%q) = %d, want a failure", s, *got)
			}
			return
		}
		if d.digits != strings.Trim(d.digits, "0") || strings.Trim(d.digits, "0123456789") != "" {
			t.Fatalf("parseDecimal(%q) = %+v: digits not canonical", s, d)
		}
		// Written as digits and exponent, the value reads back the same,
		// unless its exponent met expClamp, past which exponents are
		// approximate (and every number is out of range).
		text := d.digits + "e" + strconv.FormatInt(d.exp, 10)
		if d.isZero() {
			text = "0"
		}
		if d.neg {
			text = "-" + text
		}
		back, ok := parseDecimal(text)
		if !ok || back != d && !(d.isZero() && back.isZero()) && max(d.exp, -d.exp) < expClamp-int64(len(s)) {
			t.Fatalf("parseDecimal(%q) = %+v, written %q reads %+v, %v", s, d, text, back, ok)
		}
		// math/big agrees whenever the exponent is small enough for it.
		if d.exp > -1000 && d.exp < 1000 && len(s) < 2000 {
			want, ok := new(big.Rat).SetString(s)
			got, _ := new(big.Rat).SetString(text)
			if ok && want.Cmp(got) != 0 {
				t.Fatalf("parseDecimal(%q) = %s, math/big reads %s", s, got.RatString(), want.RatString())
			}
		}
		cents := New(map[string]any{"p": s}).Cents("p", Max(1000))
		inRange := (!d.neg || d.isZero()) && d.decimals() <= 2 && cmpAbs(d, decimalOf(1000)) <= 0
		if (cents != nil) != inRange {
			t.Fatalf("Cents(%q) = %v, in range %v", s, cents, inRange)
		}
		if cents != nil {
			want, _ := d.scaled(2)
			r, _ := new(big.Rat).SetString(text)
			if *cents != want || r.Mul(r, big.NewRat(100, 1)).Cmp(big.NewRat(*cents, 1)) != 0 {
				t.Fatalf("Cents(%q) = %d, want %s × 100", s, *cents, text)
			}
		}
	})
}
