package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// commentOn posts a comment and returns its representation.
func (h *harness) commentOn(token, post, body string) map[string]any {
	h.t.Helper()
	r := h.do("POST", "/api/v1/posts/"+post+"/comments", map[string]any{"body": body}, as(token)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("comment on %s: got %d %s, want 201", post, r.status, r.raw)
	}
	return r.body["data"].(map[string]any)
}

func TestCommentCRUD(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		bob, bobID := h.v2Account("Bob")
		cat, _ := h.v2Account("Cat")
		post := h.v2NewPost(ann, "Public", "published")

		r := h.do("POST", "/api/v1/posts/"+post+"/comments", map[string]any{"body": "  Nice post! 👍  ", "user_id": 1, "post_id": 999}, as(bob)...)
		r.expect(t, http.StatusCreated, nil)
		data := r.body["data"].(map[string]any)
		id := jsonNumber(data["id"])
		want := map[string]any{
			"id":   data["id"],
			"type": "comment",
			"attributes": map[string]any{
				"body": "Nice post! 👍", "created_at": "2026-11-20T10:00:00.000000Z", "updated_at": "2026-11-20T10:00:00.000000Z",
			},
			"relationships": map[string]any{
				"author": map[string]any{"id": bobID, "type": "user", "attributes": map[string]any{"name": "Bob", "avatar_url": nil}},
				"post":   map[string]any{"id": json.Number(post), "type": "post"},
			},
			"links": map[string]any{"self": "http://example.com/api/v1/comments/" + id},
		}
		if !equalJSON(data, want) {
			t.Errorf("create: got %s\nwant %s", r.raw, v2JSON(map[string]any{"data": want}))
		}
		path := "/api/v1/comments/" + id

		// Anybody signed in reads it, the post's author included.
		for _, token := range []string{ann, bob, cat} {
			r := h.do("GET", path, nil, as(token)...)
			r.expect(t, http.StatusOK, nil)
			if !equalJSON(r.body["data"], want) {
				t.Errorf("show: got %s", r.raw)
			}
		}

		// Only the comment's author edits, by PUT or PATCH.
		forbidden := map[string]any{"success": false, "message": "This action is unauthorized."}
		for _, method := range []string{"PUT", "PATCH"} {
			h.do(method, path, map[string]any{"body": "hijacked"}, as(ann)...).expect(t, http.StatusForbidden, forbidden)
			h.do(method, path, map[string]any{"body": "hijacked"}, as(cat)...).expect(t, http.StatusForbidden, forbidden)
		}
		h.clock.Advance(time.Minute)
		r = h.do("PUT", path, map[string]any{"body": "Edited"}, as(bob)...)
		r.expect(t, http.StatusOK, nil)
		data = r.body["data"].(map[string]any)
		if v2Attr(data, "body") != "Edited" || v2Attr(data, "updated_at") != "2026-11-20T10:01:00.000000Z" ||
			v2Attr(data, "created_at") != "2026-11-20T10:00:00.000000Z" || data["relationships"].(map[string]any)["author"].(map[string]any)["id"] != bobID {
			t.Errorf("PUT: got %s", r.raw)
		}
		h.clock.Advance(time.Minute)
		r = h.do("PATCH", path, map[string]any{"body": "Edited again"}, as(bob)...)
		r.expect(t, http.StatusOK, nil)
		if got := h.do("GET", path, nil, as(cat)...); v2Attr(got.body["data"].(map[string]any), "body") != "Edited again" ||
			v2Attr(got.body["data"].(map[string]any), "updated_at") != "2026-11-20T10:02:00.000000Z" {
			t.Errorf("after PATCH: got %s", got.raw)
		}

		// A third user may not delete; the post's author and the comment's
		// author may.
		h.do("DELETE", path, nil, as(cat)...).expect(t, http.StatusForbidden, forbidden)
		h.do("DELETE", path, nil, as(ann)...).expect(t, http.StatusOK, map[string]any{"message": "Comment deleted successfully."})
		notFound := map[string]any{"success": false, "message": "Resource not found."}
		h.do("GET", path, nil, as(bob)...).expect(t, http.StatusNotFound, notFound)
		h.do("PUT", path, map[string]any{"body": "x"}, as(bob)...).expect(t, http.StatusNotFound, notFound)
		h.do("DELETE", path, nil, as(ann)...).expect(t, http.StatusNotFound, notFound)

		own := jsonNumber(h.commentOn(cat, post, "mine")["id"])
		r = h.do("DELETE", "/api/v1/comments/"+own, nil, as(cat)...)
		r.expect(t, http.StatusOK, nil)
		if string(r.raw) != `{"message":"Comment deleted successfully."}` {
			t.Errorf("delete body: got %s", r.raw)
		}
	})
}

