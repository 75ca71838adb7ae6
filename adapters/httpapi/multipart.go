package httpapi

import (
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// errMalformedMultipart refuses a multipart body that can't be parsed.
var errMalformedMultipart = fiber.NewError(http.StatusBadRequest, "Malformed multipart body.")

// formBody decodes a post's request body, JSON or multipart/form-data, into
// the shape jsonBody produces, so that one validation serves both. In a
// multipart body every value is a string and every file a
// *multipart.FileHeader; keys follow PHP's conventions, as a Laravel client
// expects: "tags[]" appends to a list, "tags[0]" places an element, "a[b]"
// makes an object and a repeated plain key keeps its last value.
func formBody(c *fiber.Ctx) (map[string]any, error) {
	if !isMultipart(c.Get(fiber.HeaderContentType)) {
		return jsonBody(c)
	}
	form, err := c.MultipartForm()
	if err != nil {
		return nil, errMalformedMultipart
	}
	var d formDecoder
	for key, values := range form.Value {
		for _, v := range values {
			d.add(key, v)
		}
	}
	for key, files := range form.File {
		for _, f := range files {
			d.add(key, f)
		}
	}
	return d.body(), nil
}

// isMultipart reports whether contentType is multipart/form-data.
func isMultipart(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == fiber.MIMEMultipartForm
}

// formDecoder collects the fields of a form. Keys are visited in no
// particular order (the form is a map), so a list's elements are ordered by
// their index, "[]" elements coming after the indexed ones in the order
// they were sent.
type formDecoder struct {
	plain   map[string]any
	lists   map[string][]formElem
	objects map[string]map[string]any
}

// formElem is one element of a list field; index is -1 for "[]".
type formElem struct {
	index int
	seq   int
	value any
}

// add records one value sent under key.
func (d *formDecoder) add(key string, value any) {
	base, sub, bracketed := splitFormKey(key)
	switch {
	case !bracketed:
		if d.plain == nil {
			d.plain = map[string]any{}
		}
		d.plain[base] = value
	case sub == "" || isIndex(sub):
		if d.lists == nil {
			d.lists = map[string][]formElem{}
		}
		index := -1
		if sub != "" {
			index, _ = strconv.Atoi(sub)
		}
		d.lists[base] = append(d.lists[base], formElem{index: index, seq: len(d.lists[base]), value: value})
	default:
		if d.objects == nil {
			d.objects = map[string]map[string]any{}
		}
		if d.objects[base] == nil {
			d.objects[base] = map[string]any{}
		}
		d.objects[base][sub] = value
	}
}

// body assembles the fields. A bracketed key wins over a plain one of the
// same name, and an object over a list, as PHP's merge of such keys leaves
// an array that is no longer a plain list.
func (d *formDecoder) body() map[string]any {
	out := make(map[string]any, len(d.plain)+len(d.lists)+len(d.objects))
	for k, v := range d.plain {
		out[k] = v
	}
	for k, elems := range d.lists {
		sort.SliceStable(elems, func(i, j int) bool {
			a, b := elems[i], elems[j]
			if (a.index < 0) != (b.index < 0) {
				return b.index < 0
			}
			if a.index != b.index {
				return a.index < b.index
			}
			return a.seq < b.seq
		})
		list := make([]any, 0, len(elems))
		for i, e := range elems {
			// A repeated index keeps its last value, as PHP does.
			if i > 0 && e.index >= 0 && e.index == elems[i-1].index {
				list[len(list)-1] = e.value
				continue
			}
			list = append(list, e.value)
		}
		out[k] = list
	}
	for k, obj := range d.objects {
		out[k] = obj
	}
	return out
}

// splitFormKey splits "tags[0]" into "tags" and "0". Only the first
// bracket pair counts: deeper nesting has no use in a post's fields.
func splitFormKey(key string) (base, sub string, bracketed bool) {
	open := strings.IndexByte(key, '[')
	if open <= 0 {
		return key, "", false
	}
	end := strings.IndexByte(key[open:], ']')
	if end < 0 {
		return key, "", false
	}
	return key[:open], key[open+1 : open+end], true
}

// isIndex reports whether s is a list index: decimal digits that fit an
// int.
func isIndex(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
