package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/httpapi/openapi/openapitest"
)

// sseMessage is one message of an event stream, or a comment line.
type sseMessage struct {
	id, event, comment string
	data               map[string]any
}

// sseStream is a client's open event stream.
type sseStream struct {
	t        *testing.T
	messages chan sseMessage
	cancel   context.CancelFunc
	ended    chan struct{}
}

// subscribe opens GET /api/v1/events?query on the server at base and
// checks that it answers 200 with an event stream. headers are pairs.
func subscribe(t *testing.T, base, query string, headers ...string) *sseStream {
	t.Helper()
	resp, cancel := openStream(t, base, query, headers...)
	if resp.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("GET /api/v1/events?%s: status %d, want 200", query, resp.StatusCode)
	}
	if got := resp.Header.Get("Content-Type"); got != "text/event-stream" {
		t.Errorf("Content-Type %q, want text/event-stream", got)
	}
	s := &sseStream{t: t, messages: make(chan sseMessage, 100), cancel: cancel, ended: make(chan struct{})}
	go s.read(resp)
	t.Cleanup(cancel)
	return s
}

func openStream(t *testing.T, base, query string, headers ...string) (*http.Response, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/events?"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	return resp, func() { cancel(); resp.Body.Close() }
}

func (s *sseStream) read(resp *http.Response) {
	defer close(s.ended)
	defer close(s.messages)
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var m sseMessage
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if m.id != "" || m.comment != "" {
				s.messages <- m
			}
			m = sseMessage{}
		case strings.HasPrefix(line, ":"):
			m.comment = strings.TrimSpace(line[1:])
		case strings.HasPrefix(line, "id: "):
			m.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			m.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(line[6:]), &m.data); err != nil {
				s.t.Errorf("data is not JSON: %s", line)
			}
			openapitest.CheckSchema(s.t, "Event", []byte(line[6:]))
		}
	}
}

// next returns the next event, skipping comment lines.
func (s *sseStream) next() sseMessage {
	s.t.Helper()
	for {
		select {
		case m, ok := <-s.messages:
			if !ok {
				s.t.Fatal("the stream ended, want another event")
			}
			if m.id != "" {
				return m
			}
		case <-time.After(10 * time.Second):
			s.t.Fatal("no event within 10s")
		}
	}
}

// types reads events until one of type until and returns the types read
// before it, with the matching event.
func (s *sseStream) until(until string) ([]string, sseMessage) {
	s.t.Helper()
	var types []string
	for {
		m := s.next()
		if m.event == until {
			return types, m
		}
		types = append(types, m.event)
	}
}

func TestEventStreamVisibility(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h = newHarness(t, h.store, options{appURL: "http://inkwell.test"})
		base := h.listen()
		ann, _ := h.v1Account("Ann")
		bob, _ := h.v1Account("Bob")
		annStream := subscribe(t, base, "", "Authorization", "Bearer "+ann)
		bobStream := subscribe(t, base, "topics=posts,comments,products", "Authorization", "Bearer "+bob)
		anon := subscribe(t, base, "")

		draft := h.v1Post(ann, map[string]any{"title": "Draft", "body": "Secret", "status": "draft"})
		id := jsonNumber(draft["id"])
		h.do("PUT", "/api/v1/posts/"+id, map[string]any{"status": "published"}, as(ann)...).expect(t, http.StatusOK, nil)
		c := h.do("POST", "/api/v1/posts/"+id+"/comments", map[string]any{"body": "Hi"}, as(bob)...)
		c.expect(t, http.StatusCreated, nil)
		h.do("PUT", "/api/v1/posts/"+id, map[string]any{"status": "draft"}, as(ann)...).expect(t, http.StatusOK, nil)
		h.do("POST", "/api/v1/posts/"+id+"/comments", map[string]any{"body": "Note to self"}, as(ann)...).expect(t, http.StatusCreated, nil)
		person := h.do("POST", "/users", map[string]any{"name": "Pat", "email": "pat@example.com"})
		person.expect(t, http.StatusCreated, nil)
		h.do("POST", "/products", map[string]any{"name": "End", "price": 1}).expect(t, http.StatusCreated, nil)

		got, _ := annStream.until("product.created")
		want := []string{"post.created", "post.published", "comment.created", "post.unpublished", "comment.created", "user.created"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("Ann's stream: %q, want %q", got, want)
		}
		got, _ = bobStream.until("product.created")
		want = []string{"post.published", "comment.created", "post.unpublished"}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("Bob's stream: %q, want %q", got, want)
		}
		got, _ = anon.until("product.created")
		if strings.Join(got, " ") != "user.created" {
			t.Errorf("anonymous stream: %q, want only user.created", got)
		}

		// What the events carry is what the API answered; Last-Event-ID 0
		// replays every event retained.
		annStream = subscribe(t, base, "post="+id, "Authorization", "Bearer "+ann, "Last-Event-ID", "0")
		created := annStream.next()
		if created.event != "post.created" || created.data["type"] != "post.created" || created.data["id"] != created.id {
			t.Errorf("first event of post %s: %+v", id, created)
		}
		if !equalJSON(created.data["data"], draft) {
			t.Errorf("post.created data:\n\t%v\nthe create answered\n\t%v", created.data["data"], draft)
		}
		bobStream = subscribe(t, base, "post="+id, "Authorization", "Bearer "+bob, "Last-Event-ID", "0")
		m := bobStream.next()
		if m.event != "post.published" {
			t.Errorf("Bob's first event of the post: %s, want post.published", m.event)
		}
		if m = bobStream.next(); m.event != "comment.created" || !equalJSON(m.data["data"], c.body["data"]) {
			t.Errorf("Bob's comment.created: %+v, want the comment as created", m)
		}
		m = bobStream.next()
		if m.event != "post.unpublished" || !equalJSON(m.data["data"], map[string]any{"id": draft["id"], "type": "post"}) {
			t.Errorf("Bob's post.unpublished: %+v, want the bare post", m)
		}
		anon = subscribe(t, base, "topics=users", "Last-Event-ID", "0")
		if m := anon.next(); m.event != "user.created" || !equalJSON(m.data["data"], person.body["data"]) {
			t.Errorf("user.created: %+v, want the record as created (%v)", m, person.body["data"])
		}
	})
}

