package openapi

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestDocumentValidates checks the document against the OpenAPI 3.1 rules
// and its schemas against JSON Schema's, examples included.
func TestDocumentValidates(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(YAML())
	if err != nil {
		t.Fatal(err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("version %s, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatal(err)
	}
}
