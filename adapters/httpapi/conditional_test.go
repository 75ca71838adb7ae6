package httpapi_test

import (
	"net/http"
	"sync"
	"testing"
	"time"
)

// preconditionFailed is area A's 412.
var preconditionFailed = map[string]any{"success": false, "message": "Precondition Failed"}

// etagOf returns a response's ETag, failing the test when it has none.
func (r response) etagOf(t *testing.T) string {
	t.Helper()
	tag := r.header.Get("ETag")
	if len(tag) < 3 || tag[0] != '"' || tag[len(tag)-1] != '"' {
		t.Fatalf("ETag: got %q, want a strong tag (%d %s)", tag, r.status, r.raw)
	}
	return tag
}

// notModified checks a 304: no body, the tag again.
func (r response) notModified(t *testing.T, tag string) {
	t.Helper()
	if r.status != http.StatusNotModified || len(r.raw) != 0 || r.header.Get("ETag") != tag {
		t.Fatalf("got %d with ETag %q and body %q, want 304 with ETag %s and no body", r.status, r.header.Get("ETag"), r.raw, tag)
	}
}

func TestSingleResourcesAnswerIfNoneMatch(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		post := h.v2NewPost(ann, "Tagged", "published")
		comment := jsonNumber(h.commentOn(ann, post, "First")["id"])

		for _, path := range []string{"/api/v1/posts/" + post, "/api/v2/posts/" + post, "/api/v1/comments/" + comment, "/api/v1/user"} {
			first := h.do("GET", path, nil, as(ann)...)
			first.expect(t, http.StatusOK, nil)
			tag := first.etagOf(t)
			if again := h.do("GET", path, nil, as(ann)...).etagOf(t); again != tag {
				t.Errorf("%s: the same answer got ETag %s, then %s", path, tag, again)
			}
			h.do("GET", path, nil, as(ann, "If-None-Match", tag)...).notModified(t, tag)
			h.do("GET", path, nil, as(ann, "If-None-Match", `"other", W/`+tag)...).notModified(t, tag)
			h.do("HEAD", path, nil, as(ann, "If-None-Match", tag)...).notModified(t, tag)
			h.do("GET", path, nil, as(ann, "If-None-Match", `"other"`)...).expect(t, http.StatusOK, nil)
		}

		// A new comment changes the v1 post's representation, which embeds
		// comments, though not the post itself: its tag changes all the same.
		v1 := h.do("GET", "/api/v1/posts/"+post, nil, as(ann)...).etagOf(t)
		h.commentOn(ann, post, "Second")
		r := h.do("GET", "/api/v1/posts/"+post, nil, as(ann, "If-None-Match", v1)...)
		r.expect(t, http.StatusOK, nil)
		if r.etagOf(t) == v1 {
			t.Errorf("the v1 post kept its ETag %s after a new comment", v1)
		}

		// An update's answer carries the tag of what it stored.
		h.clock.Advance(time.Second)
		u := h.do("PATCH", "/api/v2/posts/"+post, map[string]any{"title": "Retagged"}, as(ann)...)
		u.expect(t, http.StatusOK, nil)
		h.do("GET", "/api/v2/posts/"+post, nil, as(ann, "If-None-Match", u.etagOf(t))...).notModified(t, u.etagOf(t))
	})
}

