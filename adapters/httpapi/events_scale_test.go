package httpapi_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestEventStreamThousandStreams opens 1,000 streams across topics, owner
// filters and viewers on one server, from one address (its cap raised),
// and checks that each receives exactly what TestEventStreamVisibility
// expects of its kind: the hub hands every stream its own view of the
// same events.
func TestEventStreamThousandStreams(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{streamsPerToken: -1, streamsPerAddress: -1})
	base := h.listen()
	ann, _ := h.v1Account("Ann")
	bob, _ := h.v1Account("Bob")
	kinds := []struct {
		name, query string
		headers     []string
		want        string
	}{
		{"Ann, every topic", "", as(ann), "post.created post.published comment.created post.unpublished comment.created user.created"},
		{"Bob, posts, comments and products", "topics=posts,comments,products", as(bob), "post.published comment.created post.unpublished"},
		{"Ann, comments and products", "topics=comments,products", as(ann), "comment.created comment.created"},
		{"anonymous", "", nil, "user.created"},
	}
	const streams = 1000
	type open struct {
		kind int
		s    *sseStream
	}
	opened := make([]open, streams)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 50)
	for i := range opened {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			k := i % len(kinds)
			opened[i] = open{k, subscribeQuietly(t, base, kinds[k].query, kinds[k].headers...)}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	draft := h.v1Post(ann, map[string]any{"title": "Draft", "body": "Secret", "status": "draft"})
	id := jsonNumber(draft["id"])
	h.do("PUT", "/api/v1/posts/"+id, map[string]any{"status": "published"}, as(ann)...).expect(t, http.StatusOK, nil)
	h.do("POST", "/api/v1/posts/"+id+"/comments", map[string]any{"body": "Hi"}, as(bob)...).expect(t, http.StatusCreated, nil)
	h.do("PUT", "/api/v1/posts/"+id, map[string]any{"status": "draft"}, as(ann)...).expect(t, http.StatusOK, nil)
	h.do("POST", "/api/v1/posts/"+id+"/comments", map[string]any{"body": "Note to self"}, as(ann)...).expect(t, http.StatusCreated, nil)
	h.do("POST", "/users", map[string]any{"name": "Pat", "email": "pat@example.com"}).expect(t, http.StatusCreated, nil)
	h.do("POST", "/products", map[string]any{"name": "End", "price": 1}).expect(t, http.StatusCreated, nil)

	wrong := 0
	for i, o := range opened {
		got, _ := o.s.until("product.created")
		if g := strings.Join(got, " "); g != kinds[o.kind].want {
			wrong++
			if wrong <= 5 {
				t.Errorf("stream %d (%s): %q, want %q", i, kinds[o.kind].name, g, kinds[o.kind].want)
			}
		}
	}
	if wrong > 0 {
		t.Errorf("%d of %d streams received other events than they should", wrong, streams)
	}
}

// subscribeQuietly is subscribe without the schema check of every event,
// which a thousand streams would repeat a thousand times.
func subscribeQuietly(t *testing.T, base, query string, headers ...string) *sseStream {
	t.Helper()
	resp, cancel := openStream(t, base, query, headers...)
	if resp.StatusCode != http.StatusOK {
		cancel()
		t.Errorf("GET /api/v1/events?%s: status %d, want 200", query, resp.StatusCode)
		return nil
	}
	s := &sseStream{t: t, messages: make(chan sseMessage, 100), cancel: cancel, ended: make(chan struct{})}
	go s.readQuietly(resp.Body)
	t.Cleanup(cancel)
	return s
}

func (s *sseStream) readQuietly(body io.Reader) {
	defer close(s.ended)
	defer close(s.messages)
	sc := bufio.NewScanner(body)
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
		}
	}
}

// TestEventStreamSlowSubscriber opens a stream whose client reads nothing,
// with a small receive buffer, beside one that reads. While megabytes of
// events fill the slow one's socket, the other receives every event; the
// server closes the slow one, whose client then finds its stream ended
// short of the last event, and resumes from the last id it received.
func TestEventStreamSlowSubscriber(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{heartbeat: 100 * time.Millisecond})
	base := h.listen()
	ann, _ := h.v1Account("Ann")
	fast := subscribe(t, base, "topics=posts", as(ann)...)

	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		_ = c.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		return err
	}}
	addr := strings.TrimPrefix(base, "http://")
	slow, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	fmt.Fprintf(slow, "GET /api/v1/events?topics=posts HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", addr, ann)

	// 60 posts of 100 KB: 6 MB of events, more than the kernel buffers
	// of one connection hold.
	const posts = 60
	body := strings.Repeat("slow reader ", 100<<10/12)
	var last string
	for i := range posts {
		p := h.v1Post(ann, map[string]any{"title": fmt.Sprint("Post ", i), "body": body, "status": "published"})
		last = jsonNumber(p["id"])
		if m := fast.next(); m.event != "post.created" || fmt.Sprint(m.data["data"].(map[string]any)["id"]) != last {
			t.Fatalf("the reading stream's event %d: %s %v, want post.created of post %s", i, m.event, m.data["data"].(map[string]any)["id"], last)
		}
	}

	// The slow client reads now: its stream ends before the last post's
	// event, as the server closed it once it fell behind.
	_ = slow.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(slow), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("slow stream: status %d", resp.StatusCode)
	}
	s := &sseStream{t: t, messages: make(chan sseMessage, 100000), ended: make(chan struct{})}
	s.readQuietly(resp.Body)
	var ids []string
	for m := range s.messages {
		if m.id != "" {
			ids = append(ids, m.id)
		}
	}
	if len(ids) >= posts {
		t.Fatalf("the slow stream received all %d events, want it closed before", len(ids))
	}
	// It resumes after the last id it received, and the rest arrives.
	received := len(ids)
	if received == 0 {
		ids = append(ids, "0")
	}
	resumed := subscribe(t, base, "topics=posts", as(ann, "Last-Event-ID", ids[len(ids)-1])...)
	var m sseMessage
	for range posts - received {
		m = resumed.next()
	}
	if got := fmt.Sprint(m.data["data"].(map[string]any)["id"]); got != last {
		t.Errorf("the resumed stream's last event is of post %s, want %s", got, last)
	}
}

// TestEventStreamHead answers HEAD with a stream's headers and no body, on
// a connection that serves the next request: a HEAD opens no stream.
func TestEventStreamHead(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	base := h.listen()
	for range 2 {
		resp, err := http.Head(base + "/api/v1/events?topics=products")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Errorf("HEAD /api/v1/events: %d %q, want 200 text/event-stream", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	h.do("GET", "/healthz", nil).expect(t, http.StatusOK, nil)
}