func TestEventStreamResumes(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		base := h.listen()
		for i := range 3 {
			h.do("POST", "/products", map[string]any{"name": fmt.Sprintf("P%d", i), "price": 1}).expect(t, http.StatusCreated, nil)
		}
		// A stream without Last-Event-ID starts now: it sees none of the
		// three products.
		now := subscribe(t, base, "topics=products")
		s := subscribe(t, base, "topics=products", "Last-Event-ID", "0")
		var ids []string
		for range 2 {
			ids = append(ids, s.next().id)
		}
		s.cancel()
		for i := 3; i < 5; i++ {
			h.do("POST", "/products", map[string]any{"name": fmt.Sprintf("P%d", i), "price": 1}).expect(t, http.StatusCreated, nil)
		}
		s = subscribe(t, base, "topics=products", "Last-Event-ID", ids[1])
		var names []string
		for range 3 {
			m := s.next()
			names = append(names, m.data["data"].(map[string]any)["name"].(string))
		}
		if strings.Join(names, " ") != "P2 P3 P4" {
			t.Errorf("resumed after the second event: %q, want P2 P3 P4", names)
		}
		if m := now.next(); m.data["data"].(map[string]any)["name"] != "P3" {
			t.Errorf("the stream that started now: first %v, want P3", m.data["data"])
		}
		select {
		case m := <-s.messages:
			if m.id != "" {
				t.Errorf("an event after the last one: %+v", m)
			}
		case <-time.After(100 * time.Millisecond):
		}
	})
}

func TestEventStreamRefusals(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	base := h.listen()
	token, _ := h.v1Account("Ann")
	for _, tc := range []struct {
		query   string
		headers []string
		want    int
	}{
		{"topics=posts", nil, http.StatusUnauthorized},
		{"post=1", nil, http.StatusUnauthorized},
		{"", []string{"Authorization", "Bearer 1|bogus"}, http.StatusUnauthorized},
		{"topics=posts,nope", []string{"Authorization", "Bearer " + token}, http.StatusUnprocessableEntity},
		{"post=x", []string{"Authorization", "Bearer " + token}, http.StatusUnprocessableEntity},
		{"", []string{"Authorization", "Bearer " + token, "Last-Event-ID", "-3"}, http.StatusUnprocessableEntity},
	} {
		resp, cancel := openStream(t, base, tc.query, tc.headers...)
		if resp.StatusCode != tc.want {
			t.Errorf("?%s %v: status %d, want %d", tc.query, tc.headers, resp.StatusCode, tc.want)
		}
		cancel()
	}

	closed := newHarness(t, stores[0].Open(t), options{crudToken: true})
	resp, cancel := openStream(t, closed.listen(), "topics=users")
	defer cancel()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("anonymous with CRUD_AUTH=token: status %d, want 401", resp.StatusCode)
	}
}

func TestEventStreamHeartbeatAndShutdown(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{heartbeat: 50 * time.Millisecond})
	s := subscribe(t, h.listen(), "")
	for {
		m, ok := <-s.messages
		if !ok {
			t.Fatal("the stream ended before a heartbeat")
		}
		if m.comment == "keep-alive" {
			break
		}
	}
	done := make(chan error, 1)
	go func() { done <- h.server.Shutdown(10 * time.Second) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Shutdown still waiting after 5s with a stream open")
	}
	select {
	case <-s.ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream still open after shutdown")
	}
}
