package httpapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// v2Account registers name and returns its token (with every ability) and
// user id.
func (h *harness) v2Account(name string) (string, float64) {
	h.t.Helper()
	token := h.register(name, strings.ToLower(name)+"@example.com", "password1")
	me := h.do("GET", "/api/v1/user", nil, as(token)...)
	if me.status != http.StatusOK {
		h.t.Fatalf("who is %s: got %d %s", name, me.status, me.raw)
	}
	return token, me.body["id"].(float64)
}

// v2Token logs name's account in and issues a personal token holding only
// abilities, as a client would.
func (h *harness) v2Token(name string, abilities ...string) string {
	h.t.Helper()
	login := h.login(strings.ToLower(name)+"@example.com", "password1")
	r := h.do("POST", "/api/v1/tokens", map[string]any{"name": "r", "abilities": abilities}, as(login)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("token for %s: got %d %s, want 201", name, r.status, r.raw)
	}
	return r.body["token"].(string)
}

// v2Tag stores a tag and returns its id.
func (h *harness) v2Tag(name string) float64 {
	h.t.Helper()
	tag, err := domain.NewTag(name, start)
	if err != nil {
		h.t.Fatalf("new tag %s: %v", name, err)
	}
	if err := h.store.Repos().Tags.Create(context.Background(), &tag); err != nil {
		h.t.Fatalf("create tag %s: %v", name, err)
	}
	return float64(tag.ID)
}

// v2Create creates a post through version 2 and returns its representation.
func (h *harness) v2Create(token string, fields map[string]any) map[string]any {
	h.t.Helper()
	r := h.do("POST", "/api/v2/posts", fields, as(token)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("create post %v: got %d %s, want 201", fields, r.status, r.raw)
	}
	return r.body["data"].(map[string]any)
}

// v2NewPost creates a post titled title with status and returns its id as
// a path segment.
func (h *harness) v2NewPost(token, title, status string) string {
	h.t.Helper()
	return jsonNumber(h.v2Create(token, map[string]any{"title": title, "body": "Body of " + title, "status": status})["id"])
}

// v2Attr returns one attribute of a post or comment representation.
func v2Attr(item map[string]any, name string) any {
	return item["attributes"].(map[string]any)[name]
}

// v2IDs lists the ids of a list response's items as path segments.
func v2IDs(r response) []string {
	var ids []string
	for _, item := range r.body["data"].([]any) {
		ids = append(ids, jsonNumber(item.(map[string]any)["id"]))
	}
	return ids
}

// v2Walk follows a v2 list from path through every next link, checking
// that next_cursor and links.next agree, and returns the ids in the order
// the pages gave them and the number of pages.
func (h *harness) v2Walk(t *testing.T, token, path string) ([]string, int) {
	t.Helper()
	var ids []string
	pages := 0
	for path != "" {
		r := h.do("GET", path, nil, as(token)...)
		r.expect(t, http.StatusOK, nil)
		pages++
		if pages > 1000 {
			t.Fatalf("walk from %s does not end", path)
		}
		ids = append(ids, v2IDs(r)...)
		meta := r.body["meta"].(map[string]any)
		next, _ := r.body["links"].(map[string]any)["next"].(string)
		cursor, _ := meta["next_cursor"].(string)
		if (next == "") != (cursor == "") {
			t.Fatalf("next link %q and cursor %q disagree", next, cursor)
		}
		path = ""
		if next != "" {
			u, err := url.Parse(next)
			if err != nil || u.Query().Get("cursor") != cursor {
				t.Fatalf("next link %q does not carry cursor %q", next, cursor)
			}
			path = u.RequestURI()
		}
	}
	return ids, pages
}

