package qs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// vector is one observation of Express 5: the body it was sent and either
// the resulting req.body ("out") or the error status it answered with.
type vector struct {
	In     string
	Out    any
	HasOut bool
	Status int
}

func loadVectors(tb testing.TB) []vector {
	tb.Helper()
	raw, err := os.ReadFile("testdata/qs-vectors.json")
	if err != nil {
		tb.Fatal(err)
	}
	var file struct {
		About   string                       `json:"about"`
		Vectors []map[string]json.RawMessage `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		tb.Fatal(err)
	}
	if len(file.Vectors) == 0 {
		tb.Fatal("no vectors")
	}
	var out []vector
	for i, fields := range file.Vectors {
		var v vector
		for name, val := range fields {
			switch name {
			case "in":
				if err := json.Unmarshal(val, &v.In); err != nil {
					tb.Fatalf("vector %d: in: %v", i, err)
				}
			case "out":
				// UseNumber keeps any JSON number visible as json.Number so
				// that the type check below rejects it.
				dec := json.NewDecoder(bytes.NewReader(val))
				dec.UseNumber()
				if err := dec.Decode(&v.Out); err != nil {
					tb.Fatalf("vector %d: out: %v", i, err)
				}
				v.HasOut = true
			case "status":
				if err := json.Unmarshal(val, &v.Status); err != nil {
					tb.Fatalf("vector %d: status: %v", i, err)
				}
			default:
				// A field this test does not understand (a charset, a
				// content type...) would change what the vector means.
				tb.Fatalf("vector %d: unknown field %q", i, name)
			}
		}
		if v.HasOut == (v.Status != 0) {
			tb.Fatalf("vector %d: want exactly one of out and status", i)
		}
		out = append(out, v)
	}
	return out
}

// checkValue reports the first value that is not a string, []any or
// map[string]any, or a string that is not valid UTF-8.
func checkValue(v any, path string) error {
	switch t := v.(type) {
	case string:
		if !utf8.ValidString(t) {
			return fmt.Errorf("%s: invalid UTF-8 %q", path, t)
		}
	case []any:
		if t == nil {
			return fmt.Errorf("%s: nil slice", path)
		}
		for i, e := range t {
			if err := checkValue(e, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case map[string]any:
		if t == nil {
			return fmt.Errorf("%s: nil map", path)
		}
		for k, e := range t {
			if !utf8.ValidString(k) {
				return fmt.Errorf("%s: invalid UTF-8 key %q", path, k)
			}
			if err := checkValue(e, path+"["+k+"]"); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: unexpected %T", path, v)
	}
	return nil
}

func shorten(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func TestVectors(t *testing.T) {
	vectors := loadVectors(t)
	passed := 0
	for i, v := range vectors {
		t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
			got, err := Parse([]byte(v.In))
			if v.HasOut {
				if _, ok := v.Out.(map[string]any); !ok {
					t.Fatalf("expectation for %q is %T, not an object", shorten(v.In), v.Out)
				}
				if err := checkValue(v.Out, "want"); err != nil {
					t.Fatalf("expectation for %q: %v", shorten(v.In), err)
				}
				if err != nil {
					t.Fatalf("Parse(%q) error = %v, want %s", shorten(v.In), err, jsonString(v.Out))
				}
				if !reflect.DeepEqual(got, v.Out) {
					t.Fatalf("Parse(%q)\n got  %s\n want %s", shorten(v.In), jsonString(got), jsonString(v.Out))
				}
			} else {
				if err == nil {
					t.Fatalf("Parse(%q) = %s, want status %d", shorten(v.In), jsonString(got), v.Status)
				}
				if got != nil {
					t.Errorf("Parse(%q) returned a value along with error %v", shorten(v.In), err)
				}
				if s := Status(err); s != v.Status {
					t.Fatalf("Status(%v) = %d, want %d", err, s, v.Status)
				}
			}
			passed++
		})
	}
	t.Logf("%d of %d vectors pass", passed, len(vectors))
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

func TestStatus(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 200},
		{ErrTooDeep, 400},
		{ErrTooManyParameters, 413},
		{ErrUnsupportedCharset, 415},
		{fmt.Errorf("reading body: %w", ErrTooDeep), 400},
		{errors.New("something else"), 500},
	}
	for _, tt := range tests {
		if got := Status(tt.err); got != tt.want {
			t.Errorf("Status(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

// The cases below are not in the vectors. Their expectations were taken
// from Express 5.3 with body-parser 2.4.0 and qs 6.17.1, and pin corners of
// the algorithm that the vectors leave open.
func TestParseCases(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty body", "", `{}`},
		{"only separators", "&&", `{}`},
		{"empty value does not replace an object", "a[b]=1&a=", `{"a":{"b":"1"}}`},
		{"empty value before an object", "a=&a[b]=1", `{"a":["",{"b":"1"}]}`},
		{"plain value before an object", "a=x&a[b]=y", `{"a":["x",{"b":"y"}]}`},
		{"two plain values after an object", "a[b]=1&a=2&a=3", `{"a":{"0":"2","1":"3","b":"1"}}`},
		{"repeated conflicts append", "a[x][b]=1&a[x]=2&a[x][c]=3&a[x]j=4", `{"a":{"x":{"0":{"b":"1"},"1":"2","2":"4","c":"3"}}}`},
		{"holes do not count against the limit", "[a][99]=x&a[99]=y&a=z", `{"a":["x","y","z"]}`},
		{"index keys are merged first", "1[x]=b&1=a", `{"1":["a",{"x":"b"}]}`},
		{"append to an overflowed array", "a[100]=x&a=y", `{"a":{"100":"x","101":"y"}}`},
		{"prepend to an overflowed array", "a=y&a[100]=x", `{"a":{"0":"y","101":"x"}}`},
		{"empty brackets flatten an inner array", "a[][5]=x", `{"a":["x"]}`},
		{"empty brackets keep an overflowed array", "a[][100]=x", `{"a":{"100":"x"}}`},
		{"top-level index", "[5]=x", `{"5":"x"}`},
		{"duplicate indexed key nests an array", "a[0]=x&a[0]=y", `{"a":[["x","y"]]}`},
		{"non-canonical index is a key", "a[01]=x&a[0]=y", `{"a":{"01":"x","0":"y"}}`},
		{"prototype names are plain keys", "toString=1&constructor[prototype]=2", `{"toString":"1","constructor":{"prototype":"2"}}`},
		{"__proto__ alone is dropped", "__proto__=x&b=1", `{"b":"1"}`},
		{"nested brackets stay one segment", "a[b[c]]=1", `{"a":{"b[c]":"1"}}`},
		{"lone open bracket", "[=1", `{"[":"1"}`},
		{"equals inside brackets", "a[b=c]=d", `{"a":{"b=c":"d"}}`},
		{"encoded brackets inside values", "a=%%5B", `{"a":"%["}`},
		{"one bad escape keeps the whole value", "a=%41%zz+b", `{"a":"%41%zz b"}`},
		{"encoded surrogate is rejected", "a=%ED%A0%80", `{"a":"%ED%A0%80"}`},
		{"overlong escape is rejected", "a=%C0%80", `{"a":"%C0%80"}`},
		{"encoded plus", "a=1%2B1", `{"a":"1+1"}`},
		{"byte order mark", "\uFEFFa=1", `{"a":"1"}`},
		{"raw invalid UTF-8", "a=\xE2\x82A\xFF", `{"a":"\uFFFDA\uFFFD"}`},
		{"unterminated group after the depth limit", "a" + strings.Repeat("[b]", 31) + "[c", `{"a":` + strings.Repeat(`{"b":`, 31) + `{"[c":"1"}` + strings.Repeat("}", 31) + `}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			if strings.HasPrefix(tt.name, "unterminated") {
				in += "=1"
			}
			got, err := Parse([]byte(in))
			if err != nil {
				t.Fatalf("Parse(%q) error = %v", in, err)
			}
			var want any
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(any(got), want) {
				t.Fatalf("Parse(%q)\n got  %s\n want %s", in, jsonString(got), tt.want)
			}
		})
	}
}

