// Package openapitest checks the HTTP tests' traffic against the OpenAPI
// document, so that the document can't drift from what the server does.
//
// Both HTTP test harnesses hand every request they send, and the response
// they get, to Check. A pair fails the test when:
//
//   - the server answered 2xx on a route the document does not list;
//   - the document lists the path but not the method, and the server did
//     not answer 405 (or 404), or answered in another shape than the area's
//     error;
//   - the document does not list the status for the operation;
//   - a response header the document requires is missing or malformed;
//   - the body does not match the schema of its content type, or a response
//     documented without a body has one;
//   - the document would refuse the request (a parameter, the body or the
//     credentials) and yet the server accepted it with a 2xx, which means
//     the document is stricter than the server.
//
// An unknown path must answer 404 in the shape of the area that owns it.
// CORS preflights are answered before routing on every path and are not
// operations of the document, so they are left alone.
package openapitest

import "net/http"

// Option adjusts what Check expects of an app that is not the whole server.
type Option func(*options)

type options struct {
	absentHeaders map[string]bool
}

// WithoutHeader tells Check that the app under test is mounted without the
// middleware that sets the response header name, so its absence is not a
// disagreement. The area B harness serves area B alone, without the
// server's request-id middleware, for example.
func WithoutHeader(name string) Option {
	return func(o *options) {
		if o.absentHeaders == nil {
			o.absentHeaders = map[string]bool{}
		}
		o.absentHeaders[http.CanonicalHeaderKey(name)] = true
	}
}
