package crud_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/httpapi/cors"
)

func TestBodies(t *testing.T) {
	forEachStore(t, options{}, func(t *testing.T, a *api) {
		deep := "name=Ann&email=a%40example.com&a" + strings.Repeat("[b]", 33) + "=1"
		var many strings.Builder
		for i := range 1001 {
			many.WriteString("&f" + strings.Repeat("x", i%3) + "=" + "1")
		}
		tests := []struct {
			name, contentType, body string
			status                  int
			want                    string
		}{
			{"malformed JSON", "application/json", `{"name":`, 400, "Malformed JSON body."},
			{"trailing data", "application/json", `{"name":"Ann"} {}`, 400, "Malformed JSON body."},
			{"single quotes", "application/json", `{'name':'Ann'}`, 400, "Malformed JSON body."},
			{"JSON list", "application/json", `[{"name":"Ann"}]`, 400, "Request body must be a JSON object."},
			{"JSON string", "application/json", `"Ann"`, 400, "Request body must be a JSON object."},
			{"JSON number", "application/json", `42`, 400, "Request body must be a JSON object."},
			{"JSON null", "application/json", `null`, 400, "Request body must be a JSON object."},
			{"vendor JSON type", "application/vnd.api+json", `{"name":"Ann"}`, 400, "email is required"},
			{"no content type is JSON", "", `{"name":"Ann"}`, 400, "email is required"},
			{"plain text", "text/plain", `name=Ann`, 400, "Unsupported content type."},
			{"multipart", "multipart/form-data; boundary=x", "--x\r\n\r\n--x--", 400, "Unsupported content type."},
			{"garbled content type", "application/", `{}`, 400, "Unsupported content type."},
			{"form in an unsupported charset", "application/x-www-form-urlencoded; charset=koi8-r", "name=Ann", 415, "Unsupported Media Type"},
			{"form too deep", "application/x-www-form-urlencoded", deep, 400, "Bad Request"},
			{"form with too many parameters", "application/x-www-form-urlencoded", "name=Ann" + many.String(), 413, "Payload Too Large"},
			{"large value under the limit", "application/json", `{"name":"` + strings.Repeat("x", 1<<19) + `","email":"a@example.com"}`, 400, "name must be at most 255 characters"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				a.do("POST", "/users", tt.contentType, tt.body).check(t, tt.status, tt.want)
			})
		}
		if got := a.do("GET", "/users", "", "").Header.Get("X-Total-Count"); got != "0" {
			t.Errorf("records after refused bodies: got %s, want 0", got)
		}
	})
}

func TestRouting(t *testing.T) {
	a := newAPI(t, stores[0].Open(t), options{})
	a.mustCreate("/users", map[string]any{"name": "Ann", "email": "ann@example.com"})
	a.mustCreate("/products", map[string]any{"name": "Pen", "price": 1})
	tests := []struct {
		method, path string
		status       int
		want         string
	}{
		{"GET", "/users/1", 200, "Success"},
		{"GET", "/users/1/", 200, "Success"},
		{"GET", "/users/01", 200, "Success"},
		{"GET", "/users/2", 404, "User not found"},
		{"GET", "/users/0", 404, "User not found"},
		{"GET", "/users/-1", 404, "User not found"},
		{"GET", "/users/+1", 404, "User not found"},
		{"GET", "/users/1.0", 404, "User not found"},
		{"GET", "/users/abc", 404, "User not found"},
		{"GET", "/users/%F0%9F%9A%80", 404, "User not found"},
		{"GET", "/users/99999999999999999999", 404, "User not found"},
		{"DELETE", "/api/v1/users/abc", 404, "User not found"},
		{"PUT", "/api/v2/users/abc", 404, "User not found"},
		{"GET", "/products/abc", 404, "Product not found"},
		{"GET", "/api/v1/products/9", 404, "Product not found"},
		{"GET", "/api/v2/products/1", 418, ""},
		{"GET", "/users/1/orders", 404, "Not Found"},
		{"GET", "/nowhere", 404, "Not Found"},
		{"GET", "/index.html", 404, "Not Found"},
		{"POST", "/users/1", 405, "Method Not Allowed"},
		{"DELETE", "/users", 405, "Method Not Allowed"},
		{"GET", "/api/v1/nowhere", 418, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			r := a.do(tt.method, tt.path, "", "")
			if tt.status == http.StatusTeapot {
				if r.Status != tt.status || r.Raw != "area A" {
					t.Errorf("got %d %q, want area A's error handler", r.Status, r.Raw)
				}
				return
			}
			r.check(t, tt.status, tt.want)
		})
	}
}

