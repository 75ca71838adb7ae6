package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/domain"
)

// v1Account registers name (e-mail name@example.com) and returns its
// token, which holds every ability, and its user id.
func (h *harness) v1Account(name string) (string, float64) {
	h.t.Helper()
	email := strings.ToLower(name) + "@example.com"
	r := h.do("POST", "/api/v1/register", map[string]any{
		"name": name, "email": email, "password": "password1", "password_confirmation": "password1",
	})
	if r.status != http.StatusCreated {
		h.t.Fatalf("register %s: got %d %s, want 201", name, r.status, r.raw)
	}
	return r.body["token"].(string), r.body["user"].(map[string]any)["id"].(float64)
}

// v1ReadOnly logs name in, which revokes its earlier tokens, and returns
// the login token and a token holding posts:read only, made from it.
func (h *harness) v1ReadOnly(name string) (login, readOnly string) {
	h.t.Helper()
	login = h.login(strings.ToLower(name)+"@example.com", "password1")
	r := h.do("POST", "/api/v1/tokens", map[string]any{"name": "reader", "abilities": []any{"posts:read"}}, as(login)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("create read-only token: got %d %s, want 201", r.status, r.raw)
	}
	return login, r.body["token"].(string)
}

// v1Tag creates a tag and returns its id.
func (h *harness) v1Tag(token, name string) float64 {
	h.t.Helper()
	r := h.do("POST", "/api/v1/tags", map[string]any{"name": name}, as(token)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("create tag %q: got %d %s, want 201", name, r.status, r.raw)
	}
	return r.body["data"].(map[string]any)["id"].(float64)
}

// v1Post creates a post and returns its representation.
func (h *harness) v1Post(token string, fields map[string]any) map[string]any {
	h.t.Helper()
	r := h.do("POST", "/api/v1/posts", fields, as(token)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("create post %v: got %d %s, want 201", fields, r.status, r.raw)
	}
	return r.body["data"].(map[string]any)
}

// v1NewPost creates a post with a body and returns its id as a path
// segment.
func (h *harness) v1NewPost(token, title, status string) string {
	h.t.Helper()
	return jsonNumber(h.v1Post(token, map[string]any{"title": title, "body": "Body of " + title, "status": status})["id"])
}

// v1Attrs returns the attributes of a representation.
func v1Attrs(item any) map[string]any {
	return item.(map[string]any)["attributes"].(map[string]any)
}

// v1Titles lists the titles of a post list.
func v1Titles(t *testing.T, r response) []string {
	t.Helper()
	items, ok := r.body["data"].([]any)
	if !ok {
		t.Fatalf("data is not a list: %s", r.raw)
	}
	titles := make([]string, len(items))
	for i, item := range items {
		titles[i] = v1Attrs(item)["title"].(string)
	}
	return titles
}

// v1Invalid is area A's validation failure body.
func v1Invalid(errs map[string][]string) map[string]any {
	return map[string]any{"success": false, "message": "Validation failed.", "errors": errs}
}

