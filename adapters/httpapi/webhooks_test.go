package httpapi_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/httpapi/openapi/openapitest"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
)

// receiver is a webhook's receiving end on loopback: it records every
// request and answers status.
type receiver struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	got    []receivedHook
	status int
}

type receivedHook struct {
	header http.Header
	body   []byte
	event  map[string]any
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{t: t, status: http.StatusOK}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var event map[string]any
		_ = json.Unmarshal(body, &event)
		r.mu.Lock()
		r.got = append(r.got, receivedHook{req.Header.Clone(), body, event})
		status := r.status
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) answer(status int) {
	r.mu.Lock()
	r.status = status
	r.mu.Unlock()
}

// take returns what was received since the last call, in event order:
// deliveries run in parallel, and receivers order them by event id.
func (r *receiver) take() []receivedHook {
	r.mu.Lock()
	defer r.mu.Unlock()
	got := r.got
	r.got = nil
	slices.SortStableFunc(got, func(a, b receivedHook) int {
		x, _ := strconv.Atoi(fmt.Sprint(a.event["id"]))
		y, _ := strconv.Atoi(fmt.Sprint(b.event["id"]))
		return x - y
	})
	return got
}

// verify checks a request's signature with an HMAC computed here, from
// the secret's decoded key, as Standard Webhooks describes it.
func verify(t *testing.T, secret string, h receivedHook) {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q is not whsec_ and base64", secret)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(h.header.Get("webhook-id") + "." + h.header.Get("webhook-timestamp") + "." + string(h.body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if got := h.header.Get("webhook-signature"); got != want {
		t.Errorf("webhook-signature %q, want %q", got, want)
	}
	openapitest.CheckSchema(t, "Event", h.body)
}