func TestPostV2Create(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, ann := h.v2Account("Ann")
		golang, rust := h.v2Tag("Go"), h.v2Tag("Rust")
		r := h.do("POST", "/api/v2/posts", map[string]any{
			"title": "  Hello, Wörld!  ", "body": "<p>Hi   there</p>", "status": "published",
			"tags": []any{rust, golang}, "user_id": 999, "slug": "chosen",
		}, as(token)...)
		r.expect(t, http.StatusCreated, nil)
		post := r.body["data"].(map[string]any)
		id := jsonNumber(post["id"])
		want := map[string]any{
			"id":   post["id"],
			"type": "post",
			"attributes": map[string]any{
				"title": "Hello, Wörld!", "slug": "hello-world", "excerpt": "Hi there", "body": "<p>Hi   there</p>",
				"status": "published", "image_url": nil, "published_at": "2026-11-20T10:00:00.000000Z",
				"created_at": "2026-11-20T10:00:00.000000Z", "updated_at": "2026-11-20T10:00:00.000000Z",
			},
			"relationships": map[string]any{
				"author": map[string]any{"id": ann, "type": "user", "attributes": map[string]any{"name": "Ann", "avatar_url": nil}},
				"tags": []any{
					map[string]any{"id": golang, "type": "tag", "attributes": map[string]any{"name": "Go", "slug": "go"}},
					map[string]any{"id": rust, "type": "tag", "attributes": map[string]any{"name": "Rust", "slug": "rust"}},
				},
			},
			"links": map[string]any{"self": "http://example.com/api/v2/posts/" + id},
		}
		if !equalJSON(post, want) {
			t.Errorf("got %s\nwant %s", r.raw, v2JSON(map[string]any{"data": want}))
		}

		// A draft has no published_at; a second post of one title gets a
		// suffix; null tags and no tags both mean none.
		draft := h.v2Create(token, map[string]any{"title": "Hello, Wörld!", "body": "b", "status": "draft", "tags": nil})
		if v2Attr(draft, "published_at") != nil || v2Attr(draft, "slug") != "hello-world-2" {
			t.Errorf("draft: got %v", draft)
		}
		if tags := draft["relationships"].(map[string]any)["tags"]; !equalJSON(tags, []any{}) {
			t.Errorf("draft tags: got %v, want []", tags)
		}

		// Repeated tag ids attach the tag once.
		twice := h.v2Create(token, map[string]any{"title": "Twice", "body": "b", "status": "draft", "tags": []any{golang, golang}})
		if tags := twice["relationships"].(map[string]any)["tags"].([]any); len(tags) != 1 {
			t.Errorf("tags [go, go]: got %v, want one tag", tags)
		}

		// Unicode survives the round trip; a title with no Latin letters
		// still gets a slug.
		uni := h.v2Create(token, map[string]any{"title": "日本語 🚀", "body": "ünïcödé ✓ 😀", "status": "published"})
		got := h.do("GET", "/api/v2/posts/"+jsonNumber(uni["id"]), nil, as(token)...)
		got.expect(t, http.StatusOK, nil)
		data := got.body["data"].(map[string]any)
		if v2Attr(data, "title") != "日本語 🚀" || v2Attr(data, "body") != "ünïcödé ✓ 😀" || v2Attr(data, "slug") != "post" {
			t.Errorf("unicode post: got %s", got.raw)
		}

		// A long body is kept whole and cut for the excerpt.
		long := strings.TrimSpace(strings.Repeat("word ", 200_000))
		big := h.v2Create(token, map[string]any{"title": "Long", "body": long, "status": "draft"})
		if v2Attr(big, "body") != long || v2Attr(big, "excerpt") != strings.TrimSpace(strings.Repeat("word ", 30))+"..." {
			t.Errorf("long body: got excerpt %q", v2Attr(big, "excerpt"))
		}
	})
}

// v2JSON renders v for a failure message.
func v2JSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestPostV2CreateValidation(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v2Account("Ann")
		golang := h.v2Tag("Go")
		ok := map[string]any{"title": "T", "body": "B", "status": "draft"}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for key, val := range ok {
				m[key] = val
			}
			m[k] = v
			return m
		}
		for _, tc := range []struct {
			name string
			body any
			want map[string][]string
		}{
			{"empty", map[string]any{}, map[string][]string{
				"title":  {"The title field is required."},
				"body":   {"The body field is required."},
				"status": {"The status field is required."},
			}},
			{"blank", map[string]any{"title": " \t", "body": "", "status": nil}, map[string][]string{
				"title":  {"The title field is required."},
				"body":   {"The body field is required."},
				"status": {"The status field is required."},
			}},
			{"wrong types", map[string]any{"title": 1, "body": []any{"x"}, "status": true}, map[string][]string{
				"title":  {"The title field must be a string."},
				"body":   {"The body field must be a string."},
				"status": {"The status field must be a string."},
			}},
			{"unknown status", with("status", "archived"), map[string][]string{"status": {"The selected status is invalid."}}},
			{"status in another case", with("status", "Published"), map[string][]string{"status": {"The selected status is invalid."}}},
			{"title too long", with("title", strings.Repeat("ü", 256)), map[string][]string{"title": {"The title field must not be greater than 255 characters."}}},
			{"NUL byte", with("title", "a\x00b"), map[string][]string{"title": {"The title field must not contain null bytes."}}},
			{"tags not a list", with("tags", "1"), map[string][]string{"tags": {"The tags field must be an array."}}},
			{"tags an object", with("tags", map[string]any{"0": golang}), map[string][]string{"tags": {"The tags field must be an array."}}},
			{"tags a number", with("tags", golang), map[string][]string{"tags": {"The tags field must be an array."}}},
			{"tag not an integer", with("tags", []any{golang, "go", 1.5, nil, 1e30}), map[string][]string{
				"tags.1": {"The tags.1 field must be an integer."},
				"tags.2": {"The tags.2 field must be an integer."},
				"tags.3": {"The tags.3 field must be an integer."},
				"tags.4": {"The tags.4 field must be an integer."},
			}},
			{"too many tags", with("tags", slices.Repeat([]any{golang}, 101)), map[string][]string{
				"tags": {"The tags field must not have more than 100 items."},
			}},
			{"unknown tags", with("tags", []any{golang, 999999, 0, -1}), map[string][]string{
				"tags.1": {"The selected tags.1 is invalid."},
				"tags.2": {"The selected tags.2 is invalid."},
				"tags.3": {"The selected tags.3 is invalid."},
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := h.do("POST", "/api/v2/posts", tc.body, as(token)...)
				r.expect(t, http.StatusUnprocessableEntity, map[string]any{"success": false, "message": "Validation failed.", "errors": tc.want})
			})
		}
		// 255 characters of a two-byte letter are within the limit.
		h.do("POST", "/api/v2/posts", with("title", strings.Repeat("ü", 255)), as(token)...).expect(t, http.StatusCreated, nil)
		// The string form of a tag id is accepted, as Laravel accepts it.
		r := h.do("POST", "/api/v2/posts", with("tags", []any{jsonNumber(golang)}), as(token)...)
		r.expect(t, http.StatusCreated, nil)

		h.do("POST", "/api/v2/posts", `{"title":`, as(token)...).expect(t, http.StatusBadRequest, map[string]any{"success": false, "message": "Malformed JSON body."})
		h.do("POST", "/api/v2/posts", "title=a", as(token, "Content-Type", "text/plain")...).expect(t, http.StatusBadRequest, map[string]any{"message": "Unsupported content type."})

		// Nothing was stored by the refused requests.
		list := h.do("GET", "/api/v2/posts", nil, as(token)...)
		if n := len(list.body["data"].([]any)); n != 2 {
			t.Errorf("got %d posts after the refused creates, want 2", n)
		}
	})
}