func TestPostRepresentation(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, uid := h.v1Account("Ann")
		goTag := h.v1Tag(token, "Go")
		apiTag := h.v1Tag(token, "API")
		body := "<p>Hello   <b>there</b></p>\n world"
		r := h.do("POST", "/api/v1/posts", map[string]any{
			"title": "  Hello, World  ", "body": body, "status": "published", "tags": []any{goTag, apiTag},
			"user_id": 999, "slug": "chosen", "published_at": "2000-01-01T00:00:00Z",
		}, as(token)...)
		r.expect(t, http.StatusCreated, nil)
		post := r.body["data"].(map[string]any)
		id := jsonNumber(post["id"])
		now := "2026-11-20T10:00:00.000000Z"
		author := map[string]any{"id": uid, "type": "user", "attributes": map[string]any{"name": "Ann", "avatar_url": nil}}
		tags := []any{
			map[string]any{"id": apiTag, "type": "tag", "attributes": map[string]any{"name": "API", "slug": "api"}},
			map[string]any{"id": goTag, "type": "tag", "attributes": map[string]any{"name": "Go", "slug": "go"}},
		}
		attributes := map[string]any{
			"title": "Hello, World", "slug": "hello-world", "excerpt": "Hello there world", "body": body,
			"status": "published", "image_url": nil, "published_at": now, "created_at": now, "updated_at": now,
		}
		want := map[string]any{
			"id": post["id"], "type": "post", "attributes": attributes,
			"relationships": map[string]any{"author": author, "tags": tags},
			"links":         map[string]any{"self": "http://example.com/api/v1/posts/" + id},
		}
		if !equalJSON(post, want) {
			t.Errorf("create: got %s,\nwant %s", r.raw, v1JSON(map[string]any{"data": want}))
		}

		// The single read adds the comments, oldest first, each with its
		// author and without an e-mail.
		ctx := context.Background()
		postID := int64(post["id"].(float64))
		for i, text := range []string{"First!", "Second"} {
			at := start.Add(time.Duration(i) * time.Minute)
			c := domain.Comment{PostID: postID, UserID: int64(uid), Body: text, CreatedAt: at, UpdatedAt: at}
			if err := h.store.Repos().Comments.Create(ctx, &c); err != nil {
				t.Fatal(err)
			}
		}
		show := h.do("GET", "/api/v1/posts/"+id, nil)
		show.expect(t, http.StatusOK, nil)
		got := show.body["data"].(map[string]any)
		comments, _ := got["relationships"].(map[string]any)["comments"].([]any)
		if len(comments) != 2 {
			t.Fatalf("show: got comments %v, want 2 (%s)", comments, show.raw)
		}
		first := comments[0].(map[string]any)
		if v1Attrs(first)["body"] != "First!" || !equalJSON(first["relationships"].(map[string]any)["author"], author) ||
			first["type"] != "comment" || first["links"].(map[string]any)["self"] != "http://example.com/api/v1/comments/"+jsonNumber(first["id"]) {
			t.Errorf("show: first comment %s", v1JSON(first))
		}
		delete(got["relationships"].(map[string]any), "comments")
		if !equalJSON(got, want) {
			t.Errorf("show: got %s,\nwant %s plus comments", show.raw, v1JSON(map[string]any{"data": want}))
		}
		if strings.Contains(string(show.raw), "@example.com") {
			t.Errorf("show leaks an e-mail: %s", show.raw)
		}

		// A list item is the same without the body.
		list := h.do("GET", "/api/v1/posts", nil)
		list.expect(t, http.StatusOK, nil)
		delete(attributes, "body")
		if items := list.body["data"].([]any); len(items) != 1 || !equalJSON(items[0], want) {
			t.Errorf("list: got %s,\nwant one item %s", list.raw, v1JSON(want))
		}

	})
}

