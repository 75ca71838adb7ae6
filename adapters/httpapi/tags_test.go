package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestTags(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		h.do("GET", "/api/v1/tags", nil).expect(t, http.StatusOK, map[string]any{"data": []any{}})

		r := h.do("POST", "/api/v1/tags", map[string]any{"name": "  Go  "}, as(token)...)
		r.expect(t, http.StatusCreated, nil)
		goTag := r.body["data"].(map[string]any)
		want := map[string]any{"id": goTag["id"], "type": "tag", "attributes": map[string]any{"name": "Go", "slug": "go"}}
		if !equalJSON(goTag, want) {
			t.Errorf("create: got %s, want %s", r.raw, v1JSON(map[string]any{"data": want}))
		}
		for _, name := range []string{"rust", "API", "Élan", "Web Dev", "C++"} {
			h.v1Tag(token, name)
		}

		// Tags are listed by name, code point by code point, to anybody.
		r = h.do("GET", "/api/v1/tags", nil)
		r.expect(t, http.StatusOK, nil)
		var names, slugs []string
		for _, item := range r.body["data"].([]any) {
			names = append(names, v1Attrs(item)["name"].(string))
			slugs = append(slugs, v1Attrs(item)["slug"].(string))
		}
		if want := []string{"API", "C++", "Go", "Web Dev", "rust", "Élan"}; !equalJSON(names, want) {
			t.Errorf("list: got %q, want %q", names, want)
		}
		if want := []string{"api", "c", "go", "web-dev", "rust", "elan"}; !equalJSON(slugs, want) {
			t.Errorf("slugs: got %q, want %q", slugs, want)
		}

		taken := v1Invalid(map[string][]string{"name": {"The name has already been taken."}})
		for _, name := range []string{"Go", "go", " GO ", "élan", "ÉLAN"} {
			h.do("POST", "/api/v1/tags", map[string]any{"name": name}, as(token)...).expect(t, http.StatusUnprocessableEntity, taken)
		}
		for _, tc := range []struct {
			name string
			body any
			want map[string][]string
		}{
			{"missing", map[string]any{}, map[string][]string{"name": {"The name field is required."}}},
			{"blank", map[string]any{"name": "   "}, map[string][]string{"name": {"The name field is required."}}},
			{"not a string", map[string]any{"name": 5}, map[string][]string{"name": {"The name field must be a string."}}},
			{"too long", map[string]any{"name": strings.Repeat("é", 51)}, map[string][]string{"name": {"The name field must not be greater than 50 characters."}}},
			{"NUL byte", map[string]any{"name": "a\x00"}, map[string][]string{"name": {"The name field must not contain null bytes."}}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h.do("POST", "/api/v1/tags", tc.body, as(token)...).expect(t, http.StatusUnprocessableEntity, v1Invalid(tc.want))
			})
		}
		h.do("POST", "/api/v1/tags", map[string]any{"name": strings.Repeat("é", 50)}, as(token)...).expect(t, http.StatusCreated, nil)
		h.do("POST", "/api/v1/tags", `{"name":`, as(token)...).expect(t, http.StatusBadRequest, map[string]any{"success": false, "message": "Malformed JSON body."})
		h.do("POST", "/api/v1/tags", map[string]any{"name": "Anonymous"}).expect(t, http.StatusUnauthorized, map[string]any{"success": false, "message": "Unauthenticated."})
		if n := len(h.do("GET", "/api/v1/tags", nil).body["data"].([]any)); n != 7 {
			t.Errorf("tags after the failures: got %d, want 7", n)
		}
	})
}

func TestTagsCreatedConcurrently(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		var wg sync.WaitGroup
		statuses := make([]int, 10)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := "Race"
				if i%2 == 1 {
					name = "RACE"
				}
				statuses[i] = h.do("POST", "/api/v1/tags", map[string]any{"name": name}, as(token)...).status
			}()
		}
		wg.Wait()
		count := map[int]int{}
		for _, s := range statuses {
			count[s]++
		}
		if count[http.StatusCreated] != 1 || count[http.StatusUnprocessableEntity] != 9 {
			t.Errorf("got statuses %v, want one 201 and nine 422", count)
		}
	})
}