// v2Form encodes name, value pairs as multipart/form-data and returns the
// body and its content type.
func v2Form(pairs ...string) (string, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for i := 0; i+1 < len(pairs); i += 2 {
		_ = w.WriteField(pairs[i], pairs[i+1])
	}
	_ = w.Close()
	return b.String(), w.FormDataContentType()
}

func TestPostV2Multipart(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		golang, rust := jsonNumber(h.v2Tag("Go")), jsonNumber(h.v2Tag("Rust"))
		tagCount := func(r response) int {
			return len(r.body["data"].(map[string]any)["relationships"].(map[string]any)["tags"].([]any))
		}
		body, ct := v2Form("title", "Form post", "body", "From a form", "status", "published", "tags[]", golang, "tags[]", rust)
		r := h.do("POST", "/api/v2/posts", body, as(ann, "Content-Type", ct)...)
		r.expect(t, http.StatusCreated, nil)
		if tagCount(r) != 2 || v2Attr(r.body["data"].(map[string]any), "title") != "Form post" {
			t.Errorf("multipart create: got %s", r.raw)
		}
		path := "/api/v2/posts/" + jsonNumber(r.body["data"].(map[string]any)["id"])

		body, ct = v2Form("title", "Renamed")
		if r = h.do("PUT", path, body, as(ann, "Content-Type", ct)...); r.status != http.StatusOK || tagCount(r) != 2 {
			t.Errorf("multipart title only: got %d %s, want the tags kept", r.status, r.raw)
		}
		body, ct = v2Form("tags[0]", rust)
		if r = h.do("PATCH", path, body, as(ann, "Content-Type", ct)...); r.status != http.StatusOK || tagCount(r) != 1 {
			t.Errorf("multipart tags[0]: got %d %s, want one tag", r.status, r.raw)
		}
		body, ct = v2Form("tags", "")
		if r = h.do("PATCH", path, body, as(ann, "Content-Type", ct)...); r.status != http.StatusOK || tagCount(r) != 0 {
			t.Errorf("multipart empty tags: got %d %s, want none", r.status, r.raw)
		}
		body, ct = v2Form("tags[]", "nine", "status", "gone")
		h.do("PATCH", path, body, as(ann, "Content-Type", ct)...).expect(t, http.StatusUnprocessableEntity, map[string]any{
			"errors": map[string][]string{"tags.0": {"The tags.0 field must be an integer."}, "status": {"The selected status is invalid."}},
		})
	})
}