// deliver runs the webhook worker until nothing is left to do now.
func (h *harness) deliver() {
	h.t.Helper()
	ctx := context.Background()
	for {
		n, err := h.worker.FanOut(ctx)
		if err != nil {
			h.t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	for {
		n, err := h.worker.DeliverDue(ctx)
		if err != nil {
			h.t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

func TestWebhooks(t *testing.T) {
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{appURL: "http://inkwell.test", webhooksPrivate: true, webhooks: app.WebhooksConfig{Backoff: time.Minute, MaxAttempts: 3, DisableAfter: 4}})
			rcv := newReceiver(t)
			ann, _ := h.v1Account("Ann")
			bob, _ := h.v1Account("Bob")

			r := h.do("POST", "/api/v1/webhooks", map[string]any{"url": rcv.srv.URL + "/hook", "events": []any{"post.created", "comment.created", "post.deleted"}}, as(ann)...)
			r.expect(t, http.StatusCreated, nil)
			secret, _ := r.body["secret"].(string)
			hook := r.body["data"].(map[string]any)
			id := jsonNumber(hook["id"])
			h.do("GET", "/api/v1/webhooks/"+id, nil, as(ann)...).expect(t, http.StatusOK, map[string]any{"data": hook})
			if got := h.do("GET", "/api/v1/webhooks/"+id, nil, as(ann)...); strings.Contains(string(got.raw), "whsec_") {
				t.Error("the secret is shown again after creation")
			}
			h.do("GET", "/api/v1/webhooks/"+id, nil, as(bob)...).expect(t, http.StatusNotFound, nil)
			h.do("GET", "/api/v1/webhooks", nil, as(ann)...).expect(t, http.StatusOK, map[string]any{"data": []any{hook}})

			// Ann's post and Bob's comment on it reach Ann's webhook; Bob's
			// own post and Ann's draft edits (not subscribed) do not.
			post := h.v1Post(ann, map[string]any{"title": "Hello", "body": "b", "status": "published"})
			postID := jsonNumber(post["id"])
			h.v1Post(bob, map[string]any{"title": "Bob's", "body": "b", "status": "published"})
			h.do("PUT", "/api/v1/posts/"+postID, map[string]any{"title": "Hello 2"}, as(ann)...).expect(t, http.StatusOK, nil)
			comment := h.do("POST", "/api/v1/posts/"+postID+"/comments", map[string]any{"body": "Hi"}, as(bob)...)
			comment.expect(t, http.StatusCreated, nil)
			h.deliver()
			got := rcv.take()
			if len(got) != 2 {
				t.Fatalf("received %d deliveries, want 2 (post.created, comment.created)", len(got))
			}
			for _, g := range got {
				verify(t, secret, g)
			}
			if got[0].event["type"] != "post.created" || !equalJSON(got[0].event["data"], post) {
				t.Errorf("first delivery %s, want post.created with the post as created", got[0].body)
			}
			if got[1].event["type"] != "comment.created" || !equalJSON(got[1].event["data"], comment.body["data"]) {
				t.Errorf("second delivery %s, want comment.created with the comment", got[1].body)
			}
			if rel, _ := got[1].event["data"].(map[string]any)["relationships"].(map[string]any); !equalJSON(rel["post"], map[string]any{"id": post["id"], "type": "post"}) {
				t.Errorf("the comment.created body names post %v, want {id: %v, type: post}", rel["post"], post["id"])
			}
			list := h.do("GET", "/api/v1/webhooks/"+id+"/deliveries", nil, as(ann)...)
			list.expect(t, http.StatusOK, nil)
			if data := list.body["data"].([]any); len(data) != 2 || data[0].(map[string]any)["status"] != "delivered" || data[0].(map[string]any)["event_type"] != "comment.created" {
				t.Errorf("deliveries: %s", list.raw)
			}

			// A receiver that fails: retried after the backoff, then failed
			// for good after three attempts; the fourth failure in a row
			// disables the webhook, and says why.
			rcv.answer(http.StatusInternalServerError)
			// post.deleted is the purge; a plain DELETE would be post.trashed.
			h.do("DELETE", "/api/v1/posts/"+postID+"?force=true", nil, as(ann)...).expect(t, http.StatusOK, nil)
			h.deliver()
			h.clock.Advance(time.Minute)
			h.deliver()
			h.clock.Advance(2 * time.Minute)
			h.deliver()
			if n := len(rcv.take()); n != 3 {
				t.Errorf("attempts at a failing receiver: %d, want 3", n)
			}
			list = h.do("GET", "/api/v1/webhooks/"+id+"/deliveries", nil, as(ann)...)
			failed := list.body["data"].([]any)[0].(map[string]any)
			if failed["status"] != "failed" || failed["attempts"] != 3.0 || failed["last_status_code"] != 500.0 || failed["last_error"] != "HTTP 500" {
				t.Errorf("the failed delivery: %v", failed)
			}
			h.v1Post(ann, map[string]any{"title": "Again", "body": "b", "status": "published"})
			h.deliver()
			r = h.do("GET", "/api/v1/webhooks/"+id, nil, as(ann)...)
			data := r.body["data"].(map[string]any)
			if data["enabled"] != false || !strings.Contains(data["disabled_reason"].(string), "HTTP 500") || data["failures"] != 4.0 {
				t.Errorf("after four failures in a row: %s, want it disabled with the reason", r.raw)
			}
			h.clock.Advance(time.Hour)
			h.deliver()
			if n := len(rcv.take()); n != 1 {
				t.Errorf("attempts after disabling: %d, want only the one that disabled it", n)
			}

			// Its owner enables it again and retries the failed delivery.
			rcv.answer(http.StatusOK)
			h.do("PUT", "/api/v1/webhooks/"+id, map[string]any{"url": rcv.srv.URL + "/hook", "events": []any{"post.deleted"}, "enabled": true}, as(ann)...).
				expect(t, http.StatusOK, nil)
			h.do("POST", "/api/v1/webhooks/"+id+"/deliveries/"+jsonNumber(failed["id"])+"/retry", nil, as(bob)...).expect(t, http.StatusNotFound, nil)
			h.do("POST", "/api/v1/webhooks/"+id+"/deliveries/"+jsonNumber(failed["id"])+"/retry", nil, as(ann)...).expect(t, http.StatusAccepted, nil)
			h.deliver()
			got = rcv.take()
			if len(got) != 1 || got[0].event["type"] != "post.deleted" {
				t.Fatalf("after the retry: %d deliveries, want the post.deleted", len(got))
			}
			verify(t, secret, got[0])
			if got[0].header.Get("webhook-id") != "msg_"+jsonNumber(failed["id"]) {
				t.Errorf("webhook-id %q: a retry keeps the message id", got[0].header.Get("webhook-id"))
			}

			h.do("DELETE", "/api/v1/webhooks/"+id, nil, as(ann)...).expect(t, http.StatusOK, nil)
			h.do("GET", "/api/v1/webhooks/"+id, nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		})
	}
}

func TestWebhookValidation(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	ann, _ := h.v1Account("Ann")
	rcv := newReceiver(t)
	for _, body := range []map[string]any{
		{"url": rcv.srv.URL, "events": []any{"post.created"}}, // loopback, WEBHOOKS_ALLOW_PRIVATE off
		{"url": "http://10.0.0.8/hook", "events": []any{"post.created"}},
		{"url": "http://１２７.０.０.１/hook", "events": []any{"post.created"}},
		{"url": "http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/hook", "events": []any{"post.created"}},
		{"url": "http://[64:ff9b::a00:1]/hook", "events": []any{"post.created"}},
		{"url": "http://198.18.0.1/hook", "events": []any{"post.created"}},
		{"url": "https://example.com:0/", "events": []any{"post.created"}},
		{"url": "https://example.com:65536/", "events": []any{"post.created"}},
		{"url": "ftp://example.com/", "events": []any{"post.created"}},
		{"url": "https://example.com/", "events": []any{"post.nope"}},
		{"url": "https://example.com/", "events": []any{}},
		{"events": []any{"post.created"}},
	} {
		h.do("POST", "/api/v1/webhooks", body, as(ann)...).expect(t, http.StatusUnprocessableEntity, nil)
	}
	h.do("POST", "/api/v1/webhooks", map[string]any{"url": "https://example.com/", "events": []any{"post.created"}}).expect(t, http.StatusUnauthorized, nil)
	h.do("POST", "/api/v1/webhooks", map[string]any{"url": "https://example.com/", "events": []any{"post.created"}}, as(ann)...).expect(t, http.StatusCreated, nil)
	// The refusal of a loopback URL says which setting allows it.
	h.do("POST", "/api/v1/webhooks", map[string]any{"url": rcv.srv.URL, "events": []any{"post.created"}}, as(ann)...).expect(t, http.StatusUnprocessableEntity, map[string]any{
		"success": false, "message": "Validation failed.",
		"errors": map[string]any{"url": []any{"The url field must be a public http or https URL; loopback, private and other non-public addresses need WEBHOOKS_ALLOW_PRIVATE=true."}},
	})
}

// TestWebhookCapHTTP: a user holds at most twenty webhooks, as GitHub
// allows per event and repository; the next is a 422 until one is deleted.
func TestWebhookCapHTTP(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v1Account("Ann")
		body := map[string]any{"url": "https://example.com/hook", "events": []any{"post.created"}}
		var first string
		for i := range 20 {
			r := h.do("POST", "/api/v1/webhooks", body, as(ann)...)
			r.expect(t, http.StatusCreated, nil)
			if i == 0 {
				first = jsonNumber(r.body["data"].(map[string]any)["id"])
			}
		}
		refused := map[string]any{
			"success": false, "message": "Validation failed.",
			"errors": map[string]any{"url": []any{"No more than 20 webhooks may be registered; delete one first."}},
		}
		h.do("POST", "/api/v1/webhooks", body, as(ann)...).expect(t, http.StatusUnprocessableEntity, refused)
		h.do("DELETE", "/api/v1/webhooks/"+first, nil, as(ann)...).expect(t, http.StatusOK, nil)
		h.do("POST", "/api/v1/webhooks", body, as(ann)...).expect(t, http.StatusCreated, nil)
		h.do("POST", "/api/v1/webhooks", body, as(ann)...).expect(t, http.StatusUnprocessableEntity, refused)
	})
}

