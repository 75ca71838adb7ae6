package console

import "github.com/gofiber/fiber/v2"

// formValue is the first value of the form field key that the request's
// body carries, urlencoded or multipart; "" without one. Unlike
// c.FormValue it never falls back to the query string, where a CSRF token
// or a password would land in access logs, proxies and Referer headers:
// the console's forms all post their fields in the body.
func formValue(c *fiber.Ctx, key string) string {
	req := c.Request()
	if v := req.PostArgs().Peek(key); v != nil {
		return string(v)
	}
	if form, err := req.MultipartForm(); err == nil {
		if vs := form.Value[key]; len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}

// formValues is every value of the form field key that the request's body
// carries, as formValue reads it: a list of checkboxes sends one each.
func formValues(c *fiber.Ctx, key string) []string {
	req := c.Request()
	var out []string
	for _, v := range req.PostArgs().PeekMulti(key) {
		out = append(out, string(v))
	}
	if out != nil {
		return out
	}
	if form, err := req.MultipartForm(); err == nil {
		return form.Value[key]
	}
	return nil
}