func TestPostV2Show(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		bob, _ := h.v2Account("Bob")
		published := h.v2NewPost(ann, "Public", "published")
		draft := h.v2NewPost(ann, "Secret", "draft")
		h.do("POST", "/api/v1/posts/"+published+"/comments", map[string]any{"body": "hi"}, as(bob)...).expect(t, http.StatusCreated, nil)

		r := h.do("GET", "/api/v2/posts/"+published, nil, as(bob)...)
		r.expect(t, http.StatusOK, nil)
		data := r.body["data"].(map[string]any)
		if v2Attr(data, "body") != "Body of Public" {
			t.Errorf("show: body missing: %s", r.raw)
		}
		rel := data["relationships"].(map[string]any)
		if _, ok := rel["comments"]; ok {
			t.Errorf("v2 show carries comments: %s", r.raw)
		}
		if rel["author"] == nil || rel["tags"] == nil {
			t.Errorf("v2 show lacks author or tags: %s", r.raw)
		}
		if data["links"].(map[string]any)["self"] != "http://example.com/api/v2/posts/"+published {
			t.Errorf("links.self: got %v", data["links"])
		}

		h.do("GET", "/api/v2/posts/"+draft, nil, as(ann)...).expect(t, http.StatusOK, nil)
		notFound := map[string]any{"success": false, "message": "Resource not found."}
		h.do("GET", "/api/v2/posts/"+draft, nil, as(bob)...).expect(t, http.StatusNotFound, notFound)
		for _, id := range []string{"999999", "0", "-1", "+" + published, "abc", "1.5", "1e3", "99999999999999999999", "%00", "%20" + published} {
			h.do("GET", "/api/v2/posts/"+id, nil, as(ann)...).expect(t, http.StatusNotFound, notFound)
		}
		h.do("POST", "/api/v2/posts/"+published, map[string]any{}, as(ann)...).expect(t, http.StatusMethodNotAllowed, map[string]any{"success": false, "message": "Method Not Allowed"})
	})
}

func TestPostV2Update(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		bob, _ := h.v2Account("Bob")
		golang, rust := h.v2Tag("Go"), h.v2Tag("Rust")
		id := jsonNumber(h.v2Create(ann, map[string]any{"title": "First", "body": "one", "status": "draft", "tags": []any{golang}})["id"])
		path := "/api/v2/posts/" + id
		tagsOf := func(r response) []any {
			return r.body["data"].(map[string]any)["relationships"].(map[string]any)["tags"].([]any)
		}

		h.clock.Advance(time.Hour)
		r := h.do("PUT", path, map[string]any{"title": "Renamed"}, as(ann)...)
		r.expect(t, http.StatusOK, nil)
		data := r.body["data"].(map[string]any)
		if v2Attr(data, "title") != "Renamed" || v2Attr(data, "slug") != "first" || v2Attr(data, "body") != "one" ||
			v2Attr(data, "status") != "draft" || v2Attr(data, "updated_at") != "2026-11-20T11:00:00.000000Z" ||
			v2Attr(data, "created_at") != "2026-11-20T10:00:00.000000Z" || len(tagsOf(r)) != 1 {
			t.Errorf("PUT title: got %s", r.raw)
		}
		if data["links"].(map[string]any)["self"] != "http://example.com"+path {
			t.Errorf("links.self: got %v", data["links"])
		}

		r = h.do("PATCH", path, map[string]any{"status": "published", "body": "<b>two</b>", "tags": []any{rust, golang}}, as(ann)...)
		r.expect(t, http.StatusOK, nil)
		data = r.body["data"].(map[string]any)
		if v2Attr(data, "status") != "published" || v2Attr(data, "published_at") != "2026-11-20T11:00:00.000000Z" ||
			v2Attr(data, "excerpt") != "two" || len(tagsOf(r)) != 2 {
			t.Errorf("PATCH: got %s", r.raw)
		}

		// Tags are replaced when given, kept when absent, cleared by [] or null.
		r = h.do("PATCH", path, map[string]any{"tags": []any{rust}}, as(ann)...)
		if tags := tagsOf(r); len(tags) != 1 || tags[0].(map[string]any)["id"] != rust {
			t.Errorf("tags [rust]: got %s", r.raw)
		}
		r = h.do("PATCH", path, map[string]any{}, as(ann)...)
		r.expect(t, http.StatusOK, nil)
		if len(tagsOf(r)) != 1 {
			t.Errorf("no tags key: got %s, want the tags kept", r.raw)
		}
		if r = h.do("PATCH", path, map[string]any{"tags": []any{}}, as(ann)...); len(tagsOf(r)) != 0 {
			t.Errorf("tags []: got %s", r.raw)
		}
		h.do("PATCH", path, map[string]any{"tags": []any{golang}}, as(ann)...).expect(t, http.StatusOK, nil)
		if r = h.do("PUT", path, map[string]any{"tags": nil}, as(ann)...); len(tagsOf(r)) != 0 {
			t.Errorf("tags null: got %s", r.raw)
		}
		// An empty body changes nothing.
		h.do("PUT", path, nil, as(ann)...).expect(t, http.StatusOK, nil)

		for _, tc := range []struct {
			name string
			body map[string]any
			want map[string][]string
		}{
			{"blank fields", map[string]any{"title": "", "body": " ", "status": nil}, map[string][]string{
				"title":  {"The title field is required."},
				"body":   {"The body field is required."},
				"status": {"The status field is required."},
			}},
			{"bad values", map[string]any{"title": strings.Repeat("x", 256), "status": "gone", "tags": "1"}, map[string][]string{
				"title":  {"The title field must not be greater than 255 characters."},
				"status": {"The selected status is invalid."},
				"tags":   {"The tags field must be an array."},
			}},
			{"NUL byte", map[string]any{"body": "a\x00"}, map[string][]string{"body": {"The body field must not contain null bytes."}}},
			{"tag not an integer", map[string]any{"tags": []any{"x"}}, map[string][]string{"tags.0": {"The tags.0 field must be an integer."}}},
			{"unknown tag", map[string]any{"title": "Changed", "tags": []any{golang, 424242}}, map[string][]string{"tags.1": {"The selected tags.1 is invalid."}}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := h.do("PATCH", path, tc.body, as(ann)...)
				r.expect(t, http.StatusUnprocessableEntity, map[string]any{"success": false, "message": "Validation failed.", "errors": tc.want})
			})
		}
		// The refused updates changed nothing, not even the title sent
		// along with an unknown tag.
		r = h.do("GET", path, nil, as(ann)...)
		if v2Attr(r.body["data"].(map[string]any), "title") != "Renamed" || len(tagsOf(r)) != 0 {
			t.Errorf("after refused updates: got %s", r.raw)
		}

		// Only the author updates; another user's draft does not exist.
		forbidden := map[string]any{"success": false, "message": "This action is unauthorized."}
		h.do("PUT", path, map[string]any{"title": "Mine"}, as(bob)...).expect(t, http.StatusForbidden, forbidden)
		h.do("PATCH", path, map[string]any{"title": "Mine"}, as(bob)...).expect(t, http.StatusForbidden, forbidden)
		h.do("PATCH", path, map[string]any{"status": "draft"}, as(ann)...).expect(t, http.StatusOK, nil)
		h.do("PATCH", path, map[string]any{"title": "Mine"}, as(bob)...).expect(t, http.StatusNotFound, map[string]any{"message": "Resource not found."})
		for _, bad := range []string{"abc", "0", "999999"} {
			h.do("PUT", "/api/v2/posts/"+bad, map[string]any{"title": "x"}, as(ann)...).expect(t, http.StatusNotFound, nil)
		}
	})
}

