package crud_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/adapters/httpapi/cors"
	"github.com/inkwell/inkwell/adapters/httpapi/crud"
	"github.com/inkwell/inkwell/adapters/httpapi/openapi/openapitest"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/internal/stacktest"
	"github.com/inkwell/inkwell/ports"
)

// stores lists the stores every test of area B runs against.
var stores = stacktest.Stores()

// forEachStore runs test once per store, each with a fresh API.
func forEachStore(t *testing.T, opts options, test func(t *testing.T, a *api)) {
	t.Helper()
	for _, s := range stores {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			test(t, newAPI(t, s.Open(t), opts))
		})
	}
}

// timeLayout is how area B writes times.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// validToken is the one bearer token the test authenticator accepts.
const validToken = "1|valid"

type options struct {
	cors         cors.Config
	requireToken bool
	// baseURL prefixes Link and Location; empty means the request's scheme
	// and host.
	baseURL string
}

// api is area B as the server mounts it: CORS in front, the routes, and an
// error handler that gives area B's paths to RenderError.
type api struct {
	t     *testing.T
	app   *fiber.App
	clock *clock.Fixed
	store ports.Store
}

func newAPI(t *testing.T, store ports.Store, opts options) *api {
	stack := stacktest.NewStack(t, store, stacktest.Options{})
	f := fiber.New(fiber.Config{
		Immutable:             true,
		BodyLimit:             1 << 20,
		DisableStartupMessage: true,
		ErrorHandler: func(c *fiber.Ctx, err error) error {
			if crud.Owns(c.Path()) {
				return crud.RenderError(c, err)
			}
			return c.Status(http.StatusTeapot).SendString("area A")
		},
	})
	f.Use(cors.New(opts.cors))
	crud.Mount(f, crud.Deps{
		People:       stack.Services.People,
		Products:     stack.Services.Products,
		Authenticate: authenticate,
		RequireToken: opts.requireToken,
		BaseURL: func(c *fiber.Ctx) string {
			if opts.baseURL != "" {
				return opts.baseURL
			}
			return c.BaseURL()
		},
	})
	return &api{t: t, app: f, clock: stack.Clock, store: store}
}

func authenticate(_ context.Context, bearer string) (domain.Actor, error) {
	if bearer != validToken {
		return domain.Actor{}, domain.ErrUnauthenticated
	}
	return domain.Actor{User: domain.User{ID: 1}}, nil
}

// reply is a response with its envelope decoded.
type reply struct {
	Status  int
	Header  http.Header
	Raw     string
	Success bool            `json:"success"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Meta    json.RawMessage `json:"meta"`
}

// do sends a request; header lists name, value pairs.
func (a *api) do(method, path, contentType, body string, header ...string) reply {
	a.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := a.app.Test(req, -1)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		a.t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	openapitest.Check(a.t, req, res, raw, openapitest.WithoutHeader("X-Request-ID"))
	r := reply{Status: res.StatusCode, Header: res.Header, Raw: string(raw)}
	if len(raw) > 0 && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &r); err != nil {
			a.t.Fatalf("%s %s: decode %q: %v", method, path, raw, err)
		}
	}
	return r
}

// json sends body as JSON: a string is sent as it is, anything else marshalled.
func (a *api) json(method, path string, body any, header ...string) reply {
	a.t.Helper()
	text, ok := body.(string)
	if !ok && body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			a.t.Fatal(err)
		}
		text = string(b)
	}
	return a.do(method, path, "application/json", text, header...)
}

// form sends an url-encoded body.
func (a *api) form(method, path, body string, header ...string) reply {
	a.t.Helper()
	return a.do(method, path, "application/x-www-form-urlencoded", body, header...)
}

// mustCreate creates a record and returns its representation.
func (a *api) mustCreate(path string, body any) map[string]any {
	a.t.Helper()
	r := a.json("POST", path, body)
	if r.Status != http.StatusCreated {
		a.t.Fatalf("POST %s: got %d %s, want 201", path, r.Status, r.Raw)
	}
	return r.object()
}

// object decodes data as one object; numbers stay json.Number.
func (r reply) object() map[string]any {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(r.Data))
	dec.UseNumber()
	_ = dec.Decode(&m)
	return m
}

// list decodes data as a list of objects.
func (r reply) list() []map[string]any {
	var l []map[string]any
	dec := json.NewDecoder(bytes.NewReader(r.Data))
	dec.UseNumber()
	_ = dec.Decode(&l)
	return l
}

// ids returns the id of every object in data, as text.
func (r reply) ids() []string {
	var ids []string
	for _, m := range r.list() {
		ids = append(ids, idOf(m))
	}
	return ids
}

func idOf(m map[string]any) string {
	n, _ := m["id"].(json.Number)
	return n.String()
}

// check asserts the status and the envelope around it: success
// follows the status, and errors carry data null.
func (r reply) check(t *testing.T, wantStatus int, wantMessage string) {
	t.Helper()
	if r.Status != wantStatus {
		t.Fatalf("status: got %d, want %d (body %s)", r.Status, wantStatus, r.Raw)
	}
	if wantStatus == http.StatusNoContent {
		if r.Raw != "" {
			t.Errorf("body: got %q, want none", r.Raw)
		}
		return
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.Raw), &keys); err != nil {
		t.Fatalf("body %q is no JSON object: %v", r.Raw, err)
	}
	for _, k := range []string{"success", "message", "data"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("envelope lacks %q: %s", k, r.Raw)
		}
	}
	if want := wantStatus < 300; r.Success != want {
		t.Errorf("success: got %v, want %v", r.Success, want)
	}
	if r.Message != wantMessage {
		t.Errorf("message: got %q, want %q", r.Message, wantMessage)
	}
	if wantStatus >= 400 && string(r.Data) != "null" {
		t.Errorf("data: got %s, want null", r.Data)
	}
}
