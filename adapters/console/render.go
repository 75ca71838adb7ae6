package console

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/domain"
)

//go:embed templates/*.html
var templateFiles embed.FS

// pageNames are the console's templates under templates/, each rendered
// inside layout.html.
var pageNames = []string{"login", "error", "overview", "users", "user", "posts", "post", "comments", "trash", "tags", "people", "person", "products", "product", "webhooks", "webhook", "mails", "audit", "setup"}

// hostedNames are the hosted pages' templates (hosted.go), each rendered
// inside hosted.html, which has neither the console's navigation nor
// scripts.
var hostedNames = []string{"reset", "message"}

// pages are the parsed page templates by name.
type pages map[string]*template.Template

// funcs are the helpers the templates call. html/template escapes
// everything they return.
var funcs = template.FuncMap{"when": when, "visible": visible, "version": formatVersion, "price": formatCents, "sortHeading": sortHeading}

// visible writes every control and format character of s (the bidi
// controls U+202A-U+202E, U+2066-U+2069, U+200E, U+200F and U+061C, the
// zero-width ones, C0 and C1) as its code point, ⟨U+202E⟩, so that two
// e-mails or names that differ only by one are told apart, and none
// reorders the text around it. The templates show user text inside <bdi>
// (or an element with dir="auto"), which keeps its direction from leaking
// out; where an operator must compare values, they show it visible too.
func visible(s string) string {
	if !strings.ContainsFunc(s, hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if hidden(r) {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hidden reports whether r is a control or format character, which a
// page would not show as itself.
func hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// when is how the console writes a time, UTC to the second; "—" for none.
func when(t any) string {
	switch v := t.(type) {
	case time.Time:
		if v.IsZero() {
			return "—"
		}
		return v.UTC().Format("2006-01-02 15:04:05")
	case *time.Time:
		if v == nil {
			return "—"
		}
		return v.UTC().Format("2006-01-02 15:04:05")
	}
	return ""
}

func mustParsePages() pages {
	p := pages{}
	for _, name := range pageNames {
		t := template.New("layout.html").Funcs(funcs)
		p[name] = template.Must(t.ParseFS(templateFiles, "templates/layout.html", "templates/"+name+".html"))
	}
	for _, name := range hostedNames {
		t := template.New("hosted.html").Funcs(funcs)
		p[name] = template.Must(t.ParseFS(templateFiles, "templates/hosted.html", "templates/"+name+".html"))
	}
	return p
}

// page is what every template gets: the layout's fields and the page's own
// Data.
type page struct {
	Title string
	// CSRF is the session's token, which every form carries.
	CSRF string
	// Admin is the signed-in admin's e-mail; empty on the sign-in and
	// error pages of a request without one.
	Admin string
	// Notice is the one-time message of the action just done.
	Notice string
	// Error is the sign-in form's refusal.
	Error string
	Email string
	Data  any
}

// render writes the named page with status.
func (k *Console) render(c *fiber.Ctx, status int, name string, p page) error {
	return k.pages.render(c, status, name, p)
}

// render writes the named page with status and the console's headers.
func (ps pages) render(c *fiber.Ctx, status int, name string, p page) error {
	var buf bytes.Buffer
	if err := ps[name].Execute(&buf, p); err != nil {
		return err
	}
	setHeaders(c)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Status(status).Send(buf.Bytes())
}

// show renders a page of a signed-in admin, taking the one-time notice.
func (k *Console) show(c *fiber.Ctx, name, title string, data any) error {
	p := page{Title: title, CSRF: csrfToken(c), Admin: caller(c).Actor.User.Email, Data: data}
	p.Notice = takeNotice(c)
	return k.render(c, http.StatusOK, name, p)
}

// errorPage is the data of error.html.
type errorPage struct {
	Status  int
	Heading string
	Message string
	// Fields are sentences about the fields the refusal names.
	Fields []string
}

// statusWording is the console's heading and sentence for each status it
// answers with.
var statusWording = map[int][2]string{
	http.StatusBadRequest:                  {"Bad request", "The request could not be understood."},
	http.StatusUnauthorized:                {"Not signed in", "Sign in to use the console."},
	http.StatusForbidden:                   {"Forbidden", "You may not do this. The console is for admins, and a form must be sent from the console itself."},
	http.StatusNotFound:                    {"Not found", "There is no such page or record."},
	http.StatusMethodNotAllowed:            {"Method not allowed", "This page does not take that method."},
	http.StatusRequestTimeout:              {"Request timeout", "The request took too long to arrive."},
	http.StatusConflict:                    {"Conflict", "The record changed meanwhile or conflicts with another one."},
	http.StatusPreconditionFailed:          {"Changed meanwhile", "The record changed after this page showed it, and nothing was done. Reload the page and try again."},
	http.StatusGone:                        {"Gone", "An admin exists already, so this setup link has served its purpose. Sign in instead."},
	http.StatusRequestEntityTooLarge:       {"Request too large", "The form sent was larger than the service accepts."},
	http.StatusUnprocessableEntity:         {"Not done", "The action could not be carried out as asked."},
	web.StatusCSRFMismatch:                 {"Page expired", "The form's token is missing or stale. Go back, reload the page and try again."},
	http.StatusTooManyRequests:             {"Too many attempts", "Wait a little before trying again."},
	http.StatusRequestHeaderFieldsTooLarge: {"Headers too large", "The request's headers were larger than the service accepts."},
	http.StatusInternalServerError:         {"Something went wrong", "The service failed to answer. The failure has been logged."},
	http.StatusNotImplemented:              {"Not implemented", "The service does not implement that method."},
	http.StatusServiceUnavailable:          {"Unavailable", "The service cannot answer right now. Try again shortly."},
	http.StatusHTTPVersionNotSupported:     {"HTTP version not supported", "The service speaks HTTP/1.1."},
}

// fieldWording is the console's sentence for the fields an action's
// refusal names.
var fieldWording = map[string]string{
	"password": "The password is not yours.",
	"status":   "The record is not in a state this action applies to.",
	"name":     "A tag needs a name of at most 50 characters that no other tag has, ignoring case.",
	"into":     "Merge into the name of another tag that exists.",
}

// RenderError answers err as an HTML page, with the console's headers, for
// every error on a console path: the handlers', the router's and the
// refusals made before routing. It never shows an error's own text.
func (k *Console) RenderError(c *fiber.Ctx, err error) error {
	status := http.StatusInternalServerError
	var fields []domain.Violation
	var fe *fiber.Error
	if errors.As(err, &fe) {
		status = fe.Code
	} else if de, ok := domain.AsError(err); ok {
		status = web.Status(de)
		if errors.Is(de, domain.ErrAdminExists) {
			status = http.StatusGone
		}
		fields = de.Fields
		if de.Kind == domain.TooManyRequests {
			secs := int(de.RetryAfter.Seconds() + 0.999)
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(max(secs, 1)))
		}
	} else if errors.Is(err, context.DeadlineExceeded) {
		status = http.StatusServiceUnavailable
	}
	w, ok := statusWording[status]
	if !ok {
		w = [2]string{http.StatusText(status), ""}
	}
	if errors.Is(err, domain.ErrInvalidSignature) {
		w[1] = "The link is forged, altered or expired. While no account has admin rights, the service logs a new setup link each time it starts."
	}
	data := errorPage{Status: status, Heading: w[0], Message: w[1]}
	for _, f := range fields {
		if sentence, known := fieldWording[f.Field]; known {
			data.Fields = append(data.Fields, sentence)
		}
	}
	return k.render(c, status, "error", page{Title: w[0], Data: data})
}

// asset serves the stylesheet and scripts embedded under assets/.
func (k *Console) asset(c *fiber.Ctx) error {
	name := c.Params("*")
	body, err := fs.ReadFile(assetFiles, "assets/"+name)
	if err != nil || name == "" {
		return fiber.ErrNotFound
	}
	switch {
	case strings.HasSuffix(name, ".css"):
		c.Set(fiber.HeaderContentType, "text/css; charset=utf-8")
	case strings.HasSuffix(name, ".svg"):
		c.Set(fiber.HeaderContentType, "image/svg+xml")
	case strings.HasSuffix(name, ".js"):
		c.Set(fiber.HeaderContentType, "text/javascript; charset=utf-8")
	default:
		c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
	}
	c.Set(fiber.HeaderCacheControl, "public, max-age=3600")
	return c.Send(body)
}

//go:embed assets
var assetFiles embed.FS