func TestPostV2Delete(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		bob, _ := h.v2Account("Bob")
		public := h.v2NewPost(ann, "Public", "published")
		draft := h.v2NewPost(ann, "Draft", "draft")
		c := h.do("POST", "/api/v1/posts/"+public+"/comments", map[string]any{"body": "hi"}, as(bob)...)
		c.expect(t, http.StatusCreated, nil)
		comment := jsonNumber(c.body["data"].(map[string]any)["id"])

		h.do("DELETE", "/api/v2/posts/"+public, nil, as(bob)...).expect(t, http.StatusForbidden, map[string]any{"success": false, "message": "This action is unauthorized."})
		h.do("DELETE", "/api/v2/posts/"+draft, nil, as(bob)...).expect(t, http.StatusNotFound, map[string]any{"message": "Resource not found."})
		h.do("DELETE", "/api/v2/posts/abc", nil, as(ann)...).expect(t, http.StatusNotFound, nil)

		r := h.do("DELETE", "/api/v2/posts/"+public, nil, as(ann)...)
		r.expect(t, http.StatusNoContent, nil)
		if len(r.raw) != 0 {
			t.Errorf("204 carries a body: %q", r.raw)
		}
		h.do("GET", "/api/v2/posts/"+public, nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		h.do("DELETE", "/api/v2/posts/"+public, nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		h.do("GET", "/api/v1/comments/"+comment, nil, as(bob)...).expect(t, http.StatusNotFound, nil)
		h.do("DELETE", "/api/v2/posts/"+draft, nil, as(ann)...).expect(t, http.StatusNoContent, nil)
	})
}

