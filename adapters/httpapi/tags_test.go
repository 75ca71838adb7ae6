package httpapi_test

import (
	"net/http"
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
