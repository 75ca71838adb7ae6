package httpapi_test

import (
	"context"
	"maps"
	"net/http"
	"strconv"
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

func TestIdempotencyKeyOfInvisibleBytes(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v2Account("Ann")
		refusal := map[string]any{"success": false, "message": "The Idempotency-Key header must only contain visible ASCII characters."}
		for _, key := range []string{"k\x00", "k\xff\xfe", "café", "a b", "k\x7f", "k\x01", strings.Repeat("é", 100)} {
			h.do("POST", "/api/v1/tags", map[string]any{"name": "Go"}, as(ann, "Idempotency-Key", key)...).expect(t, http.StatusBadRequest, refusal)
			h.do("POST", "/products", map[string]any{"name": "Pen", "price": 1}, "Idempotency-Key", key).expect(t, http.StatusBadRequest,
				map[string]any{"success": false, "message": "Bad Request", "data": nil})
		}
		// Nothing was created.
		if r := h.do("GET", "/api/v1/tags", nil); len(r.body["data"].([]any)) != 0 {
			t.Errorf("tags after refused keys: got %s, want none", r.raw)
		}

		// Bare keys of visible ASCII are taken as they come, quoted or not.
		for i, key := range []string{"abc-123_XYZ.~", `"quoted"`, "!#$%&'()*+,/:;<=>?@[\\]^`{|}", strings.Repeat("~", 255)} {
			tag := map[string]any{"name": "Tag " + strconv.Itoa(i)}
			first := h.do("POST", "/api/v1/tags", tag, as(ann, "Idempotency-Key", key)...)
			first.expect(t, http.StatusCreated, nil)
			h.do("POST", "/api/v1/tags", tag, as(ann, "Idempotency-Key", key)...).replayed(t, first)
		}
	})
}

func TestIdempotencyKeepsNoRefusalThatAsksToRetry(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.register("Ann", "ann@example.com", "password1")
		wrong := map[string]any{"email": "ann@example.com", "password": "wrong-password"}
		for range 5 {
			h.do("POST", "/api/v1/login", wrong).expect(t, http.StatusUnprocessableEntity, nil)
		}
		right := map[string]any{"email": "ann@example.com", "password": "password1"}
		h.do("POST", "/api/v1/login", right, "Idempotency-Key", "login-1").expect(t, http.StatusTooManyRequests, nil)
		// After the window the retry runs, and logs in.
		h.clock.Advance(61 * time.Second)
		r := h.do("POST", "/api/v1/login", right, "Idempotency-Key", "login-1")
		r.expect(t, http.StatusOK, map[string]any{"message": "Logged in successfully."})
		if r.header.Get("Idempotent-Replayed") != "" {
			t.Errorf("login after the window: replayed, want a fresh answer")
		}
		// A validation failure is still kept, and replayed.
		bad := h.do("POST", "/api/v1/login", map[string]any{"email": "ann@example.com"}, "Idempotency-Key", "login-2")
		bad.expect(t, http.StatusUnprocessableEntity, nil)
		h.do("POST", "/api/v1/login", map[string]any{"email": "ann@example.com"}, "Idempotency-Key", "login-2").replayed(t, bad)

		// A request refused before its handler ran keeps nothing under its
		// key: the key is free for the next request.
		h.do("POST", "/api/v1/tokens", map[string]any{"name": "cli"}, "Idempotency-Key", "k-401").expect(t, http.StatusUnauthorized, nil)
		h.do("POST", "/api/v1/register", map[string]any{
			"name": "Bob", "email": "bob@example.com", "password": "password1", "password_confirmation": "password1",
		}, "Idempotency-Key", "k-401").expect(t, http.StatusCreated, nil)
	})
}

func TestIdempotencyKeepsNoCSRFMismatch(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.register("Ann", "ann@example.com", "password1")
		b := h.browser(spaOrigin)
		b.start()
		login := map[string]any{"email": "ann@example.com", "password": "password1"}
		// The page lost its CSRF token.
		b.do("POST", "/login", login, "Idempotency-Key", "session-1", "X-XSRF-TOKEN", "stale").expect(t, 419, csrfMismatch)
		// It fetches the CSRF cookie, and the retry logs in.
		b.start()
		r := b.do("POST", "/login", login, "Idempotency-Key", "session-1")
		r.expect(t, http.StatusOK, map[string]any{"message": "Logged in successfully."})
		if r.header.Get("Idempotent-Replayed") != "" {
			t.Errorf("login after the CSRF cookie: replayed, want a fresh answer")
		}
		b.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, nil)
	})
}

func TestIdempotencyDoesNotReplaySessionLogin(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.register("Ann", "ann@example.com", "password1")
		b := h.browser(spaOrigin)
		b.start()
		before := maps.Clone(b.jar)
		login := map[string]any{"email": "ann@example.com", "password": "password1"}
		b.do("POST", "/login", login, "Idempotency-Key", "session-1").expect(t, http.StatusOK, nil)
		b.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, nil)

		// The answer was lost: the page still has the cookies it had, whose
		// session the login replaced. The retry is not told it logged in.
		lost := h.browser(spaOrigin)
		lost.jar = before
		r := lost.do("POST", "/login", login, "Idempotency-Key", "session-1")
		r.expect(t, 419, csrfMismatch)
		if r.header.Get("Idempotent-Replayed") != "" {
			t.Errorf("retried session login: replayed")
		}
		// As the refusal says, it fetches a CSRF cookie and logs in again.
		lost.start()
		lost.do("POST", "/login", login, "Idempotency-Key", "session-1").expect(t, http.StatusOK, map[string]any{"message": "Logged in successfully."})
		lost.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, nil)
	})
}

func TestIdempotencyOfMultipartForms(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		parts := func(image []byte) []v1Part {
			return []v1Part{v1Field("title", "Upload"), v1Field("body", "Body"), v1Field("status", "published"), v1File("image", "a.png", image)}
		}
		send := func(parts ...v1Part) response {
			body, headers := v1Multipart(t, parts...)
			return h.do("POST", "/api/v1/posts", body, as(token, append(headers, "Idempotency-Key", "upload-1")...)...)
		}
		first := send(parts(v1PNG(t, 3, 2))...)
		first.expect(t, http.StatusCreated, nil)
		// v1Multipart draws a new boundary for each body.
		send(parts(v1PNG(t, 3, 2))...).replayed(t, first)
		// Fields in another order across names are the same form.
		p := parts(v1PNG(t, 3, 2))
		send(p[3], p[1], p[0], p[2]).replayed(t, first)

		another := map[string]any{"success": false, "message": "The Idempotency-Key was used with another request."}
		send(parts(v1PNG(t, 2, 3))...).expect(t, http.StatusUnprocessableEntity, another)
		p = parts(v1PNG(t, 3, 2))
		p[0] = v1Field("title", "Uploaded")
		send(p...).expect(t, http.StatusUnprocessableEntity, another)
		p = parts(v1PNG(t, 3, 2))
		p[3] = v1File("image", "b.png", v1PNG(t, 3, 2))
		send(p...).expect(t, http.StatusUnprocessableEntity, another)
		if got := h.total("/api/v1/posts", token); got != 1 {
			t.Errorf("posts: got %v, want 1", got)
		}
	})
}