func TestPostV2Authorization(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		owner, _ := h.v2Account("Ann")
		h.v2Account("Reader")
		h.v2Account("Writer")
		reader := h.v2Token("Reader", "posts:read")
		writer := h.v2Token("Writer", "posts:write")
		id := h.v2NewPost(owner, "Owned", "published")
		post := "/api/v2/posts/" + id

		unauthenticated := map[string]any{"success": false, "message": "Unauthenticated."}
		invalidAbility := map[string]any{"success": false, "message": "Invalid ability provided."}
		for _, tc := range []struct {
			method, path string
			body         map[string]any
		}{
			{"GET", "/api/v2/posts", nil},
			{"POST", "/api/v2/posts", map[string]any{"title": "T", "body": "B", "status": "draft"}},
			{"GET", post, nil},
			{"PUT", post, map[string]any{"title": "New"}},
			{"PATCH", post, map[string]any{"title": "New"}},
			{"DELETE", post, nil},
		} {
			t.Run(tc.method+" "+tc.path, func(t *testing.T) {
				h.do(tc.method, tc.path, tc.body).expect(t, http.StatusUnauthorized, unauthenticated)
				h.do(tc.method, tc.path, tc.body, as("1|nonsense")...).expect(t, http.StatusUnauthorized, unauthenticated)
				if tc.method == "GET" {
					h.do(tc.method, tc.path, nil, as(reader)...).expect(t, http.StatusOK, nil)
					h.do(tc.method, tc.path, nil, as(writer)...).expect(t, http.StatusOK, nil)
					return
				}
				// The guard refuses before anything else: validation,
				// existence and policy included.
				h.do(tc.method, tc.path, tc.body, as(reader)...).expect(t, http.StatusForbidden, invalidAbility)
				h.do(tc.method, tc.path, map[string]any{}, as(reader)...).expect(t, http.StatusForbidden, invalidAbility)
				if tc.path == post {
					h.do(tc.method, "/api/v2/posts/999999", tc.body, as(reader)...).expect(t, http.StatusForbidden, invalidAbility)
				}
			})
		}
		// A writer-only token writes; the policy still keeps others' posts.
		h.do("POST", "/api/v2/posts", map[string]any{"title": "W", "body": "B", "status": "draft"}, as(writer)...).expect(t, http.StatusCreated, nil)
		h.do("PATCH", post, map[string]any{"title": "Taken"}, as(writer)...).expect(t, http.StatusForbidden, map[string]any{"message": "This action is unauthorized."})
		h.do("DELETE", post, nil, as(writer)...).expect(t, http.StatusForbidden, map[string]any{"message": "This action is unauthorized."})
		// The owner's token with every ability does everything.
		h.do("PATCH", post, map[string]any{"title": "Mine"}, as(owner)...).expect(t, http.StatusOK, nil)
		h.do("DELETE", post, nil, as(owner)...).expect(t, http.StatusNoContent, nil)
	})
}

