package openapitest

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const (
	user     = `{"id":1,"name":"Ann","email":"ann@example.com","email_verified_at":null,"avatar_url":null,"created_at":"2026-11-20T10:00:00.000000Z","updated_at":"2026-11-20T10:00:00.000000Z"}`
	person   = `{"id":1,"name":"Ann","email":"ann@example.com","age":null,"address":{"city":"Oslo"},"created_at":"2026-11-20T10:00:00.000000Z","updated_at":"2026-11-20T10:00:00.000000Z"}`
	unauthA  = `{"success":false,"message":"Unauthenticated."}`
	notFound = `{"success":false,"message":"Not Found","data":null}`
)

// exchange is one request and the response a server might give it.
type exchange struct {
	name        string
	method      string
	target      string
	contentType string
	reqBody     string
	header      []string // request header pairs
	status      int
	respType    string // the response's Content-Type; JSON when body is set
	body        string
	noRequestID bool
	opts        []Option
	// want lists a fragment of each problem expected, none for a pair the
	// document agrees with.
	want []string
}

func (e exchange) run(t *testing.T) {
	t.Helper()
	req := httptest.NewRequest(e.method, e.target, strings.NewReader(e.reqBody))
	if e.contentType != "" {
		req.Header.Set("Content-Type", e.contentType)
	}
	for i := 0; i+1 < len(e.header); i += 2 {
		req.Header.Set(e.header[i], e.header[i+1])
	}
	resp := &http.Response{StatusCode: e.status, Header: http.Header{}}
	if e.respType != "" {
		resp.Header.Set("Content-Type", e.respType)
	} else if e.body != "" {
		resp.Header.Set("Content-Type", "application/json")
	}
	if !e.noRequestID {
		resp.Header.Set("X-Request-ID", "abc")
	}
	// Single resources carry a tag, which the exchanges here are not about.
	resp.Header.Set("ETag", `"1-ab"`)
	if e.status == http.StatusUnauthorized && strings.Contains(e.body, `"data"`) {
		resp.Header.Set("WWW-Authenticate", "Bearer")
	}
	v, err := load()
	if err != nil {
		t.Fatal(err)
	}
	var o options
	for _, opt := range e.opts {
		opt(&o)
	}
	got := v.problems(req, resp, []byte(e.body), o)
	if len(got) != len(e.want) {
		t.Fatalf("got problems %q, want %d matching %q", got, len(e.want), e.want)
	}
	for i, w := range e.want {
		if !strings.Contains(got[i], w) {
			t.Errorf("problem %d: got %q, want it to mention %q", i, got[i], w)
		}
	}
}

