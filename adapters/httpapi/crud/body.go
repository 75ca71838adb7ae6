package crud

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/qs"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
)

// decodeBody reads a request body into a validator of its fields. JSON
// numbers stay json.Number, so prices and ages keep their exact text, and
// must be JSON numbers, as the API promises; url-encoded bodies are decoded
// as Express's qs does, strings only, which the validator converts, and an
// unsupported charset is refused with Express's 415. An empty body is an
// empty object, so a create without one fails validation like any other
// incomplete input.
func decodeBody(c *fiber.Ctx) (*validate.Validator, error) {
	raw := c.Body()
	if len(bytes.TrimSpace(raw)) == 0 {
		return validate.New(nil), nil
	}
	mt, charset := mediaType(c.Get(fiber.HeaderContentType))
	switch mt {
	case "json":
		body, err := decodeJSON(raw)
		if err != nil {
			return nil, err
		}
		return validate.NewTyped(body), nil
	case "form":
		body, err := qs.ParseCharset(raw, charset)
		if err != nil {
			return nil, fiber.NewError(qs.Status(err))
		}
		return validate.New(body), nil
	default:
		return nil, errUnsupportedContent
	}
}

// mediaType sorts a Content-Type into "json", "form" or "" and returns its
// charset parameter. A missing type is read as JSON, as area A does, since
// clients sending JSON often leave it out.
func mediaType(contentType string) (kind, charset string) {
	if strings.TrimSpace(contentType) == "" {
		return "json", ""
	}
	mt, params, err := mime.ParseMediaType(contentType)
	switch {
	case err != nil:
		return "", ""
	case mt == fiber.MIMEApplicationJSON, strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"):
		return "json", params["charset"]
	case mt == fiber.MIMEApplicationForm:
		return "form", params["charset"]
	}
	return "", ""
}

// decodeJSON decodes one JSON object and nothing after it.
func decodeJSON(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, errMalformedJSON
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errMalformedJSON
	}
	body, ok := v.(map[string]any)
	if !ok {
		return nil, errNotAnObject
	}
	return body, nil
}