// TestEventBodyLinks holds webhook bodies to the links the stream gives:
// APP_URL with a trailing slash makes no double slash.
func TestEventBodyLinks(t *testing.T) {
	e := domain.Event{
		ID: 1, Type: domain.PostCreated, CreatedAt: time.Now(), PostID: 7, PostAuthorID: 3,
		Payload: domain.EventPayload{
			Post:   &domain.PostState{ID: 7, AuthorID: 3, Title: "T", Slug: "t", Status: domain.StatusPublished, CreatedAt: time.Now(), UpdatedAt: time.Now()},
			Author: &domain.Author{ID: 3, Name: "Ann"},
		},
	}
	body, err := httpapi.EventBody("https://api.example.org/", nil)(e)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"self":"https://api.example.org/api/v1/posts/7"`; !strings.Contains(string(body), want) {
		t.Errorf("body %s: want %s", body, want)
	}
}

// TestWebhookFailureNamesNoAddress checks what an owner reads of a
// receiver that cannot be reached: a name that does not resolve and a
// port nothing listens on are said plainly, without the resolver's
// address, the local end's or the address dialled.
func TestWebhookFailureNamesNoAddress(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + closed.Addr().String() + "/hook"
	closed.Close()
	address := regexp.MustCompile(`\d+\.\d+\.\d+\.\d+|:\d|\[|::`)
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, s.Open(t), options{webhooksPrivate: true, webhooks: app.WebhooksConfig{Backoff: time.Minute, MaxAttempts: 3}})
			ann, _ := h.v1Account("Ann")
			ids := map[string]string{}
			for _, url := range []string{"http://hooks.invalid/hook", refused} {
				r := h.do("POST", "/api/v1/webhooks", map[string]any{"url": url, "events": []any{"post.created"}}, as(ann)...)
				r.expect(t, http.StatusCreated, nil)
				ids[url] = jsonNumber(r.body["data"].(map[string]any)["id"])
			}
			h.v1Post(ann, map[string]any{"title": "Hello", "body": "b", "status": "published"})
			h.deliver()
			for url, want := range map[string]string{"http://hooks.invalid/hook": "lookup hooks.invalid: ", refused: "connection refused"} {
				list := h.do("GET", "/api/v1/webhooks/"+ids[url]+"/deliveries", nil, as(ann)...)
				list.expect(t, http.StatusOK, nil)
				data := list.body["data"].([]any)
				if len(data) != 1 {
					t.Fatalf("%s: deliveries %s, want one", url, list.raw)
				}
				got, _ := data[0].(map[string]any)["last_error"].(string)
				if !strings.HasPrefix(got, want) || address.MatchString(got) {
					t.Errorf("%s: last_error %q, want %q… naming no address", url, got, want)
				}
			}
		})
	}
}