// admin gives the account id admin rights, as inkwell admin grant does.
func (h *harness) admin(id float64) {
	h.t.Helper()
	if err := h.store.Repos().Admin.SetAdmin(h.t.Context(), int64(id), true); err != nil {
		h.t.Fatal(err)
	}
}

// narrowToken issues a token of the account of token holding abilities.
func (h *harness) narrowToken(token string, abilities ...string) string {
	h.t.Helper()
	r := h.do("POST", "/api/v1/tokens", map[string]any{"name": "narrow", "abilities": abilities}, as(token)...)
	if r.status != http.StatusCreated {
		h.t.Fatalf("issue a token of %v: got %d %s", abilities, r.status, r.raw)
	}
	return r.body["token"].(string)
}

// tagNames lists the names of the tags the API lists.
func (h *harness) tagNames(t *testing.T) []string {
	t.Helper()
	r := h.do("GET", "/api/v1/tags", nil)
	r.expect(t, http.StatusOK, nil)
	var names []string
	for _, item := range r.body["data"].([]any) {
		names = append(names, v1Attrs(item)["name"].(string))
	}
	return names
}

// TestTagsRenamedAndDeletedByAdmins: an admin renames a tag (validated as
// at creation, a taken name refused) and deletes one, which leaves its
// posts; nobody else may, whatever their token holds.
func TestTagsRenamedAndDeletedByAdmins(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		root, rootID := h.v1Account("Root")
		h.admin(rootID)
		ann, _ := h.v1Account("Ann")
		goID := h.v1Tag(ann, "Go")
		rustID := h.v1Tag(ann, "Rust")
		post := h.v1Post(ann, map[string]any{"title": "Hello", "body": "B", "status": "published", "tags": []any{goID, rustID}})
		goPath := "/api/v1/tags/" + jsonNumber(goID)
		rustPath := "/api/v1/tags/" + jsonNumber(rustID)

		unauthorized := map[string]any{"success": false, "message": "This action is unauthorized."}
		invalidAbility := map[string]any{"success": false, "message": "Invalid ability provided."}
		for _, tc := range []struct {
			name    string
			headers []string
			status  int
			want    map[string]any
		}{
			{"anonymous", nil, http.StatusUnauthorized, map[string]any{"success": false, "message": "Unauthenticated."}},
			{"a user's * token", as(ann), http.StatusForbidden, unauthorized},
			{"a user's tags:write token", as(h.narrowToken(ann, "tags:write")), http.StatusForbidden, unauthorized},
			{"the admin's read-only token", as(h.narrowToken(root, "posts:read")), http.StatusForbidden, invalidAbility},
			{"the admin's comments:write token", as(h.narrowToken(root, "comments:write")), http.StatusForbidden, invalidAbility},
		} {
			// The refusal comes before the body is looked at.
			h.do("PUT", goPath, map[string]any{"name": ""}, tc.headers...).expect(t, tc.status, tc.want)
			h.do("DELETE", goPath, nil, tc.headers...).expect(t, tc.status, tc.want)
		}

		for _, tc := range []struct {
			name string
			body any
			want map[string][]string
		}{
			{"missing", map[string]any{}, map[string][]string{"name": {"The name field is required."}}},
			{"blank", map[string]any{"name": "  "}, map[string][]string{"name": {"The name field is required."}}},
			{"not a string", map[string]any{"name": 5}, map[string][]string{"name": {"The name field must be a string."}}},
			{"too long", map[string]any{"name": strings.Repeat("é", 51)}, map[string][]string{"name": {"The name field must not be greater than 50 characters."}}},
			{"another tag's", map[string]any{"name": " rust "}, map[string][]string{"name": {"The name has already been taken."}}},
		} {
			h.do("PUT", goPath, tc.body, as(root)...).expect(t, http.StatusUnprocessableEntity, v1Invalid(tc.want))
		}
		notFound := map[string]any{"success": false, "message": "Resource not found."}
		for _, path := range []string{"/api/v1/tags/424242", "/api/v1/tags/abc", "/api/v1/tags/0"} {
			h.do("PUT", path, map[string]any{"name": "X"}, as(root)...).expect(t, http.StatusNotFound, notFound)
			h.do("DELETE", path, nil, as(root)...).expect(t, http.StatusNotFound, notFound)
		}
		if got, want := h.tagNames(t), []string{"Go", "Rust"}; !slices.Equal(got, want) {
			t.Fatalf("tags after the refusals: got %q, want %q", got, want)
		}

		// The admin's tags:write token renames, the session-less login
		// token of every ability deletes.
		r := h.do("PUT", goPath, map[string]any{"name": " Go Lang "}, as(h.narrowToken(root, "tags:write"))...)
		r.expect(t, http.StatusOK, map[string]any{"data": map[string]any{"id": goID, "type": "tag", "attributes": map[string]any{"name": "Go Lang", "slug": "go-lang"}}})
		h.do("PUT", goPath, map[string]any{"name": "GO LANG"}, as(root)...).expect(t, http.StatusOK, nil)
		show := h.do("GET", "/api/v1/posts/"+jsonNumber(post["id"]), nil)
		show.expect(t, http.StatusOK, nil)
		if !strings.Contains(string(show.raw), `"GO LANG"`) {
			t.Errorf("the post after the rename: %s", show.raw)
		}
		h.do("DELETE", rustPath, nil, as(root)...).expect(t, http.StatusOK, map[string]any{"message": "Tag deleted."})
		h.do("DELETE", rustPath, nil, as(root)...).expect(t, http.StatusNotFound, notFound)
		if got, want := h.tagNames(t), []string{"GO LANG"}; !slices.Equal(got, want) {
			t.Errorf("tags after the changes: got %q, want %q", got, want)
		}
		show = h.do("GET", "/api/v1/posts/"+jsonNumber(post["id"]), nil)
		if tags := show.body["data"].(map[string]any)["relationships"].(map[string]any)["tags"]; !strings.Contains(string(show.raw), `"GO LANG"`) || strings.Contains(string(show.raw), "Rust") {
			t.Errorf("the post's tags after the delete: %v", tags)
		}
	})
}

