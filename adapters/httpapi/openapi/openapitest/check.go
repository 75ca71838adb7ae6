package openapitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/inkwell/inkwell/adapters/httpapi/crud"
	"github.com/inkwell/inkwell/adapters/httpapi/openapi"
	"github.com/inkwell/inkwell/adapters/httpapi/qs"
)

// Check validates req and the response the server gave to it against the
// OpenAPI document; see the package documentation for what fails. req's
// body must still be readable, as it is after fiber.App.Test, which reads
// it and puts an identical copy back. Each problem is a test error, so
// the test goes on and reports every one.
func Check(t testing.TB, req *http.Request, resp *http.Response, body []byte, opts ...Option) {
	t.Helper()
	v, err := load()
	if err != nil {
		// Errorf rather than Fatalf: harnesses call Check from the
		// goroutines of concurrent requests too.
		t.Errorf("openapitest: %v", err)
		return
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	for _, p := range v.problems(req, resp, body, o) {
		t.Errorf("OpenAPI document and server disagree on %s %s → %d: %s", req.Method, req.URL.RequestURI(), resp.StatusCode, p)
	}
}

// validator is the loaded document and a router over its paths.
type validator struct {
	doc    *openapi3.T
	router routers.Router
	// multiSegment lists the prefixes of paths whose last parameter may
	// span several segments (x-multi-segment), such as "/storage/".
	multiSegment []string
}

var load = sync.OnceValues(func() (*validator, error) {
	registerDecoders()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.YAML())
	if err != nil {
		return nil, fmt.Errorf("load openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route openapi.yaml: %w", err)
	}
	return &validator{doc: doc, router: router, multiSegment: multiSegmentPrefixes(doc)}, nil
})

// multiSegmentPrefixes finds the paths that end in a parameter marked
// x-multi-segment and returns what precedes that parameter.
func multiSegmentPrefixes(doc *openapi3.T) []string {
	var out []string
	for path, item := range doc.Paths.Map() {
		open := strings.LastIndex(path, "/{")
		if open < 0 || !strings.HasSuffix(path, "}") {
			continue
		}
		name := path[open+2 : len(path)-1]
		for _, p := range item.Parameters {
			if p.Value != nil && p.Value.In == openapi3.ParameterInPath && p.Value.Name == name && p.Value.Extensions["x-multi-segment"] == true {
				out = append(out, path[:open+1])
			}
		}
	}
	return out
}

// registerDecoders teaches kin-openapi to read bodies as the server reads
// them. Forms are decoded by the server's own qs parser and multipart
// forms with PHP's key conventions, every value a string; the text and
// image types of the operational routes are taken as they are.
func registerDecoders() {
	openapi3filter.RegisterBodyDecoder("application/x-www-form-urlencoded", formDecoder)
	openapi3filter.RegisterBodyDecoder("multipart/form-data", multipartDecoder)
	for _, ct := range []string{"text/html", "text/javascript", "text/css", "application/openmetrics-text"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
	}
	for _, ct := range []string{"image/png", "image/jpeg", "image/gif", "image/webp"} {
		openapi3filter.RegisterBodyDecoder(ct, openapi3filter.FileBodyDecoder)
	}
}

func formDecoder(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	raw, err := io.ReadAll(body)
	if err != nil {
		return nil, err
	}
	return qs.Parse(raw)
}

// multipartDecoder reads every part as a string. A part whose name the
// schema lists as an array ("tags[]") collects its repeated values; any
// other name keeps its last value, as PHP does.
func multipartDecoder(body io.Reader, header http.Header, schema *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
	_, params, err := mime.ParseMediaType(header.Get("Content-Type"))
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	r := multipart.NewReader(body, params["boundary"])
	for {
		part, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, err
		}
		name := part.FormName()
		if prop := schema.Value.Properties[name]; prop != nil && prop.Value.Type.Is("array") {
			list, _ := out[name].([]any)
			out[name] = append(list, string(data))
			continue
		}
		out[name] = string(data)
	}
}

// authenticate accepts any credential the security scheme names: whether
// it is valid is the server's business, the document only says which ones
// are needed.
func authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	req, scheme := in.RequestValidationInput.Request, in.SecurityScheme
	switch {
	case scheme.Type == "http" && strings.EqualFold(scheme.Scheme, "bearer"):
		name, token, _ := strings.Cut(req.Header.Get("Authorization"), " ")
		if !strings.EqualFold(name, "Bearer") || strings.TrimSpace(token) == "" {
			return errors.New("no bearer token")
		}
	case scheme.Type == "apiKey" && scheme.In == "cookie":
		if c, err := req.Cookie(scheme.Name); err != nil || c.Value == "" {
			return fmt.Errorf("no %s cookie", scheme.Name)
		}
	case scheme.Type == "apiKey" && scheme.In == "header":
		if req.Header.Get(scheme.Name) == "" {
			return fmt.Errorf("no %s header", scheme.Name)
		}
	default:
		return fmt.Errorf("unknown security scheme %s", in.SecuritySchemeName)
	}
	return nil
}

