package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// replayed checks that r is a replay of first: the same status, body and
// Location, marked Idempotent-Replayed.
func (r response) replayed(t *testing.T, first response) {
	t.Helper()
	if r.status != first.status || string(r.raw) != string(first.raw) || r.header.Get("Location") != first.header.Get("Location") {
		t.Errorf("replay: got %d %s (Location %q), want %d %s (Location %q)", r.status, r.raw, r.header.Get("Location"), first.status, first.raw, first.header.Get("Location"))
	}
	if got := r.header.Get("Idempotent-Replayed"); got != "true" {
		t.Errorf("Idempotent-Replayed: got %q, want true", got)
	}
}

// total reads the number of records of a list answer.
func (h *harness) total(path, token string) float64 {
	h.t.Helper()
	r := h.do("GET", path, nil, as(token)...)
	return r.body["meta"].(map[string]any)["total"].(float64)
}

func TestIdempotencyKeyReplaysAreaA(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		bob, _ := h.v2Account("Bob")
		post := map[string]any{"title": "Once", "body": "Only once.", "status": "published"}

		first := h.do("POST", "/api/v1/posts", post, as(ann, "Idempotency-Key", "post-1")...)
		first.expect(t, http.StatusCreated, nil)
		if got := first.header.Get("Idempotent-Replayed"); got != "" {
			t.Errorf("first answer: Idempotent-Replayed %q, want none", got)
		}
		h.clock.Advance(time.Hour)
		h.do("POST", "/api/v1/posts", post, as(ann, "Idempotency-Key", "post-1")...).replayed(t, first)
		if got := h.total("/api/v1/posts", ann); got != 1 {
			t.Errorf("posts after a replay: got %v, want 1", got)
		}

		// Another body under the key is refused; another caller's key is its own.
		other := map[string]any{"title": "Twice", "body": "Again.", "status": "published"}
		h.do("POST", "/api/v1/posts", other, as(ann, "Idempotency-Key", "post-1")...).expect(t, http.StatusUnprocessableEntity,
			map[string]any{"success": false, "message": "The Idempotency-Key was used with another request."})
		h.do("POST", "/api/v1/posts", post, as(bob, "Idempotency-Key", "post-1")...).expect(t, http.StatusCreated, nil)
		// A refusal is kept and replayed too.
		bad := h.do("POST", "/api/v1/tags", map[string]any{"name": ""}, as(ann, "Idempotency-Key", "tag-1")...)
		bad.expect(t, http.StatusUnprocessableEntity, map[string]any{"message": "Validation failed."})
		h.do("POST", "/api/v1/tags", map[string]any{"name": ""}, as(ann, "Idempotency-Key", "tag-1")...).replayed(t, bad)
		// Without a key nothing is kept.
		h.do("POST", "/api/v1/posts", post, as(ann)...).expect(t, http.StatusCreated, nil)
		h.do("POST", "/api/v1/posts", post, as(ann)...).expect(t, http.StatusCreated, nil)
		if got := h.total("/api/v1/posts", ann); got != 4 {
			t.Errorf("posts: got %v, want 4", got)
		}

		// After the replay period the key is free again.
		h.clock.Advance(24 * time.Hour)
		again := h.do("POST", "/api/v1/posts", post, as(ann, "Idempotency-Key", "post-1")...)
		again.expect(t, http.StatusCreated, nil)
		if again.header.Get("Idempotent-Replayed") != "" || string(again.raw) == string(first.raw) {
			t.Errorf("a day later: got a replay %s, want a new post", again.raw)
		}

		h.do("POST", "/api/v1/posts", post, as(ann, "Idempotency-Key", strings.Repeat("k", 256))...).expect(t, http.StatusBadRequest,
			map[string]any{"success": false, "message": "The Idempotency-Key header must not be greater than 255 characters."})
		h.do("POST", "/api/v1/tags", map[string]any{"name": "Go"}, as(ann, "Idempotency-Key", strings.Repeat("k", 255))...).expect(t, http.StatusCreated, nil)
	})
}

func TestIdempotencyKeyReplaysAreaB(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		user := map[string]any{"name": "Ann", "email": "ann@example.com"}
		first := h.do("POST", "/api/v2/users", user, "Idempotency-Key", "u-1")
		first.expect(t, http.StatusCreated, nil)
		if first.header.Get("Location") == "" {
			t.Fatalf("v2 create: no Location")
		}
		h.do("POST", "/api/v2/users", user, "Idempotency-Key", "u-1").replayed(t, first)
		// Without the key the same body is a second create, refused as such.
		h.do("POST", "/api/v2/users", user).expect(t, http.StatusConflict, map[string]any{"message": "Email already exists"})

		h.do("POST", "/users", user, "Idempotency-Key", "u-1").expect(t, http.StatusUnprocessableEntity,
			map[string]any{"success": false, "message": "Unprocessable Entity", "data": nil})
		h.do("POST", "/products", map[string]any{"name": "Pen", "price": 1}, "Idempotency-Key", strings.Repeat("k", 256)).expect(t, http.StatusBadRequest,
			map[string]any{"success": false, "message": "Bad Request", "data": nil})
	})
}

func TestIdempotencyKeyOfARunningRequest(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		tokenID, _, _ := strings.Cut(ann, "|")
		// A request of Ann's with the key runs on another replica.
		_, claimed, err := h.store.Repos().Idempotency.Claim(context.Background(), ports.IdempotencyRecord{
			Key: "token:" + tokenID + "|busy", Fingerprint: "elsewhere", ExpiresAt: start.Add(stacktest.IdempotencyLease),
		}, start)
		if err != nil || !claimed {
			t.Fatalf("claim: got %v, %v", claimed, err)
		}
		tag := map[string]any{"name": "Go"}
		h.do("POST", "/api/v1/tags", tag, as(ann, "Idempotency-Key", "busy")...).expect(t, http.StatusConflict,
			map[string]any{"success": false, "message": "A request with this Idempotency-Key is still being processed."})
		h.do("POST", "/api/v2/users", map[string]any{"name": "Ann", "email": "ann@example.com"}, as(ann, "Idempotency-Key", "busy")...).expect(t, http.StatusConflict,
			map[string]any{"success": false, "message": "Conflict", "data": nil})

		// Past its lease the claim is taken for dead, and the key runs again.
		h.clock.Advance(stacktest.IdempotencyLease)
		first := h.do("POST", "/api/v1/tags", tag, as(ann, "Idempotency-Key", "busy")...)
		first.expect(t, http.StatusCreated, nil)
		h.do("POST", "/api/v1/tags", tag, as(ann, "Idempotency-Key", "busy")...).replayed(t, first)
	})
}
