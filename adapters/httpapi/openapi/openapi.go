// Package openapi holds the service's OpenAPI 3.1 document and the files of
// its interactive documentation, all embedded in the binary so that both
// work without any other host.
//
// The document is written as YAML (openapi.yaml), which reads better than
// JSON at its length, and served as JSON, which is what tools fetch. Its
// validity against the OpenAPI and JSON Schema rules is checked by the
// package's tests rather than at start: the document is fixed when the
// binary is built, so a test can catch every mistake a start-time check
// could, without linking a validator into the server.
package openapi

import (
	"embed"
	"fmt"
	"io/fs"
	"sync"
)

//go:embed openapi.yaml
var source []byte

//go:embed assets/index.html assets/docs.js assets/swagger-ui-bundle.js assets/swagger-ui.css assets/swagger-ui-bundle.js.LICENSE.txt assets/LICENSE assets/NOTICE
var assets embed.FS

// YAML returns the document as written.
func YAML() []byte { return source }

var document = sync.OnceValues(func() ([]byte, error) {
	out, err := yamlToJSON(source)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	return out, nil
})

// JSON returns the document as JSON, keys in the order openapi.yaml has
// them. It is converted once; the error can only come from a malformed
// openapi.yaml, which the package's tests rule out.
func JSON() ([]byte, error) { return document() }

// Assets returns the files of the documentation page: index.html, its
// script docs.js, Swagger UI's bundle and style sheet (swagger-ui-dist,
// see assets/README.md) and Swagger UI's license and notice, which its
// Apache License asks to pass on with it.
func Assets() fs.FS {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		// fs.Sub fails only on an invalid path, and "assets" is valid.
		panic(err)
	}
	return sub
}