// v1JSON renders v for failure messages.
func v1JSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func TestPostCreateValidation(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		tag := h.v1Tag(token, "Go")
		valid := func(extra map[string]any) map[string]any {
			out := map[string]any{"title": "T", "body": "B", "status": "draft"}
			for k, v := range extra {
				if v == nil {
					delete(out, k)
					continue
				}
				out[k] = v
			}
			return out
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
			{"blank and null", map[string]any{"title": "   ", "body": nil, "status": ""}, map[string][]string{
				"title":  {"The title field is required."},
				"body":   {"The body field is required."},
				"status": {"The status field is required."},
			}},
			{"wrong types", map[string]any{"title": 5, "body": []any{"x"}, "status": true, "tags": "1"}, map[string][]string{
				"title":  {"The title field must be a string."},
				"body":   {"The body field must be a string."},
				"status": {"The status field must be a string."},
				"tags":   {"The tags field must be an array."},
			}},
			{"unknown status", valid(map[string]any{"status": "archived"}), map[string][]string{
				"status": {"The selected status is invalid."},
			}},
			{"status is case-sensitive", valid(map[string]any{"status": "Published"}), map[string][]string{
				"status": {"The selected status is invalid."},
			}},
			{"title too long", valid(map[string]any{"title": strings.Repeat("é", 256)}), map[string][]string{
				"title": {"The title field must not be greater than 255 characters."},
			}},
			{"NUL bytes", valid(map[string]any{"title": "a\x00b", "body": "\x00"}), map[string][]string{
				"title": {"The title field must not contain null bytes."},
				"body":  {"The body field must not contain null bytes."},
			}},
			{"tags that are not integers", valid(map[string]any{"tags": []any{1.5, map[string]any{"a": 1}, "x", nil, tag}}), map[string][]string{
				"tags.0": {"The tags.0 field must be an integer."},
				"tags.1": {"The tags.1 field must be an integer."},
				"tags.2": {"The tags.2 field must be an integer."},
				"tags.3": {"The tags.3 field must be an integer."},
			}},
			{"tags that name no tag", valid(map[string]any{"tags": []any{tag, 999999, 0, -1, "9223372036854775807"}}), map[string][]string{
				"tags.1": {"The selected tags.1 is invalid."},
				"tags.2": {"The selected tags.2 is invalid."},
				"tags.3": {"The selected tags.3 is invalid."},
				"tags.4": {"The selected tags.4 is invalid."},
			}},
			{"tags that overflow", valid(map[string]any{"tags": []any{"12345678901234567890", 1e300}}), map[string][]string{
				"tags.0": {"The tags.0 field must be an integer."},
				"tags.1": {"The tags.1 field must be an integer."},
			}},
			{"too many tags", valid(map[string]any{"tags": v1Repeat(tag, 101)}), map[string][]string{
				"tags": {"The tags field must not have more than 100 items."},
			}},
			{"an object for tags", valid(map[string]any{"tags": map[string]any{"0": tag}}), map[string][]string{
				"tags": {"The tags field must be an array."},
			}},
			{"an image that is not a file", valid(map[string]any{"image": "data:image/png;base64,AAAA"}), map[string][]string{
				"image": {"The image field must be an image.", "The image field must be a file of type: jpeg, png, gif, webp."},
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := h.do("POST", "/api/v1/posts", tc.body, as(token)...)
				r.expect(t, http.StatusUnprocessableEntity, v1Invalid(tc.want))
			})
		}
		// The non-integer elements are reported first; the ids that name no
		// tag once the request is otherwise valid.
		h.do("POST", "/api/v1/posts", valid(map[string]any{"tags": []any{"abc", 999999}}), as(token)...).
			expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"tags.0": {"The tags.0 field must be an integer."}}))

		// Nothing was stored by the failures.
		if got := v1Titles(t, h.do("GET", "/api/v1/posts?status=draft", nil, as(token)...)); len(got) != 0 {
			t.Errorf("posts after failed creates: %v", got)
		}

		// Tags may be null, empty, repeated or numeric strings.
		for _, tags := range []any{nil, []any{}, []any{tag, tag}, []any{jsonNumber(tag)}} {
			body := valid(map[string]any{})
			body["tags"] = tags
			r := h.do("POST", "/api/v1/posts", body, as(token)...)
			r.expect(t, http.StatusCreated, nil)
			got := r.body["data"].(map[string]any)["relationships"].(map[string]any)["tags"].([]any)
			wantLen := 1
			if tags == nil || len(tags.([]any)) == 0 {
				wantLen = 0
			}
			if len(got) != wantLen {
				t.Errorf("tags %v: got %s, want %d tags", tags, r.raw, wantLen)
			}
		}
	})
}

func TestPostMalformedBodies(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		id := h.v1NewPost(token, "Kept", "draft")
		for _, tc := range []struct {
			name, body, contentType string
			want                    string
		}{
			{"truncated JSON", `{"title":`, "application/json", "Malformed JSON body."},
			{"a list", `[{"title":"x"}]`, "application/json", "Malformed JSON body."},
			{"trailing data", `{"title":"x"} {}`, "application/json", "Malformed JSON body."},
			{"a form", `title=x`, "application/x-www-form-urlencoded", "Unsupported content type."},
			{"multipart without a boundary", "--x\r\n", "multipart/form-data", "Malformed multipart body."},
			{"multipart cut short", "--x\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nabc", "multipart/form-data; boundary=x", "Malformed multipart body."},
		} {
			t.Run(tc.name, func(t *testing.T) {
				for _, req := range []struct{ method, path string }{{"POST", "/api/v1/posts"}, {"PUT", "/api/v1/posts/" + id}} {
					r := h.do(req.method, req.path, tc.body, as(token, "Content-Type", tc.contentType)...)
					r.expect(t, http.StatusBadRequest, map[string]any{"success": false, "message": tc.want})
				}
			})
		}
	})
}