func TestWritesHonourIfMatch(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		bob, _ := h.v2Account("Bob")
		post := h.v2NewPost(ann, "Guarded", "published")
		comment := jsonNumber(h.commentOn(ann, post, "Guarded comment")["id"])
		cases := []struct {
			name, path, method string
			body               map[string]any
		}{
			{"v1 post", "/api/v1/posts/" + post, "PUT", map[string]any{"title": "v1 edit"}},
			{"v2 post", "/api/v2/posts/" + post, "PATCH", map[string]any{"title": "v2 edit"}},
			{"comment", "/api/v1/comments/" + comment, "PATCH", map[string]any{"body": "edited"}},
			{"profile", "/api/v1/user", "PUT", map[string]any{"name": "Ann Lee"}},
		}
		for _, tc := range cases {
			read := tc.path
			if tc.name == "v1 post" {
				read = "/api/v2/posts/" + post // another representation, the same version
			}
			stale := h.do("GET", read, nil, as(ann)...).etagOf(t)
			h.clock.Advance(time.Second)
			first := h.do(tc.method, tc.path, tc.body, as(ann, "If-Match", stale)...)
			first.expect(t, http.StatusOK, nil)
			current := first.etagOf(t)

			h.clock.Advance(time.Second)
			h.do(tc.method, tc.path, tc.body, as(ann, "If-Match", stale)...).expect(t, http.StatusPreconditionFailed, preconditionFailed)
			h.do(tc.method, tc.path, tc.body, as(ann, "If-Match", `"not-ours"`)...).expect(t, http.StatusPreconditionFailed, preconditionFailed)
			h.do(tc.method, tc.path, tc.body, as(ann, "If-Match", "W/"+current)...).expect(t, http.StatusPreconditionFailed, preconditionFailed)
			h.do(tc.method, tc.path, tc.body, as(ann, "If-Match", stale+", "+current)...).expect(t, http.StatusOK, nil)
			h.do(tc.method, tc.path, tc.body, as(ann, "If-Match", "*")...).expect(t, http.StatusOK, nil)
		}

		// The policy comes first: a stranger learns nothing from a tag.
		h.do("PATCH", "/api/v2/posts/"+post, map[string]any{"title": "x"}, as(bob, "If-Match", `"0-0"`)...).expect(t, http.StatusForbidden, nil)

		// Deletes are guarded too.
		tag := h.do("GET", "/api/v1/comments/"+comment, nil, as(ann)...).etagOf(t)
		h.clock.Advance(time.Second)
		h.do("PATCH", "/api/v1/comments/"+comment, map[string]any{"body": "again"}, as(ann)...).expect(t, http.StatusOK, nil)
		h.do("DELETE", "/api/v1/comments/"+comment, nil, as(ann, "If-Match", tag)...).expect(t, http.StatusPreconditionFailed, preconditionFailed)
		h.do("GET", "/api/v1/comments/"+comment, nil, as(ann)...).expect(t, http.StatusOK, nil)
		tag = h.do("GET", "/api/v2/posts/"+post, nil, as(ann)...).etagOf(t)
		h.do("DELETE", "/api/v2/posts/"+post, nil, as(ann, "If-Match", tag)...).expect(t, http.StatusNoContent, nil)
		h.do("DELETE", "/api/v1/user", map[string]any{"current_password": "password1"}, as(ann, "If-Match", `"0-0"`)...).expect(t, http.StatusPreconditionFailed, preconditionFailed)
	})
}

func TestConcurrentWritesWithOneTagLoseNoUpdate(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		post := h.v2NewPost(ann, "Contested", "published")
		comment := jsonNumber(h.commentOn(ann, post, "Contested comment")["id"])
		for _, path := range []string{"/api/v2/posts/" + post, "/api/v1/comments/" + comment} {
			tag := h.do("GET", path, nil, as(ann)...).etagOf(t)
			// The clock moves on, as it does between a read and a write.
			h.clock.Advance(time.Second)
			statuses := make([]int, 2)
			var wg sync.WaitGroup
			for i, edit := range []map[string]any{{"title": "One", "body": "One"}, {"title": "Two", "body": "Two"}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses[i] = h.do("PATCH", path, edit, as(ann, "If-Match", tag)...).status
				}()
			}
			wg.Wait()
			won, refused := 0, 0
			for _, s := range statuses {
				switch s {
				case http.StatusOK:
					won++
				case http.StatusPreconditionFailed:
					refused++
				}
			}
			if won != 1 || refused != 1 {
				t.Errorf("%s: got statuses %v, want one 200 and one 412", path, statuses)
			}
		}
	})
}