func TestRequireToken(t *testing.T) {
	forEachStore(t, options{requireToken: true}, func(t *testing.T, a *api) {
		bearer := []string{"Authorization", "Bearer " + validToken}
		user := idOf(a.mustCreateWith("/users", `{"name":"Ann","email":"ann@example.com"}`, bearer...))
		product := idOf(a.mustCreateWith("/products", `{"name":"Pen","price":1}`, bearer...))

		writes := []struct{ method, path, body string }{
			{"POST", "/users", `{"name":"Bob","email":"bob@example.com"}`},
			{"POST", "/api/v2/users", `{"name":"Cid","email":"cid@example.com"}`},
			{"PUT", "/api/v1/users/" + user, `{"name":"Ann","email":"ann@example.com"}`},
			{"PATCH", "/api/v2/users/" + user, `{"age":3}`},
			{"DELETE", "/users/" + user, ``},
			{"POST", "/products", `{"name":"Pen","price":1}`},
			{"PUT", "/api/v1/products/" + product, `{"name":"Pen","price":2}`},
			{"DELETE", "/products/" + product, ``},
		}
		refusals := []struct {
			name   string
			header []string
		}{
			{"no header", nil},
			{"unknown token", []string{"Authorization", "Bearer 1|forged"}},
			{"other scheme", []string{"Authorization", "Basic " + validToken}},
			{"scheme only", []string{"Authorization", "Bearer"}},
			{"empty token", []string{"Authorization", "Bearer   "}},
		}
		for _, w := range writes {
			for _, refusal := range refusals {
				t.Run(w.method+" "+w.path+" "+refusal.name, func(t *testing.T) {
					r := a.json(w.method, w.path, w.body, refusal.header...)
					r.check(t, http.StatusUnauthorized, "Unauthorized")
					if got := r.Header.Get("WWW-Authenticate"); got != "Bearer" {
						t.Errorf("WWW-Authenticate: got %q, want Bearer", got)
					}
				})
			}
		}
		// Reads stay open.
		for _, path := range []string{"/users", "/users/" + user, "/api/v2/users", "/products/" + product} {
			a.do("GET", path, "", "").check(t, http.StatusOK, "Success")
		}
		// The scheme is case-insensitive, and the token is checked before
		// the body, so an unauthenticated client learns nothing of the rules.
		a.json("POST", "/users", `{}`, "Authorization", "bearer "+validToken).check(t, http.StatusBadRequest, "name is required")
		a.json("POST", "/users", `{`).check(t, http.StatusUnauthorized, "Unauthorized")
		for _, w := range writes {
			r := a.json(w.method, w.path, w.body, bearer...)
			if r.Status >= 300 {
				t.Errorf("%s %s with a token: got %d %s, want success", w.method, w.path, r.Status, r.Raw)
			}
		}
	})
}

// mustCreateWith creates a record sending header.
func (a *api) mustCreateWith(path, body string, header ...string) map[string]any {
	a.t.Helper()
	r := a.json("POST", path, body, header...)
	if r.Status != http.StatusCreated {
		a.t.Fatalf("POST %s: got %d %s, want 201", path, r.Status, r.Raw)
	}
	return r.object()
}

func TestCORS(t *testing.T) {
	const listed, foreign = "https://app.example.com", "https://evil.example.net"
	configs := []struct {
		name    string
		cfg     cors.Config
		allowed map[string]bool
	}{
		{"development", cors.Config{AllowAnyOrigin: true}, map[string]bool{listed: true, foreign: true}},
		{"production", cors.Config{AllowedOrigins: []string{listed}}, map[string]bool{listed: true}},
	}
	requests := []struct {
		name, method, path, body string
		preflight                bool
		status                   int
	}{
		{"preflight", "OPTIONS", "/api/v1/users", "", true, 200},
		{"preflight of a record", "OPTIONS", "/products/1", "", true, 200},
		{"simple GET", "GET", "/users", "", false, 200},
		{"POST", "POST", "/api/v2/users", `{"name":"Ann","email":"ann@example.com"}`, false, 201},
		{"error", "GET", "/users/424242", "", false, 404},
		{"unknown path", "GET", "/nowhere", "", false, 404},
	}
	for _, c := range configs {
		for _, origin := range []string{listed, foreign} {
			for _, rq := range requests {
				t.Run(c.name+" "+origin+" "+rq.name, func(t *testing.T) {
					a := newAPI(t, stores[0].Open(t), options{cors: c.cfg})
					header := []string{"Origin", origin}
					if rq.preflight {
						header = append(header, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type,authorization")
					}
					r := a.json(rq.method, rq.path, rq.body, header...)
					if r.Status != rq.status {
						t.Fatalf("status: got %d, want %d (%s)", r.Status, rq.status, r.Raw)
					}
					want := ""
					if c.allowed[origin] {
						want = origin
					}
					if got := r.Header.Get("Access-Control-Allow-Origin"); got != want {
						t.Errorf("Access-Control-Allow-Origin: got %q, want %q", got, want)
					}
					wantCreds := map[bool]string{true: "true"}[want != ""]
					if got := r.Header.Get("Access-Control-Allow-Credentials"); got != wantCreds {
						t.Errorf("Access-Control-Allow-Credentials: got %q, want %q", got, wantCreds)
					}
					if got := r.Header.Get("Vary"); got != "Origin" {
						t.Errorf("Vary: got %q, want Origin", got)
					}
					if rq.preflight {
						if r.Raw != "" {
							t.Errorf("preflight body: got %q, want none", r.Raw)
						}
						wantMethods, wantHeaders := "", ""
						if want != "" {
							wantMethods, wantHeaders = "GET,POST,PUT,DELETE,OPTIONS,PATCH", strings.Join(cors.DefaultAllowedHeaders, ",")
						}
						if got := r.Header.Get("Access-Control-Allow-Methods"); got != wantMethods {
							t.Errorf("Access-Control-Allow-Methods: got %q, want %q", got, wantMethods)
						}
						if got := r.Header.Get("Access-Control-Allow-Headers"); got != wantHeaders {
							t.Errorf("Access-Control-Allow-Headers: got %q, want %q", got, wantHeaders)
						}
					}
				})
			}
		}
	}
}

// TestBodyLimit announces a body over the limit through a real listener: the
// server refuses it from the headers, before any route runs, and the refusal
// still wears the envelope. The body itself is never sent, since the server
// closes the connection after answering and a client still writing would
// see a reset instead of the answer.
func TestBodyLimit(t *testing.T) {
	origin, _ := serveAPI(t, cors.Config{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(origin, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	head := "POST /users HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status: got %d, want 413", res.StatusCode)
	}
	if want := `{"success":false,"message":"Payload Too Large","data":null}`; string(raw) != want {
		t.Errorf("body: got %s, want %s", raw, want)
	}
}