func TestDepthLimit(t *testing.T) {
	// An unterminated group past the limit still counts as too deep.
	in := "a" + strings.Repeat("[b]", MaxDepth) + "[c=1"
	if _, err := Parse([]byte(in)); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("Parse(%q) error = %v, want ErrTooDeep", in, err)
	}
	// Text after the last group does not count.
	in = "a" + strings.Repeat("[b]", MaxDepth) + "c=1"
	if _, err := Parse([]byte(in)); err != nil {
		t.Fatalf("Parse(%q) error = %v", in, err)
	}
	// Any one key over the limit fails the whole body.
	in = "ok=1&" + "a" + strings.Repeat("[b]", MaxDepth+1) + "=1"
	if _, err := Parse([]byte(in)); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("Parse(%q) error = %v, want ErrTooDeep", in, err)
	}
}

// The array limit is max(100, number of parameters).
func TestArrayLimitFollowsParameterCount(t *testing.T) {
	body := func(n int) []byte {
		parts := []string{"a[999]=x"}
		for i := 1; i < n; i++ {
			parts = append(parts, "p"+strconv.Itoa(i)+"=1")
		}
		return []byte(strings.Join(parts, "&"))
	}
	got, err := Parse(body(1000))
	if err != nil {
		t.Fatal(err)
	}
	if want := []any{"x"}; !reflect.DeepEqual(got["a"], want) {
		t.Errorf("with 1000 parameters a = %s, want %s", jsonString(got["a"]), jsonString(want))
	}
	got, err = Parse(body(999))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"999": "x"}; !reflect.DeepEqual(got["a"], want) {
		t.Errorf("with 999 parameters a = %s, want %s", jsonString(got["a"]), jsonString(want))
	}

	got, err = Parse([]byte(strings.Repeat("&a[]=x", ParameterLimit)[1:]))
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := got["a"].([]any); !ok || len(a) != ParameterLimit {
		t.Errorf("%d a[] parameters gave %T of length %d", ParameterLimit, got["a"], len(a))
	}
}

