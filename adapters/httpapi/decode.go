package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"

	"github.com/gofiber/fiber/v2"
)

// jsonBody decodes an area A request body into a map for validation. An
// empty body is an empty object; a body that is not a JSON object, or that
// is sent with another content type, is refused with a 400.
func jsonBody(c *fiber.Ctx) (map[string]any, error) {
	raw := c.Body()
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil
	}
	if !isJSON(c.Get(fiber.HeaderContentType)) {
		return nil, errUnsupportedContent
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var body map[string]any
	if err := dec.Decode(&body); err != nil || body == nil {
		return nil, errMalformedJSON
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errMalformedJSON
	}
	return body, nil
}

// isJSON accepts application/json, any application/*+json type, and a
// missing content type, which clients sending JSON often leave out.
func isJSON(contentType string) bool {
	if contentType == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == fiber.MIMEApplicationJSON || (len(mt) > 17 && mt[:12] == "application/" && mt[len(mt)-5:] == "+json")
}