func TestCheck(t *testing.T) {
	bearer := []string{"Authorization", "Bearer 1|x"}
	tests := []exchange{
		{name: "documented answer", method: "GET", target: "/api/v1/user", header: bearer, status: 200, body: user},
		{name: "trailing slash routes as Fiber does", method: "GET", target: "/api/v1/user/", header: bearer, status: 200, body: user},
		{name: "HEAD routes as GET", method: "HEAD", target: "/api/v1/user", header: bearer, status: 200},
		{name: "field missing", method: "GET", target: "/api/v1/user", header: bearer, status: 200, body: `{"id":1}`,
			want: []string{"does not match the document"}},
		{name: "field the document does not allow", method: "GET", target: "/api/v1/user", header: bearer, status: 200,
			body: strings.Replace(user, `"id":1`, `"id":1,"password":"x"`, 1), want: []string{"password"}},
		{name: "required header missing", method: "GET", target: "/api/v1/user", header: bearer, status: 200, body: user, noRequestID: true,
			want: []string{"X-Request-ID"}},
		{name: "header absent by design", method: "GET", target: "/users/1", status: 200, noRequestID: true,
			body: `{"success":true,"message":"Success","data":` + person + `}`, opts: []Option{WithoutHeader("X-Request-ID")}},
		{name: "status not documented", method: "GET", target: "/api/v1/user", header: bearer, status: 418, body: unauthA,
			want: []string{"status is not documented"}},
		{name: "body where none is documented", method: "DELETE", target: "/users/1", status: 204, body: `{}`,
			want: []string{"without a body"}},
		{name: "route the document lacks", method: "GET", target: "/api/v1/secret", status: 200, body: `{}`,
			want: []string{"does not list"}},
		{name: "unknown route under /api", method: "GET", target: "/api/v1/nothing", status: 404, body: `{"success":false,"message":"Resource not found."}`},
		{name: "unknown route in area A's shape outside /api", method: "GET", target: "/nowhere", status: 404, body: unauthA,
			want: []string{"CrudError"}},
		{name: "unknown route outside /api", method: "GET", target: "/nowhere", status: 404, body: notFound},
		{name: "wrong method", method: "GET", target: "/api/v1/register", status: 405, body: `{"success":false,"message":"Method Not Allowed"}`},
		{name: "wrong method not refused", method: "GET", target: "/api/v1/register", status: 200, body: `{}`,
			want: []string{"neither 405 nor 404"}},
		{name: "stored file", method: "GET", target: "/storage/posts/0c5e.png", status: 200, respType: "image/png", body: "\x89PNG"},
		{name: "stored file with a wrong method", method: "DELETE", target: "/storage/posts/0c5e.png", status: 404, body: notFound},
		{name: "document stricter than the server", method: "POST", target: "/api/v1/register", contentType: "application/json", reqBody: `{}`,
			status: 201, body: `{"message":"User registered successfully.","user":` + user + `,"token":"1|Jd3kq0AbCdEfGhIjKlMnOpQrStUvWxYz01234567fc740063"}`,
			want: []string{"refuses this request"}},
		{name: "refused request refused", method: "POST", target: "/api/v1/register", contentType: "application/json", reqBody: `{}`,
			status: 422, body: `{"success":false,"message":"Validation failed.","errors":{"name":["The name field is required."]}}`},
		{name: "token missing yet accepted", method: "GET", target: "/api/v1/user", status: 200, body: user,
			want: []string{"refuses this request"}},
		{name: "token missing and refused", method: "GET", target: "/api/v1/user", status: 401, body: unauthA},
		{name: "lenient parameters", method: "GET", target: "/users?page=abc&limit=5000", status: 200,
			body: `{"success":true,"message":"Success","data":[]}`, noRequestID: true, opts: []Option{WithoutHeader("X-Request-ID")},
			want: []string{`"Link" missing`}},
		{name: "nested form", method: "POST", target: "/users", contentType: "application/x-www-form-urlencoded",
			reqBody: "name=Ann&email=ann%40example.com&age=&address[city]=Oslo&address[planet]=Earth",
			status:  201, body: `{"success":true,"message":"Created","data":` + person + `}`},
		{name: "JSON without a content type", method: "POST", target: "/users", reqBody: `{"name":"Ann","email":"ann@example.com"}`,
			status: 201, body: `{"success":true,"message":"Created","data":` + person + `}`},
		{name: "preflight", method: "OPTIONS", target: "/anything", header: []string{"Access-Control-Request-Method", "POST"}, status: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

func TestCheckMultipart(t *testing.T) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for _, kv := range [][2]string{{"title", "T"}, {"body", "B"}, {"status", "draft"}, {"tags[]", "1"}, {"tags[]", "2"}} {
		_ = w.WriteField(kv[0], kv[1])
	}
	f, _ := w.CreateFormFile("image", "a.png")
	_, _ = f.Write([]byte("\x89PNG"))
	_ = w.Close()
	post := `{"data":{"id":1,"type":"post","attributes":{"title":"T","slug":"t","excerpt":"B","body":"B","status":"draft","image_url":null,"published_at":null,"created_at":"2026-11-20T10:00:00.000000Z","updated_at":"2026-11-20T10:00:00.000000Z"},"relationships":{"author":{"id":1,"type":"user","attributes":{"name":"Ann","avatar_url":null}},"tags":[]},"links":{"self":"http://example.com/api/v1/posts/1"}}}`
	exchange{method: "POST", target: "/api/v1/posts", contentType: w.FormDataContentType(), reqBody: body.String(),
		header: []string{"Authorization", "Bearer 1|x"}, status: 201, body: post}.run(t)
	exchange{method: "POST", target: "/api/v1/posts", contentType: w.FormDataContentType(), reqBody: strings.Replace(body.String(), "draft", "gone", 1),
		header: []string{"Authorization", "Bearer 1|x"}, status: 201, body: post, want: []string{"refuses this request"}}.run(t)
}