func TestPostSlugsExcerptsAndStatus(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		var slugs []string
		for _, title := range []string{"Hello World", "hello, world!", "HELLO   WORLD", "Café Olé", "日本語", "!!!"} {
			slugs = append(slugs, v1Attrs(h.v1Post(token, map[string]any{"title": title, "body": "b", "status": "draft"}))["slug"].(string))
		}
		want := []string{"hello-world", "hello-world-2", "hello-world-3", "cafe-ole", "post", "post-2"}
		if !equalJSON(slugs, want) {
			t.Errorf("slugs: got %q, want %q", slugs, want)
		}

		long := strings.Repeat("word ", 40)
		post := h.v1Post(token, map[string]any{"title": "Status", "body": long, "status": "draft"})
		id := jsonNumber(post["id"])
		if a := v1Attrs(post); a["published_at"] != nil || a["excerpt"] != strings.TrimSpace(long[:150])+"..." {
			t.Errorf("draft: got %v", a)
		}

		// Retitling keeps the slug; a new body makes a new excerpt;
		// publishing stamps published_at and going back to draft clears it.
		h.clock.Advance(time.Hour)
		r := h.do("PUT", "/api/v1/posts/"+id, map[string]any{"title": "Renamed", "body": "New <i>text</i>", "status": "published"}, as(token)...)
		r.expect(t, http.StatusOK, nil)
		later := "2026-11-20T11:00:00.000000Z"
		a := v1Attrs(r.body["data"])
		for k, v := range map[string]any{
			"title": "Renamed", "slug": "status", "excerpt": "New text", "body": "New <i>text</i>",
			"status": "published", "published_at": later, "updated_at": later, "created_at": "2026-11-20T10:00:00.000000Z",
		} {
			if a[k] != v {
				t.Errorf("after update %s: got %v, want %v", k, a[k], v)
			}
		}
		h.clock.Advance(time.Hour)
		r = h.do("PUT", "/api/v1/posts/"+id, map[string]any{"status": "published"}, as(token)...)
		if a := v1Attrs(r.body["data"]); a["published_at"] != later {
			t.Errorf("publishing again: published_at %v, want %v kept", a["published_at"], later)
		}
		r = h.do("PUT", "/api/v1/posts/"+id, map[string]any{"status": "draft"}, as(token)...)
		if a := v1Attrs(r.body["data"]); a["published_at"] != nil || a["status"] != "draft" {
			t.Errorf("back to draft: got %v", a)
		}
		// The slug of a post that was renamed stays taken.
		if s := v1Attrs(h.v1Post(token, map[string]any{"title": "Status", "body": "b", "status": "draft"}))["slug"]; s != "status-2" {
			t.Errorf("slug of a second post titled Status: got %v, want status-2", s)
		}
	})
}

func TestPostUpdate(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		tag := h.v1Tag(token, "Go")
		other := h.v1Tag(token, "Rust")
		post := h.v1Post(token, map[string]any{"title": "Title", "body": "Body", "status": "draft", "tags": []any{tag}})
		id := jsonNumber(post["id"])

		// Tags are not this route's business, even when sent; nothing else
		// changes when nothing is sent.
		for _, body := range []any{nil, map[string]any{}, map[string]any{"tags": []any{other}}, map[string]any{"tags": "junk"}} {
			r := h.do("PUT", "/api/v1/posts/"+id, body, as(token)...)
			r.expect(t, http.StatusOK, nil)
			got := r.body["data"].(map[string]any)
			if !equalJSON(got["relationships"].(map[string]any)["tags"], post["relationships"].(map[string]any)["tags"]) ||
				!equalJSON(got["attributes"], post["attributes"]) {
				t.Errorf("update with %v: got %s, want %s", body, r.raw, v1JSON(post))
			}
		}

		// A field is validated only when present, and then may not be blank.
		for _, tc := range []struct {
			name string
			body map[string]any
			want map[string][]string
		}{
			{"blank", map[string]any{"title": "", "body": "  ", "status": nil}, map[string][]string{
				"title":  {"The title field is required."},
				"body":   {"The body field is required."},
				"status": {"The status field is required."},
			}},
			{"wrong", map[string]any{"title": strings.Repeat("x", 256), "body": 3, "status": "gone", "remove_image": "maybe"}, map[string][]string{
				"title":        {"The title field must not be greater than 255 characters."},
				"body":         {"The body field must be a string."},
				"status":       {"The selected status is invalid."},
				"remove_image": {"The remove image field must be true or false."},
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h.do("PUT", "/api/v1/posts/"+id, tc.body, as(token)...).expect(t, http.StatusUnprocessableEntity, v1Invalid(tc.want))
			})
		}

		r := h.do("PUT", "/api/v1/posts/"+id, map[string]any{"body": "Only the body"}, as(token)...)
		r.expect(t, http.StatusOK, nil)
		if a := v1Attrs(r.body["data"]); a["title"] != "Title" || a["body"] != "Only the body" || a["status"] != "draft" {
			t.Errorf("partial update: got %v", a)
		}
		h.do("GET", "/api/v1/posts/"+id, nil, as(token)...).expect(t, http.StatusOK, nil)
	})
}