func TestCommentList(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		bob, _ := h.v2Account("Bob")
		post := h.v2NewPost(ann, "Public", "published")
		other := h.v2NewPost(ann, "Other", "published")
		h.commentOn(bob, other, "elsewhere")

		// Five comments: two pairs of ties, oldest first means created_at
		// then id.
		var want []string
		for i := range 5 {
			if i%2 == 0 {
				h.clock.Advance(time.Second)
			}
			token := []string{ann, bob}[i%2]
			want = append(want, jsonNumber(h.commentOn(token, post, fmt.Sprintf("c%d", i))["id"]))
		}
		base := "/api/v1/posts/" + post + "/comments"

		r := h.do("GET", base, nil, as(bob)...)
		r.expect(t, http.StatusOK, nil)
		if got := v2IDs(r); !slices.Equal(got, want) {
			t.Errorf("all: got %v, want %v", got, want)
		}
		meta := r.body["meta"].(map[string]any)
		if _, ok := meta["api_version"]; ok {
			t.Errorf("comment list carries api_version: %s", r.raw)
		}
		wantMeta := map[string]any{"current_page": 1, "from": 1, "last_page": 1, "path": "http://example.com" + base, "per_page": 15, "to": 5, "total": 5}
		for k, v := range wantMeta {
			if !equalJSON(meta[k], v) {
				t.Errorf("meta.%s: got %v, want %v", k, meta[k], v)
			}
		}
		item := r.body["data"].([]any)[0].(map[string]any)
		if item["type"] != "comment" || item["relationships"].(map[string]any)["author"] == nil {
			t.Errorf("list item: got %v", item)
		}

		r = h.do("GET", base+"?per_page=2&page=2", nil, as(bob)...)
		r.expect(t, http.StatusOK, map[string]any{
			"links": map[string]any{
				"first": "http://example.com" + base + "?page=1&per_page=2",
				"last":  "http://example.com" + base + "?page=3&per_page=2",
				"prev":  "http://example.com" + base + "?page=1&per_page=2",
				"next":  "http://example.com" + base + "?page=3&per_page=2",
			},
		})
		if got := v2IDs(r); !slices.Equal(got, want[2:4]) {
			t.Errorf("page 2: got %v, want %v", got, want[2:4])
		}
		var walked []string
		for page := 1; page <= 4; page++ {
			walked = append(walked, v2IDs(h.do("GET", fmt.Sprintf("%s?per_page=2&page=%d", base, page), nil, as(ann)...))...)
		}
		if !slices.Equal(walked, want) {
			t.Errorf("walk: got %v, want %v", walked, want)
		}
		for _, q := range []string{"page=abc", "page=-1", "page=0"} {
			if got := v2IDs(h.do("GET", base+"?"+q, nil, as(ann)...)); !slices.Equal(got, want) {
				t.Errorf("?%s: got %v, want the first page", q, got)
			}
		}
		r = h.do("GET", base+"?per_page=1000000", nil, as(ann)...)
		r.expect(t, http.StatusOK, nil)
		if pp := r.body["meta"].(map[string]any)["per_page"]; pp != float64(100) {
			t.Errorf("per_page capped: got %v, want 100", pp)
		}
		for _, q := range []string{"per_page=0", "per_page=-5", "per_page=abc"} {
			r := h.do("GET", base+"?"+q, nil, as(ann)...)
			r.expect(t, http.StatusUnprocessableEntity, map[string]any{"success": false, "message": "Validation failed."})
			if _, ok := r.body["errors"].(map[string]any)["per_page"]; !ok {
				t.Errorf("?%s: got %s, want an error on per_page", q, r.raw)
			}
		}
		// Far pages are empty, not errors.
		r = h.do("GET", base+"?page=99999999999", nil, as(ann)...)
		r.expect(t, http.StatusOK, nil)
		if len(r.body["data"].([]any)) != 0 {
			t.Errorf("far page: got %s", r.raw)
		}
		// A post without comments lists none.
		empty := h.v2NewPost(bob, "Quiet", "published")
		r = h.do("GET", "/api/v1/posts/"+empty+"/comments", nil, as(ann)...)
		r.expect(t, http.StatusOK, nil)
		if !equalJSON(r.body["data"], []any{}) || !equalJSON(r.body["meta"].(map[string]any)["total"], 0) {
			t.Errorf("no comments: got %s", r.raw)
		}

		notFound := map[string]any{"success": false, "message": "Resource not found."}
		for _, id := range []string{"999999", "0", "-1", "abc", "1.5", "99999999999999999999"} {
			h.do("GET", "/api/v1/posts/"+id+"/comments", nil, as(ann)...).expect(t, http.StatusNotFound, notFound)
			h.do("POST", "/api/v1/posts/"+id+"/comments", map[string]any{"body": "x"}, as(ann)...).expect(t, http.StatusNotFound, notFound)
		}
	})
}

