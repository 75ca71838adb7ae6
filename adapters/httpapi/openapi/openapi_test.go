package openapi

import (
	"encoding/json"
	"io/fs"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func TestYAMLToJSONKeepsOrderAndTypes(t *testing.T) {
	src := "b: 1\na: [true, null, 1.5, '2', 2026-11-20]\nc: {z: 'x<y&z'}\n"
	got, err := yamlToJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"b":1,"a":[true,null,1.5,"2","2026-11-20"],"c":{"z":"x<y&z"}}`
	if string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestYAMLToJSONRefusesWhatJSONLacks(t *testing.T) {
	for _, src := range []string{
		"a: 1\na: 2\n",
		"1: x\n",
		"a: &x {b: 1}\nc: *x\n",
		"a: {b: 1}\nc:\n  <<: {d: 2}\n",
		"a: .inf\n",
		"a: !!binary aGk=\n",
		"a: 1\n---\nb: 2\n",
	} {
		if got, err := yamlToJSON([]byte(src)); err == nil {
			t.Errorf("%q: got %s, want an error", src, got)
		}
	}
}

// decoded returns the served document as generic JSON.
func decoded(t *testing.T) map[string]any {
	t.Helper()
	raw, err := JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("served document is not JSON: %v", err)
	}
	return doc
}

func TestDocumentHeader(t *testing.T) {
	doc := decoded(t)
	if doc["openapi"] != "3.1.0" {
		t.Errorf("openapi: got %v, want 3.1.0", doc["openapi"])
	}
	servers, _ := doc["servers"].([]any)
	if len(servers) != 1 || servers[0].(map[string]any)["url"] != "/" {
		t.Errorf("servers: got %v, want the relative server /", doc["servers"])
	}
}

// TestReferencesResolve follows every $ref of the document, so that a typo
// in a component name fails here rather than in a reader's tool.
func TestReferencesResolve(t *testing.T) {
	doc := decoded(t)
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				if _, err := resolve(doc, ref); err != nil {
					t.Errorf("%s: %v", path, err)
				}
			}
			for k, child := range x {
				walk(path+"/"+k, child)
			}
		case []any:
			for _, child := range x {
				walk(path+"/[]", child)
			}
		}
	}
	walk("#", doc)
}

// resolve looks up a local JSON pointer such as
// #/components/schemas/User.
func resolve(doc map[string]any, ref string) (any, error) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, &refError{ref, "is not local"}
	}
	var cur any = doc
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, &refError{ref, "does not resolve"}
		}
		if cur, ok = m[part]; !ok {
			return nil, &refError{ref, "does not resolve"}
		}
	}
	return cur, nil
}

type refError struct{ ref, what string }

func (e *refError) Error() string { return "$ref " + e.ref + " " + e.what }

var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// operations calls f with every operation of the document.
func operations(doc map[string]any, f func(path, method string, pathItem, op map[string]any)) {
	paths := doc["paths"].(map[string]any)
	keys := make([]string, 0, len(paths))
	for p := range paths {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	for _, p := range keys {
		item := paths[p].(map[string]any)
		for _, m := range methods {
			if op, ok := item[m].(map[string]any); ok {
				f(p, m, item, op)
			}
		}
	}
}

// TestOperations checks what a reader relies on in every operation: a
// unique operationId, a declared tag, a summary, a declared security, a
// documented response for each outcome, and the path's parameters declared.
func TestOperations(t *testing.T) {
	doc := decoded(t)
	tags := map[string]bool{}
	for _, tag := range doc["tags"].([]any) {
		tags[tag.(map[string]any)["name"].(string)] = true
	}
	schemes := doc["components"].(map[string]any)["securitySchemes"].(map[string]any)
	ids := map[string]string{}
	param := regexp.MustCompile(`\{([^}]+)\}`)
	operations(doc, func(path, method string, item, op map[string]any) {
		where := strings.ToUpper(method) + " " + path
		id, _ := op["operationId"].(string)
		if id == "" {
			t.Errorf("%s: no operationId", where)
		} else if other, dup := ids[id]; dup {
			t.Errorf("%s: operationId %s is also %s's", where, id, other)
		}
		ids[id] = where
		opTags, _ := op["tags"].([]any)
		if len(opTags) != 1 || !tags[opTags[0].(string)] {
			t.Errorf("%s: tags %v, want one declared tag", where, op["tags"])
		}
		if op["summary"] == nil {
			t.Errorf("%s: no summary", where)
		}
		security, ok := op["security"].([]any)
		if !ok {
			t.Errorf("%s: no security requirement, not even an empty one", where)
		}
		for _, req := range security {
			for name := range req.(map[string]any) {
				if schemes[name] == nil {
					t.Errorf("%s: unknown security scheme %s", where, name)
				}
			}
		}
		responses, _ := op["responses"].(map[string]any)
		if len(responses) == 0 {
			t.Errorf("%s: no responses", where)
		}
		declared := map[string]bool{}
		for _, list := range []any{item["parameters"], op["parameters"]} {
			for _, p := range asList(list) {
				p := p.(map[string]any)
				if ref, ok := p["$ref"].(string); ok {
					v, err := resolve(doc, ref)
					if err != nil {
						continue
					}
					p = v.(map[string]any)
				}
				if p["in"] == "path" {
					declared[p["name"].(string)] = true
				}
			}
		}
		for _, m := range param.FindAllStringSubmatch(path, -1) {
			if !declared[m[1]] {
				t.Errorf("%s: path parameter %s is not declared", where, m[1])
			}
			delete(declared, m[1])
		}
		for name := range declared {
			t.Errorf("%s: path parameter %s is not in the path", where, name)
		}
	})
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// TestServersAreRelative keeps "Try it out" pointed at the server that
// serves the page: an absolute server would send requests to another host.
func TestServersAreRelative(t *testing.T) {
	for _, s := range decoded(t)["servers"].([]any) {
		u, err := url.Parse(s.(map[string]any)["url"].(string))
		if err != nil || u.IsAbs() || u.Host != "" {
			t.Errorf("server %v is not relative", s)
		}
	}
}

func TestAssets(t *testing.T) {
	for _, name := range []string{"index.html", "docs.js", "swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"} {
		data, err := fs.ReadFile(Assets(), name)
		if err != nil || len(data) == 0 {
			t.Errorf("%s: %v, %d bytes", name, err, len(data))
		}
	}
	page, _ := fs.ReadFile(Assets(), "docs.js")
	if !strings.Contains(string(page), "validatorUrl: null") {
		t.Error("docs.js does not turn off the remote validator")
	}
}
