package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Bodies of the refusals in each area's shape.
const (
	areaANotImplemented = `{"success":false,"message":"Not Implemented"}`
	areaBNotImplemented = `{"success":false,"message":"Not Implemented","data":null}`
)

// rawExchange writes raw to a new connection to base and reads one answer.
// The connection stays open until the test ends.
func rawExchange(t *testing.T, base, raw string) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	return readAnswer(t, bufio.NewReader(conn))
}

// readAnswer reads one response from r, with its whole body.
func readAnswer(t *testing.T, r *bufio.Reader) (*http.Response, string) {
	t.Helper()
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

// expectJSON checks an answer's status, JSON content type and exact body.
func expectJSON(t *testing.T, resp *http.Response, body string, wantStatus int, wantBody string) {
	t.Helper()
	if resp.StatusCode != wantStatus || body != wantBody {
		t.Errorf("got %d %s, want %d %s", resp.StatusCode, body, wantStatus, wantBody)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type: got %q, want application/json", ct)
	}
}

func TestUnknownMethodsAnswerInTheAreaShape(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	base := h.listen()
	for _, tc := range []struct {
		method, path string
		want         string
	}{
		{"PROPFIND", "/api/v1/posts", areaANotImplemented},
		{"FOO", "/api/v1/nothing-here", areaANotImplemented},
		{"PROPFIND", "/API/V1/POSTS", areaANotImplemented},
		{"FOO", "/users", areaBNotImplemented},
		{"PROPFIND", "/api/v1/users", areaBNotImplemented},
		{"FOO", "/nothing-here", areaBNotImplemented},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			resp, body := rawExchange(t, base, tc.method+" "+tc.path+" HTTP/1.1\r\nHost: example.com\r\n\r\n")
			expectJSON(t, resp, body, http.StatusNotImplemented, tc.want)
		})
	}
	// A method Fiber knows keeps the router's 405 on a known path.
	resp, body := rawExchange(t, base, "TRACE /api/v1/posts HTTP/1.1\r\nHost: example.com\r\n\r\n")
	expectJSON(t, resp, body, http.StatusMethodNotAllowed, `{"success":false,"message":"Method Not Allowed"}`)
}

func TestHTTP2PrefaceAnswers505(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	resp, body := rawExchange(t, h.listen(), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
	expectJSON(t, resp, body, http.StatusHTTPVersionNotSupported,
		`{"success":false,"message":"HTTP Version Not Supported","data":null}`)
	if !resp.Close {
		t.Error("the connection stays open after the HTTP/2 preface")
	}
}

func TestHeaderTooLargeAnswersInTheAreaShape(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	base := h.listen()
	big := "X-Padding: " + strings.Repeat("x", 8<<10) + "\r\n"
	for _, tc := range []struct {
		path, want string
	}{
		{"/api/v1/posts", `{"success":false,"message":"Request Header Fields Too Large"}`},
		{"/API/V1/POSTS?page=2", `{"success":false,"message":"Request Header Fields Too Large"}`},
		// fasthttp quotes only the first 200 bytes of what it read.
		{"/api/v1/posts?search=" + strings.Repeat("q", 300), `{"success":false,"message":"Request Header Fields Too Large"}`},
		{"/api/v1/products", `{"success":false,"message":"Request Header Fields Too Large","data":null}`},
		{"/users", `{"success":false,"message":"Request Header Fields Too Large","data":null}`},
		// The probes and the documentation, whose operations list this 431.
		{"/healthz", `{"success":false,"message":"Request Header Fields Too Large","data":null}`},
		{"/openapi.json", `{"success":false,"message":"Request Header Fields Too Large","data":null}`},
	} {
		t.Run(tc.path[:min(len(tc.path), 40)], func(t *testing.T) {
			resp, body := rawExchange(t, base, "GET "+tc.path+" HTTP/1.1\r\nHost: example.com\r\n"+big+"\r\n")
			expectJSON(t, resp, body, http.StatusRequestHeaderFieldsTooLarge, tc.want)
		})
	}
}

func TestMalformedRequestAnswersWithoutEchoingIt(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	// fasthttp's error for a Content-Length that is no number quotes the
	// request, token included, which must not come back.
	resp, body := rawExchange(t, h.listen(), "POST /api/v1/posts HTTP/1.1\r\nHost: example.com\r\nAuthorization: Bearer 1|secret\r\nContent-Length: many\r\n\r\n")
	expectJSON(t, resp, body, http.StatusBadRequest, `{"success":false,"message":"Bad Request"}`)
}

func TestUnservablePathsAnswer404InTheAreaShape(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	base := h.listen()
	for _, tc := range []struct {
		path, want string
	}{
		{"/storage/a%00b.png", `{"success":false,"message":"Not Found","data":null}`},
		{"/storage/posts/%2e/x.png", `{"success":false,"message":"Not Found","data":null}`},
		{"/users/1%00", `{"success":false,"message":"Not Found","data":null}`},
		{"/api/v1/posts/a%00b", `{"success":false,"message":"Resource not found."}`},
		{"/api/v1/posts/%2e%2e/tags", `{"success":false,"message":"Resource not found."}`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := rawExchange(t, base, "GET "+tc.path+" HTTP/1.1\r\nHost: example.com\r\n\r\n")
			expectJSON(t, resp, body, http.StatusNotFound, tc.want)
		})
	}
}

func TestBodyOverLimitReachesAClientStillSending(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	base := h.listen()
	// The harness's limit is 8 MB. The client sends the whole body without
	// waiting for a 100 Continue, as most do; it must read the 413, not a
	// connection reset.
	body := bytes.Repeat([]byte(" "), 10<<20)
	for _, tc := range []struct {
		path, want string
	}{
		{"/api/v1/register", `{"success":false,"message":"Payload Too Large"}`},
		{"/API/V1/TAGS", `{"success":false,"message":"Payload Too Large"}`},
		{"/products", `{"success":false,"message":"Payload Too Large","data":null}`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp, err := http.Post(base+tc.path, "application/json", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			expectJSON(t, resp, string(got), http.StatusRequestEntityTooLarge, tc.want)
		})
	}
}

func TestExpectContinueOverLimitAnswers413AtOnce(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	base := h.listen()
	for _, tc := range []struct {
		path, want string
	}{
		{"/api/v1/register", `{"success":false,"message":"Payload Too Large"}`},
		{"/users", `{"success":false,"message":"Payload Too Large","data":null}`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			// Only the header is sent: the first answer must be the final
			// 413, not a 100 Continue asking for the body.
			resp, body := rawExchange(t, base, "POST "+tc.path+" HTTP/1.1\r\nHost: example.com\r\n"+
				"Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 10485760\r\n\r\n")
			expectJSON(t, resp, body, http.StatusRequestEntityTooLarge, tc.want)
		})
	}
	// Within the limit, the expectation is met as before.
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	payload, _ := json.Marshal(map[string]any{"name": "Ada", "email": "ada@example.com"})
	head := "POST /users HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: " +
		jsonNumber(len(payload)) + "\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	line, err := r.ReadString('\n')
	if err != nil || line != "HTTP/1.1 100 Continue\r\n" {
		t.Fatalf("got %q (%v), want a 100 Continue", line, err)
	}
	if _, err := r.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write(payload); err != nil {
		t.Fatal(err)
	}
	if resp, body := readAnswer(t, r); resp.StatusCode != http.StatusCreated {
		t.Errorf("got %d %s, want 201", resp.StatusCode, body)
	}
}