func TestCommentsOnDraft(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		bob, _ := h.v2Account("Bob")
		post := h.v2NewPost(ann, "Was public", "published")
		bobs := jsonNumber(h.commentOn(bob, post, "from bob")["id"])
		h.do("PATCH", "/api/v2/posts/"+post, map[string]any{"status": "draft"}, as(ann)...).expect(t, http.StatusOK, nil)
		anns := jsonNumber(h.commentOn(ann, post, "note to self")["id"])

		// The draft's author sees and manages every comment on it.
		r := h.do("GET", "/api/v1/posts/"+post+"/comments", nil, as(ann)...)
		r.expect(t, http.StatusOK, nil)
		if got, want := v2IDs(r), []string{bobs, anns}; !slices.Equal(got, want) {
			t.Errorf("author's list: got %v, want %v", got, want)
		}
		h.do("GET", "/api/v1/comments/"+bobs, nil, as(ann)...).expect(t, http.StatusOK, nil)

		// For anybody else the comments do not exist, their own included.
		notFound := map[string]any{"success": false, "message": "Resource not found."}
		h.do("GET", "/api/v1/posts/"+post+"/comments", nil, as(bob)...).expect(t, http.StatusNotFound, notFound)
		h.do("POST", "/api/v1/posts/"+post+"/comments", map[string]any{"body": "x"}, as(bob)...).expect(t, http.StatusNotFound, notFound)
		for _, id := range []string{bobs, anns} {
			h.do("GET", "/api/v1/comments/"+id, nil, as(bob)...).expect(t, http.StatusNotFound, notFound)
			h.do("PUT", "/api/v1/comments/"+id, map[string]any{"body": "x"}, as(bob)...).expect(t, http.StatusNotFound, notFound)
			h.do("PATCH", "/api/v1/comments/"+id, map[string]any{"body": "x"}, as(bob)...).expect(t, http.StatusNotFound, notFound)
			h.do("DELETE", "/api/v1/comments/"+id, nil, as(bob)...).expect(t, http.StatusNotFound, notFound)
		}

		// Published again, they are back.
		h.do("PATCH", "/api/v2/posts/"+post, map[string]any{"status": "published"}, as(ann)...).expect(t, http.StatusOK, nil)
		h.do("PATCH", "/api/v1/comments/"+bobs, map[string]any{"body": "still here"}, as(bob)...).expect(t, http.StatusOK, nil)
		if got := v2IDs(h.do("GET", "/api/v1/posts/"+post+"/comments", nil, as(bob)...)); len(got) != 2 {
			t.Errorf("bob's list after publishing: got %v", got)
		}
		// The draft's author deletes a comment on it.
		h.do("PATCH", "/api/v2/posts/"+post, map[string]any{"status": "draft"}, as(ann)...).expect(t, http.StatusOK, nil)
		h.do("DELETE", "/api/v1/comments/"+bobs, nil, as(ann)...).expect(t, http.StatusOK, nil)
	})
}

func TestCommentAuthentication(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		post := h.v2NewPost(ann, "Public", "published")
		comment := "/api/v1/comments/" + jsonNumber(h.commentOn(ann, post, "hi")["id"])
		unauthenticated := map[string]any{"success": false, "message": "Unauthenticated."}
		for _, tc := range []struct{ method, path string }{
			{"GET", "/api/v1/posts/" + post + "/comments"},
			{"POST", "/api/v1/posts/" + post + "/comments"},
			{"GET", comment},
			{"PUT", comment},
			{"PATCH", comment},
			{"DELETE", comment},
			{"GET", "/api/v1/posts/abc/comments"},
			{"DELETE", "/api/v1/comments/abc"},
		} {
			h.do(tc.method, tc.path, map[string]any{"body": "x"}).expect(t, http.StatusUnauthorized, unauthenticated)
			h.do(tc.method, tc.path, map[string]any{"body": "x"}, as("1|"+strings.Repeat("a", 48))...).expect(t, http.StatusUnauthorized, unauthenticated)
			h.do(tc.method, tc.path, map[string]any{"body": "x"}, "Authorization", "Basic YTpi").expect(t, http.StatusUnauthorized, unauthenticated)
		}
		// Reading comments needs a token; writing one comments:write (or
		// posts:write), which a read-only token lacks.
		reader := h.v2Token("Ann", "posts:read")
		h.do("POST", "/api/v1/posts/"+post+"/comments", map[string]any{"body": "reader"}, as(reader)...).
			expect(t, http.StatusForbidden, map[string]any{"success": false, "message": "Invalid ability provided."})
		h.do("GET", "/api/v1/posts/"+post+"/comments", nil, as(reader)...).expect(t, http.StatusOK, nil)
	})
}

