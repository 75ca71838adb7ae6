package portstest

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

var timeType = reflect.TypeFor[time.Time]()

// check reports every field in which got differs from want. It walks the
// values with reflection so that a field added to a domain type is compared
// without anyone remembering to extend the suite.
func check[T any](t *testing.T, what string, got, want T) bool {
	t.Helper()
	d := diff(got, want)
	if len(d) == 0 {
		return true
	}
	t.Errorf("%s:\n\t%s", what, strings.Join(d, "\n\t"))
	return false
}

// checkErr reports an error that does not match want by errors.Is; a nil want
// asks for no error at all.
func checkErr(t *testing.T, what string, err, want error) bool {
	t.Helper()
	if errors.Is(err, want) {
		return true
	}
	if want == nil {
		t.Errorf("%s: got error %v, want none", what, err)
	} else {
		t.Errorf("%s: got error %v, want %v", what, err, want)
	}
	return false
}

// must stops the test on an error in a step that only prepares the check.
func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// diff lists the differences between got and want as "path: got …, want …".
// Two times are equal when they name the same instant and both are in UTC:
// the clock hands out UTC, and a store that answers in another location would
// make every representation print another offset. A nil slice and an empty
// one differ, because the JSON representations differ (null and []).
func diff(got, want any) []string {
	var out []string
	diffValue(&out, "", reflect.ValueOf(got), reflect.ValueOf(want))
	return out
}

func diffValue(out *[]string, path string, got, want reflect.Value) {
	if got.Type() == timeType {
		g, w := got.Interface().(time.Time), want.Interface().(time.Time)
		if !g.Equal(w) || g.Location() != w.Location() {
			report(out, path, got, want)
		}
		return
	}
	switch got.Kind() {
	case reflect.Pointer:
		if got.IsNil() || want.IsNil() {
			if got.IsNil() != want.IsNil() {
				report(out, path, got, want)
			}
			return
		}
		diffValue(out, path, got.Elem(), want.Elem())
	case reflect.Struct:
		for i := range got.NumField() {
			diffValue(out, path+"."+got.Type().Field(i).Name, got.Field(i), want.Field(i))
		}
	case reflect.Slice:
		if got.IsNil() != want.IsNil() || got.Len() != want.Len() {
			report(out, path, got, want)
			return
		}
		for i := range got.Len() {
			diffValue(out, fmt.Sprintf("%s[%d]", path, i), got.Index(i), want.Index(i))
		}
	default:
		if !got.Equal(want) {
			report(out, path, got, want)
		}
	}
}

func report(out *[]string, path string, got, want reflect.Value) {
	if path == "" {
		path = "value"
	}
	*out = append(*out, fmt.Sprintf("%s: got %s, want %s", strings.TrimPrefix(path, "."), show(got), show(want)))
}

// show prints a value so that the differences diff looks for are visible:
// nil against empty, and a time's location.
func show(v reflect.Value) string {
	if !v.CanInterface() {
		return fmt.Sprintf("%#v", v)
	}
	if v.Type() == timeType {
		tm := v.Interface().(time.Time)
		return fmt.Sprintf("%s (%s)", tm.Format(time.RFC3339Nano), tm.Location())
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return "nil"
		}
		return "&" + show(v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			return "nil"
		}
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = show(v.Index(i))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case reflect.Struct:
		parts := make([]string, v.NumField())
		for i := range parts {
			parts[i] = v.Type().Field(i).Name + ": " + show(v.Field(i))
		}
		return v.Type().String() + "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("%#v", v.Interface())
}
