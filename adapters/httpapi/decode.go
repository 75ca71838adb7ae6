package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
)

// jsonBody decodes an area A request body into a map for validation, as
// decodeJSONObject does.
func jsonBody(c *fiber.Ctx) (map[string]any, error) {
	return decodeJSONObject(c.Body(), c.Get(fiber.HeaderContentType))
}

// decodeJSONObject decodes a request body sent with contentType. An empty
// body is an empty object; a body that is not a JSON object, or that is
// sent with another content type, is refused with a 400. Numbers stay
// json.Number, so that the validator reads their exact text.
func decodeJSONObject(raw []byte, contentType string) (map[string]any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil
	}
	if !isJSON(contentType) {
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

// pathID reads the record id in path parameter name. Only plain decimal
// digits naming a positive int64 are ids ("+1", "1e3" and "0" are not);
// anything else names no record, so it is a 404 like a missing one.
func pathID(c *fiber.Ctx, name string) (int64, error) {
	raw := c.Params(name)
	if raw == "" || strings.Trim(raw, "0123456789") != "" {
		return 0, domain.ErrNotFound
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.ErrNotFound
	}
	return id, nil
}