func TestPostAuthorization(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.v1Account("Owner")
		owner, readOnly := h.v1ReadOnly("Owner")
		other, _ := h.v1Account("Other")
		published := h.v1NewPost(owner, "Owner published", "published")
		h.clock.Advance(time.Minute)
		draft := h.v1NewPost(owner, "Owner draft", "draft")
		h.clock.Advance(time.Minute)
		otherDraft := h.v1NewPost(other, "Other draft", "draft")

		unauthenticated := map[string]any{"success": false, "message": "Unauthenticated."}
		unauthorized := map[string]any{"success": false, "message": "This action is unauthorized."}
		notFound := map[string]any{"success": false, "message": "Resource not found."}

		// Visibility: anonymous callers never see a draft; a caller also
		// sees their own drafts, whatever their token's abilities.
		for _, tc := range []struct {
			name    string
			headers []string
			list    []string
			visible map[string]bool
		}{
			{"anonymous", nil, []string{"Owner published"}, map[string]bool{published: true}},
			{"bad token", as("1|nonsense"), []string{"Owner published"}, map[string]bool{published: true}},
			{"owner", as(owner), []string{"Owner draft", "Owner published"}, map[string]bool{published: true, draft: true}},
			{"read-only owner", as(readOnly), []string{"Owner draft", "Owner published"}, map[string]bool{published: true, draft: true}},
			{"other", as(other), []string{"Other draft", "Owner published"}, map[string]bool{published: true, otherDraft: true}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := h.do("GET", "/api/v1/posts", nil, tc.headers...)
				r.expect(t, http.StatusOK, nil)
				if got := v1Titles(t, r); !equalJSON(got, tc.list) {
					t.Errorf("list: got %q, want %q", got, tc.list)
				}
				for _, id := range []string{published, draft, otherDraft} {
					r := h.do("GET", "/api/v1/posts/"+id, nil, tc.headers...)
					if tc.visible[id] {
						r.expect(t, http.StatusOK, nil)
					} else {
						r.expect(t, http.StatusNotFound, notFound)
					}
				}
			})
		}

		// Creating needs posts:write; the refusal carries a message only.
		r := h.do("POST", "/api/v1/posts", map[string]any{"title": "T", "body": "B", "status": "draft"}, as(readOnly)...)
		if r.status != http.StatusForbidden || string(r.raw) != `{"message":"This token does not have permission to create posts."}` {
			t.Errorf("create with a read-only token: got %d %s", r.status, r.raw)
		}
		// The ability is checked before the body is.
		r = h.do("POST", "/api/v1/posts", `{"title":`, as(readOnly)...)
		r.expect(t, http.StatusForbidden, map[string]any{"message": "This token does not have permission to create posts."})
		h.do("POST", "/api/v1/posts", map[string]any{"title": "T", "body": "B", "status": "draft"}).expect(t, http.StatusUnauthorized, unauthenticated)

		// Updating and deleting need ownership; another user's draft does
		// not exist for them.
		change := map[string]any{"title": "Hijacked"}
		h.do("PUT", "/api/v1/posts/"+published, change).expect(t, http.StatusUnauthorized, unauthenticated)
		h.do("PUT", "/api/v1/posts/"+published, change, as(other)...).expect(t, http.StatusForbidden, unauthorized)
		h.do("PUT", "/api/v1/posts/"+draft, change, as(other)...).expect(t, http.StatusNotFound, notFound)
		h.do("DELETE", "/api/v1/posts/"+published, nil).expect(t, http.StatusUnauthorized, unauthenticated)
		h.do("DELETE", "/api/v1/posts/"+published, nil, as(other)...).expect(t, http.StatusForbidden, unauthorized)
		h.do("DELETE", "/api/v1/posts/"+draft, nil, as(other)...).expect(t, http.StatusNotFound, notFound)
		// A token without posts:write changes nothing, not even its owner's.
		invalidAbility := map[string]any{"success": false, "message": "Invalid ability provided."}
		h.do("PUT", "/api/v1/posts/"+published, change, as(readOnly)...).expect(t, http.StatusForbidden, invalidAbility)
		h.do("DELETE", "/api/v1/posts/"+published, nil, as(readOnly)...).expect(t, http.StatusForbidden, invalidAbility)
		if a := v1Attrs(h.do("GET", "/api/v1/posts/"+published, nil).body["data"]); a["title"] != "Owner published" {
			t.Errorf("after refused updates: title %v", a["title"])
		}

		h.do("PUT", "/api/v1/posts/"+otherDraft, map[string]any{"status": "published"}, as(other)...).expect(t, http.StatusOK, nil)
		h.do("DELETE", "/api/v1/posts/"+draft, nil, as(owner)...).expect(t, http.StatusOK, map[string]any{"message": "Post deleted successfully."})
		h.do("GET", "/api/v1/posts/"+draft, nil, as(owner)...).expect(t, http.StatusNotFound, notFound)
		h.do("DELETE", "/api/v1/posts/"+draft, nil, as(owner)...).expect(t, http.StatusNotFound, notFound)
		h.do("PUT", "/api/v1/posts/"+draft, change, as(owner)...).expect(t, http.StatusNotFound, notFound)
		if got := v1Titles(t, h.do("GET", "/api/v1/posts", nil)); !equalJSON(got, []string{"Other draft", "Owner published"}) {
			t.Errorf("list after publish and delete: got %q", got)
		}
	})
}