func TestCommentValidation(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		post := h.v2NewPost(ann, "Public", "published")
		comment := "/api/v1/comments/" + jsonNumber(h.commentOn(ann, post, "original")["id"])
		for _, tc := range []struct {
			name string
			body any
			want []string
		}{
			{"missing", map[string]any{}, []string{"The body field is required."}},
			{"no body at all", nil, []string{"The body field is required."}},
			{"null", map[string]any{"body": nil}, []string{"The body field is required."}},
			{"blank", map[string]any{"body": " \n\u200b "}, []string{"The body field is required."}},
			{"number", map[string]any{"body": 5}, []string{"The body field must be a string."}},
			{"list", map[string]any{"body": []any{"a"}}, []string{"The body field must be a string."}},
			{"object", map[string]any{"body": map[string]any{"a": 1}}, []string{"The body field must be a string."}},
			{"too long", map[string]any{"body": strings.Repeat("é", 5001)}, []string{"The body field must not be greater than 5000 characters."}},
			{"NUL byte", map[string]any{"body": "a\x00b"}, []string{"The body field must not contain null bytes."}},
			{"huge", map[string]any{"body": strings.Repeat("x", 1<<20)}, []string{"The body field must not be greater than 5000 characters."}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				want := map[string]any{"success": false, "message": "Validation failed.", "errors": map[string]any{"body": tc.want}}
				h.do("POST", "/api/v1/posts/"+post+"/comments", tc.body, as(ann)...).expect(t, http.StatusUnprocessableEntity, want)
				h.do("PUT", comment, tc.body, as(ann)...).expect(t, http.StatusUnprocessableEntity, want)
				h.do("PATCH", comment, tc.body, as(ann)...).expect(t, http.StatusUnprocessableEntity, want)
			})
		}
		malformed := map[string]any{"success": false, "message": "Malformed JSON body."}
		h.do("POST", "/api/v1/posts/"+post+"/comments", `{"body":`, as(ann)...).expect(t, http.StatusBadRequest, malformed)
		h.do("PUT", comment, `["body"]`, as(ann)...).expect(t, http.StatusBadRequest, malformed)
		h.do("POST", "/api/v1/posts/"+post+"/comments", "body=x", as(ann, "Content-Type", "application/x-www-form-urlencoded")...).
			expect(t, http.StatusBadRequest, map[string]any{"message": "Unsupported content type."})

		// Exactly 5000 characters of a multi-byte letter fit, and unicode
		// comes back as sent.
		long := strings.Repeat("é", 5000)
		if got := v2Attr(h.commentOn(ann, post, long), "body"); got != long {
			t.Errorf("5000 characters: got %d bytes back", len(got.(string)))
		}
		uni := "日本語 ✓ 😀 العربية"
		if got := v2Attr(h.commentOn(ann, post, uni), "body"); got != uni {
			t.Errorf("unicode: got %q", got)
		}
		// The refused edits left the comment as it was.
		if got := h.do("GET", comment, nil, as(ann)...); v2Attr(got.body["data"].(map[string]any), "body") != "original" {
			t.Errorf("after refused edits: got %s", got.raw)
		}

		notFound := map[string]any{"success": false, "message": "Resource not found."}
		for _, id := range []string{"999999", "0", "-1", "+1", "abc", "1.5", "1e3", "99999999999999999999", "%00"} {
			path := "/api/v1/comments/" + id
			h.do("GET", path, nil, as(ann)...).expect(t, http.StatusNotFound, notFound)
			h.do("PUT", path, map[string]any{"body": "x"}, as(ann)...).expect(t, http.StatusNotFound, notFound)
			h.do("PATCH", path, map[string]any{"body": "x"}, as(ann)...).expect(t, http.StatusNotFound, notFound)
			h.do("DELETE", path, nil, as(ann)...).expect(t, http.StatusNotFound, notFound)
		}
		h.do("POST", comment, map[string]any{"body": "x"}, as(ann)...).expect(t, http.StatusMethodNotAllowed, map[string]any{"message": "Method Not Allowed"})
	})
}