func TestPostV2List(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, annID := h.v2Account("Ann")
		bob, bobID := h.v2Account("Bob")
		golang := h.v2Tag("Go")
		h.v2Tag("Unused")
		a1 := jsonNumber(h.v2Create(ann, map[string]any{"title": "Go tips", "body": "b", "status": "published", "tags": []any{golang}})["id"])
		h.clock.Advance(time.Second)
		a2 := h.v2NewPost(ann, "Ann's draft 100%", "draft")
		h.clock.Advance(time.Second)
		b1 := jsonNumber(h.v2Create(bob, map[string]any{"title": "GO_ON", "body": "b", "status": "published", "tags": []any{golang}})["id"])
		h.clock.Advance(time.Second)
		b2 := h.v2NewPost(bob, "Bob's draft", "draft")
		h.clock.Advance(time.Second)
		b3 := h.v2NewPost(bob, "Ünïcode 100% done", "published")
		_ = b2

		r := h.do("GET", "/api/v2/posts", nil, as(ann)...)
		r.expect(t, http.StatusOK, map[string]any{
			"meta":  map[string]any{"api_version": "v2", "next_cursor": nil, "limit": 15},
			"links": map[string]any{"next": nil},
		})
		if got, want := v2IDs(r), []string{b3, b1, a2, a1}; !slices.Equal(got, want) {
			t.Errorf("ann's list: got %v, want %v", got, want)
		}
		item := r.body["data"].([]any)[0].(map[string]any)
		if _, ok := item["attributes"].(map[string]any)["body"]; ok {
			t.Errorf("list items carry the body: %v", item)
		}
		rel := item["relationships"].(map[string]any)
		if rel["author"].(map[string]any)["id"] != bobID || rel["tags"] == nil || rel["comments"] != nil {
			t.Errorf("list item relationships: got %v", rel)
		}
		if item["links"].(map[string]any)["self"] != "http://example.com/api/v2/posts/"+b3 {
			t.Errorf("list item link: got %v", item["links"])
		}

		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"search=go", []string{b1, a1}},
			{"search=%20GO%20", []string{b1, a1}},
			{"search=100%25", []string{b3, a2}},
			{"search=_", []string{b1}},
			{"search=ÜNÏ", []string{b3}},
			{"search=nothing", nil},
			{"status=draft", []string{a2}},
			{"status=published", []string{b3, b1, a1}},
			{"tag=go", []string{b1, a1}},
			{"tag=unused", nil},
			{"tag=nope", nil},
			{"author=" + jsonNumber(bobID), []string{b3, b1}},
			{"author=" + jsonNumber(annID) + "&status=draft", []string{a2}},
			{"author=999999", nil},
			{"tag=go&search=tips&author=" + jsonNumber(annID), []string{a1}},
			{"status=", []string{b3, b1, a2, a1}},
		} {
			r := h.do("GET", "/api/v2/posts?"+tc.query, nil, as(ann)...)
			r.expect(t, http.StatusOK, nil)
			if got := v2IDs(r); !slices.Equal(got, tc.want) {
				t.Errorf("?%s: got %v, want %v", tc.query, got, tc.want)
			}
		}
		// Bob sees his draft and not Ann's.
		if got, want := v2IDs(h.do("GET", "/api/v2/posts?status=draft", nil, as(bob)...)), []string{b2}; !slices.Equal(got, want) {
			t.Errorf("bob's drafts: got %v, want %v", got, want)
		}

		// limit: default 15, at least 1, capped at 100.
		for _, tc := range []struct {
			query     string
			wantLimit float64
		}{{"limit=1", 1}, {"limit=100", 100}, {"limit=101", 100}, {"limit=1000000", 100}, {"limit=", 15}} {
			r := h.do("GET", "/api/v2/posts?"+tc.query, nil, as(ann)...)
			r.expect(t, http.StatusOK, nil)
			if got := r.body["meta"].(map[string]any)["limit"]; got != tc.wantLimit {
				t.Errorf("?%s: got limit %v, want %v", tc.query, got, tc.wantLimit)
			}
		}
		invalid := func(field, msg string) map[string]any {
			return map[string]any{"success": false, "message": "Validation failed.", "errors": map[string][]string{field: {msg}}}
		}
		cursorOf := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
		for _, tc := range []struct {
			query string
			want  map[string]any
		}{
			{"limit=0", invalid("limit", "The limit field must be at least 1.")},
			{"limit=-5", invalid("limit", "The limit field must be at least 1.")},
			{"limit=abc", invalid("limit", "The limit field must be an integer.")},
			{"limit=1.5", invalid("limit", "The limit field must be an integer.")},
			{"limit=3.0", invalid("limit", "The limit field must be an integer.")},
			{"limit=99999999999999999999", invalid("limit", "The limit field must be an integer.")},
			{"limit=%20", invalid("limit", "The limit field must be an integer.")},
			{"status=archived", invalid("status", "The selected status is invalid.")},
			{"author=abc", invalid("author", "The author field must be an integer.")},
			{"author=0", invalid("author", "The author field must be at least 1.")},
			{"search=a%00b", invalid("search", "The search field must not contain null bytes.")},
			{"search=%20", invalid("search", "The search field must be a string.")},
			{"tag=%20", invalid("tag", "The tag field must be a string.")},
			{"tag=%FF", invalid("tag", "The tag field must be valid UTF-8.")},
			{"cursor=!!!", invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=abc", invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + cursorOf("1:2:3"), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + cursorOf("x:1"), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + cursorOf("1:0"), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + cursorOf("1:-1"), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + cursorOf("1"), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + cursorOf("01:1"), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + cursorOf("-9223372036854775808:1"), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + cursorOf("9223372036854775807:1"), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + cursorOf("1:99999999999999999999"), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + base64.URLEncoding.EncodeToString([]byte("1:10")), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + base64.StdEncoding.EncodeToString([]byte("1763632800000000:3>?")), invalid("cursor", "The selected cursor is invalid.")},
			{"cursor=" + strings.Repeat("A", 2000), invalid("cursor", "The selected cursor is invalid.")},
		} {
			t.Run(tc.query, func(t *testing.T) {
				h.do("GET", "/api/v2/posts?"+tc.query, nil, as(ann)...).expect(t, http.StatusUnprocessableEntity, tc.want)
			})
		}
		// Every failing parameter is listed at once.
		r = h.do("GET", "/api/v2/posts?limit=0&cursor=zz&status=x", nil, as(ann)...)
		r.expect(t, http.StatusUnprocessableEntity, nil)
		if errs := r.body["errors"].(map[string]any); len(errs) != 3 {
			t.Errorf("three bad parameters: got %s", r.raw)
		}
		// A well-formed cursor of a position that no post holds still
		// pages: it is a place in the order, not a reference to a post.
		far := cursorOf(fmt.Sprint(start.Add(time.Hour).UnixMicro()) + ":1")
		if got, want := v2IDs(h.do("GET", "/api/v2/posts?cursor="+far, nil, as(ann)...)), []string{b3, b1, a2, a1}; !slices.Equal(got, want) {
			t.Errorf("cursor after every post: got %v, want %v", got, want)
		}
		past := cursorOf(fmt.Sprint(start.Add(-time.Hour).UnixMicro()) + ":1")
		if got := v2IDs(h.do("GET", "/api/v2/posts?cursor="+past, nil, as(ann)...)); got != nil {
			t.Errorf("cursor before every post: got %v, want none", got)
		}
	})
}