func TestPostIDsThatNameNothing(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		h.v1NewPost(token, "One", "published")
		notFound := map[string]any{"success": false, "message": "Resource not found."}
		for _, id := range []string{"abc", "0", "-1", "+1", "1.0", "1e0", "99999999999999999999", "9223372036854775807", "%31", "1%00"} {
			for _, method := range []string{"GET", "PUT", "DELETE"} {
				r := h.do(method, "/api/v1/posts/"+id, map[string]any{"title": "x"}, as(token)...)
				if r.status != http.StatusNotFound || !equalJSON(r.body, notFound) {
					t.Errorf("%s /api/v1/posts/%s: got %d %s, want 404", method, id, r.status, r.raw)
				}
			}
		}
	})
}

func TestPostList(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v1Account("Ann")
		bob, _ := h.v1Account("Bob")
		tag := h.v1Tag(ann, "Go")
		titles := []string{"Go Tips", "go tricks", "100% Go", "Under_score", "Plain", "Café Olé", "Fifty-Fifty"}
		for i, title := range titles {
			token := ann
			if i%2 == 1 {
				token = bob
			}
			h.v1Post(token, map[string]any{"title": title, "body": "Body", "status": "published", "tags": []any{tag}})
			h.clock.Advance(time.Minute)
		}
		h.v1NewPost(ann, "Go draft", "draft")

		newestFirst := []string{"Fifty-Fifty", "Café Olé", "Plain", "Under_score", "100% Go", "go tricks", "Go Tips"}
		r := h.do("GET", "/api/v1/posts", nil)
		r.expect(t, http.StatusOK, nil)
		if got := v1Titles(t, r); !equalJSON(got, newestFirst) {
			t.Errorf("list: got %q, want %q", got, newestFirst)
		}
		for _, item := range r.body["data"].([]any) {
			a := v1Attrs(item)
			rel := item.(map[string]any)["relationships"].(map[string]any)
			if _, ok := a["body"]; ok {
				t.Errorf("list item carries the body: %v", a)
			}
			if rel["author"] == nil || len(rel["tags"].([]any)) != 1 {
				t.Errorf("list item without author or tags: %v", rel)
			}
		}
		meta := r.body["meta"].(map[string]any)
		if meta["api_version"] != "v1" || meta["per_page"] != 15.0 || meta["total"] != 7.0 || meta["current_page"] != 1.0 {
			t.Errorf("meta: got %v", meta)
		}

		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"search=go", []string{"100% Go", "go tricks", "Go Tips"}},
			{"search=GO+T", []string{"go tricks", "Go Tips"}},
			{"search=%25", []string{"100% Go"}},
			{"search=G%25s", []string{}},
			{"search=_", []string{"Under_score"}},
			{"search=a_n", []string{}},
			{"search=CAF%C3%89", []string{"Café Olé"}},
			{"search=fifty", []string{"Fifty-Fifty"}},
			{"search=++go++", []string{"100% Go", "go tricks", "Go Tips"}},
			{"search=&status=", newestFirst},
			{"status=published&search=tips", []string{"Go Tips"}},
			{"status=draft", []string{}},
		} {
			r := h.do("GET", "/api/v1/posts?"+tc.query, nil)
			r.expect(t, http.StatusOK, nil)
			if got := v1Titles(t, r); !equalJSON(got, tc.want) {
				t.Errorf("?%s: got %q, want %q", tc.query, got, tc.want)
			}
		}
		r = h.do("GET", "/api/v1/posts?status=draft", nil, as(ann)...)
		if got := v1Titles(t, r); !equalJSON(got, []string{"Go draft"}) {
			t.Errorf("own drafts: got %q", got)
		}

		// Pages: Laravel's links and meta, keeping the other parameters.
		r = h.do("GET", "/api/v1/posts?per_page=2&page=2&search=o", nil)
		r.expect(t, http.StatusOK, nil)
		if got := v1Titles(t, r); !equalJSON(got, []string{"100% Go", "go tricks"}) {
			t.Errorf("page 2: got %q", got)
		}
		base := "http://example.com/api/v1/posts?"
		links := map[string]any{
			"first": base + "page=1&per_page=2&search=o", "last": base + "page=3&per_page=2&search=o",
			"prev": base + "page=1&per_page=2&search=o", "next": base + "page=3&per_page=2&search=o",
		}
		if !equalJSON(r.body["links"], links) {
			t.Errorf("links: got %v, want %v", r.body["links"], links)
		}
		meta = r.body["meta"].(map[string]any)
		for k, v := range map[string]any{"current_page": 2.0, "from": 3.0, "to": 4.0, "last_page": 3.0, "per_page": 2.0, "total": 5.0, "path": "http://example.com/api/v1/posts", "api_version": "v1"} {
			if meta[k] != v {
				t.Errorf("meta.%s: got %v, want %v", k, meta[k], v)
			}
		}
		r = h.do("GET", "/api/v1/posts?page=99", nil)
		if got := v1Titles(t, r); len(got) != 0 || r.body["meta"].(map[string]any)["from"] != nil {
			t.Errorf("a page past the end: got %s", r.raw)
		}
		for _, page := range []string{"0", "-3", "abc", "99999999999999999999"} {
			r := h.do("GET", "/api/v1/posts?per_page=100&page="+url.QueryEscape(page), nil)
			r.expect(t, http.StatusOK, nil)
			if cur := r.body["meta"].(map[string]any)["current_page"]; cur != 1.0 {
				t.Errorf("page=%s: current_page %v, want 1", page, cur)
			}
		}
		r = h.do("GET", "/api/v1/posts?per_page=1000000", nil)
		r.expect(t, http.StatusOK, nil)
		if pp := r.body["meta"].(map[string]any)["per_page"]; pp != 100.0 {
			t.Errorf("per_page=1000000: got per_page %v, want 100", pp)
		}

		for _, tc := range []struct {
			query string
			want  map[string][]string
		}{
			{"status=archived", map[string][]string{"status": {"The selected status is invalid."}}},
			{"status=Published", map[string][]string{"status": {"The selected status is invalid."}}},
			{"per_page=0", map[string][]string{"per_page": {"The per page field must be at least 1."}}},
			{"per_page=-5", map[string][]string{"per_page": {"The per page field must be at least 1."}}},
			{"per_page=abc", map[string][]string{"per_page": {"The per page field must be an integer."}}},
			{"per_page=1.5", map[string][]string{"per_page": {"The per page field must be an integer."}}},
			{"status=x&per_page=0", map[string][]string{
				"status":   {"The selected status is invalid."},
				"per_page": {"The per page field must be at least 1."},
			}},
			{"search=a%00b", map[string][]string{"search": {"The search field must not contain null bytes."}}},
			{"search=a%01b%7F", map[string][]string{"search": {"The search field must not contain control characters."}}},
			{"search=%ff%fe", map[string][]string{"search": {"The search field must be valid UTF-8."}}},
			{"search=" + strings.Repeat("q", 256), map[string][]string{"search": {"The search field must not be greater than 255 characters."}}},
		} {
			h.do("GET", "/api/v1/posts?"+tc.query, nil).expect(t, http.StatusUnprocessableEntity, v1Invalid(tc.want))
		}
	})
}

