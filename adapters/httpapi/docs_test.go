package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/adapters/httpapi/openapi"
)

func TestOpenAPIDocumentServed(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	r := h.do("GET", "/openapi.json", nil)
	r.expect(t, http.StatusOK, map[string]any{"openapi": "3.1.0"})
	want, err := openapi.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(r.raw, want) {
		t.Error("served document differs from the embedded one")
	}
	if got := r.header.Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type: got %q, want application/json", got)
	}
	if got := r.header.Get("Cache-Control"); got != "no-cache" {
		t.Errorf("Cache-Control: got %q, want no-cache", got)
	}
	etag := r.header.Get("ETag")
	if !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(etag) {
		t.Fatalf("ETag: got %q, want a strong validator", etag)
	}
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
		again := h.do("GET", "/openapi.json", nil, "If-None-Match", inm)
		if again.status != http.StatusNotModified || len(again.raw) != 0 {
			t.Errorf("If-None-Match %s: got %d with %d bytes, want 304 and no body", inm, again.status, len(again.raw))
		}
	}
	if again := h.do("GET", "/openapi.json", nil, "If-None-Match", `"other"`); again.status != http.StatusOK {
		t.Errorf("If-None-Match of another version: got %d, want 200", again.status)
	}
}

// TestDocumentListsEveryRoute compares the routes the server registers with
// the operations the document lists, both ways, so that a route added or
// removed without the document fails here even when no test calls it.
func TestDocumentListsEveryRoute(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	paths := documentPaths(t)
	documented := map[string]bool{}
	for path, item := range paths {
		for method := range item {
			if m := strings.ToUpper(method); m != "PARAMETERS" && m != "SUMMARY" && m != "DESCRIPTION" && m != "SERVERS" {
				documented[m+" "+path] = true
			}
		}
	}

	// Fiber names parameters ":name" where OpenAPI writes "{name}".
	param := regexp.MustCompile(`:([A-Za-z0-9_]+)\??`)
	served := map[string]bool{}
	for _, r := range h.server.App().GetRoutes(true) {
		if r.Method == http.MethodHead {
			// Fiber serves HEAD beside every GET, as HTTP asks.
			continue
		}
		if r.Path == "/admin" || strings.HasPrefix(r.Path, "/admin/") {
			// The admin console shares the listener but is no part of
			// the API (DESIGN §10).
			continue
		}
		if r.Path == "/password-reset" || strings.HasPrefix(r.Path, "/password-reset/") {
			// Nor are the hosted pages of mailed links, HTML for people,
			// which the "Hosted pages" tag describes (DESIGN §12).
			continue
		}
		served[r.Method+" "+param.ReplaceAllString(r.Path, "{$1}")] = true
	}
	// Mounts (the uploaded files) are not routes to Fiber: they show up
	// among all handlers under a path of their own, where the global
	// middleware sits at "/".
	routePaths := map[string]bool{}
	for _, r := range h.server.App().GetRoutes(true) {
		routePaths[r.Path] = true
	}
	var static []string
	for _, r := range h.server.App().GetRoutes(false) {
		if r.Method == http.MethodGet && r.Path != "/" && !routePaths[r.Path] {
			static = append(static, r.Path)
		}
	}

	var missing, extra []string
	for op := range served {
		if !documented[op] {
			missing = append(missing, op)
		}
	}
	for op := range documented {
		if served[op] {
			continue
		}
		method, path, _ := strings.Cut(op, " ")
		underStatic := false
		for _, prefix := range static {
			underStatic = underStatic || (method == http.MethodGet && strings.HasPrefix(path, prefix+"/"))
		}
		if !underStatic {
			extra = append(extra, op)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	for _, op := range missing {
		t.Errorf("the server serves %s, which openapi.yaml does not list", op)
	}
	for _, op := range extra {
		t.Errorf("openapi.yaml lists %s, which the server does not serve", op)
	}
	if len(static) == 0 {
		t.Error("found no static mount: the uploaded files are no longer served at /storage")
	}
}

func TestDocsPage(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	page := h.do("GET", "/docs", nil)
	if page.status != http.StatusOK {
		t.Fatalf("GET /docs: got %d %s", page.status, page.raw)
	}
	for header, want := range map[string]string{
		"Content-Type":           "text/html; charset=utf-8",
		"Cache-Control":          "no-cache",
		"X-Content-Type-Options": "nosniff",
	} {
		if got := page.header.Get(header); got != want {
			t.Errorf("%s: got %q, want %q", header, got, want)
		}
	}
	csp := page.header.Get("Content-Security-Policy")
	for _, directive := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "img-src 'self' data:"} {
		if !strings.Contains(csp, directive) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, directive)
		}
	}
	if bytes.Contains(page.raw, []byte("//")) && regexp.MustCompile(`(src|href)="(https?:)?//`).Match(page.raw) {
		t.Errorf("the page links another host: %s", page.raw)
	}

	links := regexp.MustCompile(`(?:src|href)="(/docs/[^"?]+)\?v=([0-9a-f]+)"`).FindAllStringSubmatch(string(page.raw), -1)
	if len(links) != 3 {
		t.Fatalf("got links %v, want the style sheet and two scripts, fingerprinted", links)
	}
	wantType := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
	for _, l := range links {
		url, version := l[1], l[2]
		ext := url[strings.LastIndex(url, "."):]
		cached := h.do("GET", url+"?v="+version, nil)
		if cached.status != http.StatusOK || len(cached.raw) == 0 {
			t.Errorf("GET %s: got %d with %d bytes", url, cached.status, len(cached.raw))
			continue
		}
		if got := cached.header.Get("Content-Type"); got != wantType[ext] {
			t.Errorf("%s Content-Type: got %q, want %q", url, got, wantType[ext])
		}
		if got := cached.header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
			t.Errorf("%s with its fingerprint: Cache-Control %q, want a year, immutable", url, got)
		}
		for _, stale := range []string{url, url + "?v=0123456789ab"} {
			if got := h.do("GET", stale, nil).header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("%s: Cache-Control %q, want no-cache", stale, got)
			}
		}
		etag := cached.header.Get("ETag")
		if r := h.do("GET", url+"?v="+version, nil, "If-None-Match", etag); r.status != http.StatusNotModified {
			t.Errorf("%s with If-None-Match: got %d, want 304", url, r.status)
		}
	}

	for _, name := range []string{"LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"} {
		r := h.do("GET", "/docs/"+name, nil)
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("GET /docs/%s: got %d %q", name, r.status, r.header.Get("Content-Type"))
		}
	}
	for _, path := range []string{"/docs/index.html", "/docs/README.md", "/docs/nothing.js", "/docs/..%2fopenapi.yaml"} {
		h.do("GET", path, nil).expect(t, http.StatusNotFound, map[string]any{"success": false, "message": "Not Found"})
	}
}

// documentPaths are the OpenAPI document's path items, each by method (and
// the path item's other keys, such as parameters), as raw JSON.
func documentPaths(t *testing.T) map[string]map[string]json.RawMessage {
	t.Helper()
	raw, err := openapi.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Paths
}