func TestPostV2CursorWalk(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		bob, _ := h.v2Account("Bob")
		golang := h.v2Tag("Go")
		// 30 posts in runs of ties: the clock moves only every third post,
		// and the authors alternate, half of Bob's being drafts.
		type made struct {
			id, token        string
			bobDraft, tagged bool
		}
		var posts []made
		for i := range 30 {
			if i%3 == 0 {
				h.clock.Advance(time.Microsecond)
			}
			token, status := ann, "published"
			if i%2 == 1 {
				token = bob
				if i%4 == 1 {
					status = "draft"
				}
			}
			fields := map[string]any{"title": fmt.Sprintf("Post %02d", i), "body": "b", "status": status}
			if i%5 == 0 {
				fields["tags"] = []any{golang}
			}
			posts = append(posts, made{jsonNumber(h.v2Create(token, fields)["id"]), token, status == "draft", i%5 == 0})
		}
		// Newest first: created_at, then id, descending. Ids grow with
		// creation here, so that is the reverse of creation order.
		var visible, tagged []string
		owner := map[string]string{}
		for i := len(posts) - 1; i >= 0; i-- {
			owner[posts[i].id] = posts[i].token
			if !posts[i].bobDraft {
				visible = append(visible, posts[i].id)
			}
			if posts[i].tagged && !posts[i].bobDraft {
				tagged = append(tagged, posts[i].id)
			}
		}
		for _, limit := range []int{1, 2, 3, 4, 7, 15, len(visible) - 1, len(visible), len(visible) + 1, 100} {
			ids, pages := h.v2Walk(t, ann, fmt.Sprintf("/api/v2/posts?limit=%d", limit))
			if !slices.Equal(ids, visible) {
				t.Errorf("limit %d: got %v, want %v", limit, ids, visible)
			}
			if want := max((len(visible)+limit-1)/limit, 1); pages != want {
				t.Errorf("limit %d: got %d pages, want %d", limit, pages, want)
			}
		}
		// The next link keeps the filters.
		ids, _ := h.v2Walk(t, ann, "/api/v2/posts?limit=1&tag=go&status=published")
		if !slices.Equal(ids, tagged) {
			t.Errorf("tagged walk: got %v, want %v", ids, tagged)
		}
		// Bob walks his own drafts too.
		ids, _ = h.v2Walk(t, bob, "/api/v2/posts?limit=4")
		if len(ids) != len(posts) {
			t.Errorf("bob's walk: got %d posts, want %d", len(ids), len(posts))
		}
		// A cursor stays valid when the post it names is deleted.
		first := h.do("GET", "/api/v2/posts?limit=2", nil, as(ann)...)
		cursor := first.body["meta"].(map[string]any)["next_cursor"].(string)
		h.do("DELETE", "/api/v2/posts/"+visible[1], nil, as(owner[visible[1]])...).expect(t, http.StatusNoContent, nil)
		rest, _ := h.v2Walk(t, ann, "/api/v2/posts?limit=5&cursor="+cursor)
		if !slices.Equal(rest, visible[2:]) {
			t.Errorf("after deleting the cursor's post: got %v, want %v", rest, visible[2:])
		}
	})
}

func TestPostV2AllTied(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		var want []string
		for i := range 12 {
			want = append([]string{h.v2NewPost(ann, fmt.Sprintf("Tie %d", i), "published")}, want...)
		}
		for _, limit := range []int{1, 5, 11, 12} {
			if ids, _ := h.v2Walk(t, ann, fmt.Sprintf("/api/v2/posts?limit=%d", limit)); !slices.Equal(ids, want) {
				t.Errorf("limit %d: got %v, want %v", limit, ids, want)
			}
		}
	})
}

func TestPostV2DeepWalk(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		var want []string
		for i := range 230 {
			if i%7 == 0 {
				h.clock.Advance(time.Millisecond)
			}
			want = append([]string{h.v2NewPost(ann, fmt.Sprintf("Deep %d", i), "published")}, want...)
		}
		for _, tc := range []struct {
			limit     string
			wantPages int
		}{{"100", 3}, {"1000000", 3}, {"13", 18}, {"46", 5}, {"115", 3}} {
			ids, pages := h.v2Walk(t, ann, "/api/v2/posts?limit="+tc.limit)
			if !slices.Equal(ids, want) || pages != tc.wantPages {
				t.Errorf("limit %s: got %d posts in %d pages, want %d in %d", tc.limit, len(ids), pages, len(want), tc.wantPages)
			}
		}
	})
}