func TestParseCharset(t *testing.T) {
	got, err := ParseCharset([]byte("name=Jos%E9+M\xfcller&x[%E9]=%u00e9&%5B%5D=%"), "ISO-8859-1")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"name": "José Müller",
		"x":    map[string]any{"é": "%u00e9"},
		"0":    "%",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %s, want %s", jsonString(got), jsonString(want))
	}

	for _, cs := range []string{"", "utf-8", "UTF-8"} {
		got, err := ParseCharset([]byte("a=%C3%A9"), cs)
		if err != nil || got["a"] != "é" {
			t.Errorf("ParseCharset(%q) = %v, %v", cs, got, err)
		}
	}
	// Express compares the name literally, so common aliases are refused.
	for _, cs := range []string{"utf8", "latin1", "windows-1252", "utf-16"} {
		got, err := ParseCharset([]byte("a=1"), cs)
		if !errors.Is(err, ErrUnsupportedCharset) || got != nil || Status(err) != 415 {
			t.Errorf("ParseCharset(%q) = %v, %v; want ErrUnsupportedCharset", cs, got, err)
		}
	}
}

// FuzzParse checks what holds for every body: no panic, errors only for the
// limits, the limits enforced, values of the three public types that JSON
// can carry, the same result on every run, and, for results whose keys the
// bracket notation can spell unambiguously, the same result again when the
// result is written back as a body.
func FuzzParse(f *testing.F) {
	for _, v := range loadVectors(f) {
		f.Add([]byte(v.In))
	}
	for _, s := range []string{
		"a[100]=x&a=y&a[b]=z", "a=y&a[100]=x&a[]=w", "a[][]=1&a[][b]=2",
		"1[x]=b&1=a&0=c", "a[b]c[d=1&a[b]=", "a=%E2%82&b=\xE2\x82A",
		"[=1&[[]]]=2&]]=3", "a[9007199254740992]=x&a=y&a=z",
		"a" + strings.Repeat("[b]", MaxDepth) + "=1&a" + strings.Repeat("[b]", MaxDepth) + "=2",
		"a" + strings.Repeat("[b]", MaxDepth+1) + "=1",
		strings.Repeat("&", ParameterLimit-1), strings.Repeat("&", ParameterLimit),
		"a[0][b]=1&a[1][c]=2&a[1][c]=3&d[e][0][0]=%2B%26%3D%5B",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, charset := range []string{"", "iso-8859-1"} {
			out, err := ParseCharset(body, charset)
			// Each charset turns bytes into at least as many characters,
			// one '&' per '&' byte, so the count of the bytes is the
			// count the parser sees.
			tooMany := bytes.Count(body, []byte("&"))+1 > ParameterLimit
			if tooMany != errors.Is(err, ErrTooManyParameters) {
				t.Fatalf("charset %q: %d parameters, error %v", charset, bytes.Count(body, []byte("&"))+1, err)
			}
			if err != nil {
				if out != nil {
					t.Fatalf("charset %q: value %v returned along with error %v", charset, out, err)
				}
				if s := Status(err); s != 400 && s != 413 {
					t.Fatalf("charset %q: error %v maps to status %d", charset, err, s)
				}
				continue
			}
			if err := checkValue(out, "body"); err != nil {
				t.Fatalf("charset %q: %v", charset, err)
			}
			// A key holds at most MaxDepth groups below its parent, and
			// colliding values add one array around the innermost value.
			if d := depth(out); d > MaxDepth+2 {
				t.Fatalf("charset %q: result nests %d levels deep", charset, d)
			}
			encoded, err := json.Marshal(out)
			if err != nil {
				t.Fatalf("charset %q: result is no JSON: %v", charset, err)
			}
			var decoded any
			if err := json.Unmarshal(encoded, &decoded); err != nil || !reflect.DeepEqual(decoded, any(out)) {
				t.Fatalf("charset %q: JSON round trip changes the result:\n %s\n %v (%v)", charset, encoded, decoded, err)
			}
			// Map iteration order is random, so a second run takes other
			// paths through the merge; the result must not depend on them.
			again, err := ParseCharset(body, charset)
			if err != nil || !reflect.DeepEqual(out, again) {
				t.Fatalf("charset %q: second parse differs:\n %s\n %s (%v)", charset, jsonString(out), jsonString(again), err)
			}
			// Written back, a result nested deeper than the limit allows
			// would be refused: colliding values are spelled by index.
			if charset != "" || depth(out) > MaxDepth+1 || !spellable(out, true) {
				continue
			}
			form := formOf(out)
			back, err := Parse([]byte(form))
			if err != nil || !reflect.DeepEqual(back, out) {
				t.Fatalf("written back as %q the result %s becomes %s (%v)", form, jsonString(out), jsonString(back), err)
			}
		}
	})
}