func TestPostListQueryCount(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		counter, ok := h.store.(interface{ Queries() int64 })
		if !ok {
			if _, isMemory := h.store.(*memory.Store); isMemory {
				t.Skip("the memory store sends no statements")
			}
			t.Fatalf("%T does not count its statements", h.store)
		}
		statements := func() int64 {
			before := counter.Queries()
			r := h.do("GET", "/api/v1/posts?per_page=30", nil)
			r.expect(t, http.StatusOK, nil)
			return counter.Queries() - before
		}
		var tokens []string
		var tags []float64
		seed := func(authors, tagCount, posts int) {
			for len(tokens) < authors {
				token, _ := h.v1Account(fmt.Sprintf("Author%d", len(tokens)))
				tokens = append(tokens, token)
			}
			for len(tags) < tagCount {
				tags = append(tags, h.v1Tag(tokens[0], fmt.Sprintf("Tag %d", len(tags))))
			}
			for i := range posts {
				h.v1Post(tokens[i%len(tokens)], map[string]any{
					"title": fmt.Sprintf("Post %d", i), "body": "Body", "status": "published",
					"tags": []any{tags[i%len(tags)], tags[(i+1)%len(tags)]},
				})
			}
		}
		seed(2, 2, 3)
		few := statements()
		seed(10, 8, 27)
		many := statements()
		if few != many || few == 0 {
			t.Errorf("statements to list a page: %d with 3 posts, %d with 30; want the same, more than 0", few, many)
		}
		t.Logf("a page of posts takes %d statements", many)
	})
}