// TestCacheEvictsChangedTags: a renamed or deleted tag leaves no cached
// answer that shows it, the tag list and a post's page alike.
func TestCacheEvictsChangedTags(t *testing.T) {
	forEachStoreCached(t, func(t *testing.T, h *harness) {
		root, rootID := h.v1Account("Root")
		h.admin(rootID)
		goID := h.v1Tag(root, "Go")
		post := jsonNumber(h.v1Post(root, map[string]any{"title": "Tagged", "body": "B", "status": "published", "tags": []any{goID}})["id"])
		for _, path := range []string{"/api/v1/tags", "/api/v1/posts/" + post, "/api/v1/posts"} {
			wantCache(t, h.do("GET", path, nil), "MISS")
			wantCache(t, h.do("GET", path, nil), "HIT")
		}
		h.do("PUT", "/api/v1/tags/"+jsonNumber(goID), map[string]any{"name": "Golang"}, as(root)...).expect(t, http.StatusOK, nil)
		for _, path := range []string{"/api/v1/tags", "/api/v1/posts/" + post, "/api/v1/posts"} {
			r := h.do("GET", path, nil)
			if r.xCache() != "MISS" || !strings.Contains(string(r.raw), "Golang") {
				t.Errorf("%s after the rename: X-Cache %q, %s", path, r.xCache(), r.raw)
			}
			wantCache(t, h.do("GET", path, nil), "HIT")
		}
		h.do("DELETE", "/api/v1/tags/"+jsonNumber(goID), nil, as(root)...).expect(t, http.StatusOK, nil)
		for _, path := range []string{"/api/v1/tags", "/api/v1/posts/" + post, "/api/v1/posts"} {
			if r := h.do("GET", path, nil); r.xCache() != "MISS" || strings.Contains(string(r.raw), "Golang") {
				t.Errorf("%s after the delete: X-Cache %q, %s", path, r.xCache(), r.raw)
			}
		}
	})
}