func (v *validator) problems(req *http.Request, resp *http.Response, body []byte, o options) []string {
	if req.Method == http.MethodOptions && req.Header.Get("Access-Control-Request-Method") != "" {
		return nil
	}
	routed, err := v.routable(req)
	if err != nil {
		return []string{err.Error()}
	}
	success := resp.StatusCode >= 200 && resp.StatusCode < 300
	route, params, err := v.router.FindRoute(routed)
	switch {
	case errors.Is(err, routers.ErrMethodNotAllowed):
		switch resp.StatusCode {
		case http.StatusMethodNotAllowed:
			return v.unroutedError(req.URL.Path, body, "Method Not Allowed")
		case http.StatusNotFound:
			// A static mount is no route to Fiber, so a method it does
			// not serve is a 404 there.
			return v.unroutedError(req.URL.Path, body, "")
		}
		return []string{"the document does not list this method for the path, yet the server answered neither 405 nor 404"}
	case err != nil:
		if success {
			return []string{"the server answers a route the document does not list"}
		}
		if resp.StatusCode == http.StatusNotFound {
			return v.unroutedError(req.URL.Path, body, "")
		}
		return nil
	}

	var out []string
	ctx := context.Background()
	in := &openapi3filter.RequestValidationInput{
		Request:    routed,
		PathParams: params,
		Route:      route,
		Options: &openapi3filter.Options{
			AuthenticationFunc:  authenticate,
			MultiError:          true,
			SkipSettingDefaults: true,
		},
	}
	if err := strictErrors(openapi3filter.ValidateRequest(ctx, in)); err != nil && success {
		out = append(out, "the document refuses this request, which the server accepted: "+oneLine(err))
	}

	documented := route.Operation.Responses.Status(resp.StatusCode)
	if documented == nil {
		return append(out, "the status is not documented for this operation")
	}
	if len(documented.Value.Content) == 0 && len(body) > 0 && req.Method != http.MethodHead {
		out = append(out, fmt.Sprintf("the response is documented without a body, yet has one: %.200s", body))
	}
	header := resp.Header
	for name := range o.absentHeaders {
		if header.Get(name) == "" {
			// Stand in for the header the app under test does not set;
			// its shape is the document's business only where it is set.
			header = header.Clone()
			header.Set(name, "absent")
		}
	}
	rin := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 resp.StatusCode,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
			// A response to HEAD has the headers of the GET but no body.
			ExcludeResponseBody: req.Method == http.MethodHead,
		},
	}
	if err := openapi3filter.ValidateResponse(ctx, rin); err != nil {
		out = append(out, fmt.Sprintf("the response does not match the document: %s (body %.300s)", oneLine(err), body))
	}
	return out
}

// strictErrors drops from err the complaints about parameters the document
// marks x-lenient, whose values outside the schema the server takes on
// purpose (falling back to a default or capping them).
func strictErrors(err error) error {
	var all openapi3.MultiError
	if !errors.As(err, &all) {
		all = openapi3.MultiError{err}
	}
	var kept openapi3.MultiError
	for _, e := range all {
		if e == nil {
			continue
		}
		var re *openapi3filter.RequestError
		if errors.As(e, &re) && re.Parameter != nil && re.Parameter.Extensions["x-lenient"] == true {
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// routable copies req in the form the router matches as Fiber does: without
// a trailing slash (Fiber's routing is not strict), with the segments of a
// multi-segment parameter folded into one, HEAD routed as the GET it
// mirrors, and a JSON body sent without a content type, or with a vendor
// JSON type, labelled application/json, since both areas read it so.
func (v *validator) routable(req *http.Request) (*http.Request, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, fmt.Errorf("read the request body: %w", err)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	out := req.Clone(context.Background())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	if p := out.URL.Path; len(p) > 1 && strings.HasSuffix(p, "/") {
		out.URL.Path = strings.TrimRight(p, "/")
		out.URL.RawPath = ""
	}
	for _, prefix := range v.multiSegment {
		if rest, ok := strings.CutPrefix(out.URL.Path, prefix); ok && rest != "" {
			// The router matches one segment per parameter; the
			// remaining segments make up this parameter's value.
			out.URL.Path = prefix + strings.ReplaceAll(rest, "/", "%2F")
			out.URL.RawPath = ""
		}
	}
	if out.Method == http.MethodHead {
		out.Method = http.MethodGet
	}
	ct := out.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if len(bytes.TrimSpace(body)) > 0 && (strings.TrimSpace(ct) == "" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))) {
		out.Header.Set("Content-Type", "application/json")
	}
	return out, nil
}

// unroutedError checks the answer to a path the document does not route:
// the error shape of the area that owns the path and, when wantMessage is
// set, that message.
func (v *validator) unroutedError(path string, body []byte, wantMessage string) []string {
	schema := "Error"
	if crud.Owns(path) {
		schema = "CrudError"
	}
	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		return []string{fmt.Sprintf("the error is not JSON: %.200s", body)}
	}
	var out []string
	if err := v.doc.Components.Schemas[schema].Value.VisitJSON(value, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors()); err != nil {
		out = append(out, fmt.Sprintf("the error does not match schema %s: %s (body %.200s)", schema, oneLine(err), body))
	}
	if m, _ := value.(map[string]any); wantMessage != "" && m["message"] != wantMessage {
		out = append(out, fmt.Sprintf("message: got %v, want %q", m["message"], wantMessage))
	}
	return out
}

// oneLine flattens kin-openapi's multi-line errors into one line each, so
// that a failure reads as one sentence in the test log.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// CheckSchema validates raw, a JSON document that no response carries
// whole (a message of an event stream, a webhook's body), against the
// document's component schema name.
func CheckSchema(t testing.TB, name string, raw []byte) {
	t.Helper()
	v, err := load()
	if err != nil {
		t.Errorf("openapitest: %v", err)
		return
	}
	ref, ok := v.doc.Components.Schemas[name]
	if !ok {
		t.Errorf("openapitest: the document has no schema %q", name)
		return
	}
	var value any
	if err := json.Unmarshal(raw, &value); err != nil {
		t.Errorf("openapitest: %s is not JSON: %v", raw, err)
		return
	}
	if err := ref.Value.VisitJSON(value, openapi3.MultiErrors()); err != nil {
		t.Errorf("OpenAPI schema %s and the server disagree on %s: %s", name, raw, oneLine(err))
	}
}