// v1Repeat returns a list of n copies of v.
func v1Repeat(v any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// A title search finds the same posts whichever way the store reads its
// page (walking the list where matches are dense, reading the matches
// where they are few; see SearchEitherWay in the contract suite): a word
// in every other title, phrases in a few, across words, and decoys that
// hold a phrase's pieces but not the phrase, each asked twice, since the
// second may be answered from a kept total.
func TestPostSearchEitherWay(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v1Account("Ann")
		var titles []string // newest first
		for i := range 60 {
			title := fmt.Sprintf("Row %d", i)
			if i%2 == 0 {
				title = "Dense " + title
			}
			switch i {
			case 5, 40:
				title += " a lazy snapshot of it"
			case 6:
				title += " a lazy snapshot one of"
			case 7, 30, 55:
				title += " Graceful Worker"
			case 8:
				title += " graceful and worker"
			}
			h.v1Post(ann, map[string]any{"title": title, "body": "Body", "status": "published"})
			h.clock.Advance(time.Minute)
			titles = append([]string{title}, titles...)
		}
		for _, search := range []string{"dense row", "lazy snapshot of", "graceful worker", "ful wor", "y snapshot o", "nowhere"} {
			want := []string{}
			for _, title := range titles {
				if strings.Contains(strings.ToLower(title), search) {
					want = append(want, title)
				}
			}
			for range 2 {
				q := url.Values{"search": {search}, "per_page": {"15"}}
				r := h.do("GET", "/api/v1/posts?"+q.Encode(), nil)
				r.expect(t, http.StatusOK, nil)
				if got := v1Titles(t, r); !equalJSON(got, want[:min(15, len(want))]) {
					t.Errorf("search %q: got %q, want %q", search, got, want[:min(15, len(want))])
				}
				if total := r.body["meta"].(map[string]any)["total"]; total != float64(len(want)) {
					t.Errorf("search %q: total %v, want %d", search, total, len(want))
				}
				q.Set("per_page", "2")
				q.Set("page", "3")
				r = h.do("GET", "/api/v1/posts?"+q.Encode(), nil)
				r.expect(t, http.StatusOK, nil)
				page := want[min(4, len(want)):min(6, len(want))]
				if got := v1Titles(t, r); !equalJSON(got, page) {
					t.Errorf("search %q, page 3 of 2: got %q, want %q", search, got, page)
				}
			}
		}
	})
}