// depth is the number of containers nested in v, v included.
func depth(v any) int {
	d := 0
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			d = max(d, depth(e))
		}
	case map[string]any:
		for _, e := range t {
			d = max(d, depth(e))
		}
	default:
		return 0
	}
	return d + 1
}

// spellable reports whether formOf(v) parses back to v: no container is
// empty (no parameter makes one), no key is empty, "__proto__", holds a
// bracket or, below the top, reads as an array index, since each of these
// means something else in a key.
func spellable(v any, top bool) bool {
	switch t := v.(type) {
	case []any:
		if len(t) == 0 {
			return false
		}
		for _, e := range t {
			if !spellable(e, false) {
				return false
			}
		}
	case map[string]any:
		if len(t) == 0 && !top {
			return false
		}
		for k, e := range t {
			if _, index := jsIndex(k); k == "" || k == "__proto__" || strings.ContainsAny(k, "[]") || (index && !top) {
				return false
			}
			if !spellable(e, false) {
				return false
			}
		}
	}
	return true
}

// formOf writes a parse result as a body in bracket notation, with every
// array element at its index: "a[0][b]=1&a[1]=2".
func formOf(v any) string {
	var parts []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch t := v.(type) {
		case []any:
			for i, e := range t {
				walk(prefix+"["+strconv.Itoa(i)+"]", e)
			}
		case map[string]any:
			for k, e := range t {
				if prefix == "" {
					walk(url.QueryEscape(k), e)
				} else {
					walk(prefix+"["+url.QueryEscape(k)+"]", e)
				}
			}
		case string:
			parts = append(parts, prefix+"="+url.QueryEscape(t))
		}
	}
	walk("", v)
	return strings.Join(parts, "&")
}

func BenchmarkParse(b *testing.B) {
	body := []byte("name=Ann+Smith&email=ann%40example.com&address[street]=Main+St+1&address[city]=Oslo" +
		"&address[zip]=0150&tags[]=new&tags[]=vip&items[0][sku]=S1&items[0][qty]=2" +
		"&items[1][sku]=S2&items[1][qty]=1&note=Leave+at+the+door+%F0%9F%93%A6&accept=on")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseWorstCase(b *testing.B) {
	deep := "a" + strings.Repeat("[b]", MaxDepth-1)
	var parts []string
	for i := range ParameterLimit {
		switch i % 4 {
		case 0:
			parts = append(parts, "list[]="+strconv.Itoa(i))
		case 1:
			parts = append(parts, deep+"[k"+strconv.Itoa(i)+"]=v")
		case 2:
			parts = append(parts, "dup=x")
		default:
			parts = append(parts, "sparse["+strconv.Itoa(i)+"][x]=y")
		}
	}
	body := []byte(strings.Join(parts, "&"))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseSparseIndices(b *testing.B) {
	parts := make([]string, ParameterLimit)
	for i := range parts {
		parts[i] = "a[" + strconv.Itoa(ParameterLimit-1-i) + "][k]=v"
	}
	body := []byte(strings.Join(parts, "&"))
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}
