package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"io/fs"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"

	"github.com/inkwell/inkwell/adapters/httpapi/openapi"
)

// docsCSP lets the documentation page load scripts, styles and data only
// from this origin, so that it works offline and leaks nothing to another
// host. Swagger UI sets inline styles and draws icons from data: URLs.
const docsCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// docsAssetTypes are the content types of the files the page loads, by
// extension; files without one are license texts.
var docsAssetTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".txt": "text/plain; charset=utf-8",
	"":     "text/plain; charset=utf-8",
}

// docsFile is a file served from memory with a strong validator.
type docsFile struct {
	body        []byte
	contentType string
	etag        string
}

func newDocsFile(body []byte, contentType string) docsFile {
	sum := sha256.Sum256(body)
	return docsFile{body: body, contentType: contentType, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
}

// fingerprint is the query value that names this version of the file.
func (f docsFile) fingerprint() string { return strings.Trim(f.etag, `"`)[:12] }

// send answers f, or 304 when the client's copy is current. cacheControl
// says how long the client may use it without asking again.
func (f docsFile) send(c *fiber.Ctx, cacheControl string) error {
	c.Set(fiber.HeaderETag, f.etag)
	c.Set(fiber.HeaderCacheControl, cacheControl)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	if conditional.NoneMatch(c.Get(fiber.HeaderIfNoneMatch), f.etag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, f.contentType)
	return c.Send(f.body)
}

// docs serves the OpenAPI document at /openapi.json and Swagger UI over it
// at /docs, every file from the binary. The document and the page are
// revalidated on each use, since they change with each release; the page
// links its scripts and style sheet with a fingerprint of their content,
// so that those may be cached for good and a new release still loads its
// own.
//
// It panics when the embedded files are broken, which the openapi
// package's tests rule out.
func (s *Server) docs() {
	doc, err := openapi.JSON()
	if err != nil {
		panic(err)
	}
	document := newDocsFile(doc, fiber.MIMEApplicationJSON)

	assets := map[string]docsFile{}
	err = fs.WalkDir(openapi.Assets(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == "index.html" {
			return err
		}
		body, err := fs.ReadFile(openapi.Assets(), name)
		if err != nil {
			return err
		}
		ct, ok := docsAssetTypes[path.Ext(name)]
		if !ok {
			return fmt.Errorf("no content type for %s", name)
		}
		assets[name] = newDocsFile(body, ct)
		return nil
	})
	if err != nil {
		panic(err)
	}
	page := newDocsFile(renderDocsPage(assets), fiber.MIMETextHTMLCharsetUTF8)

	s.app.Get("/openapi.json", func(c *fiber.Ctx) error {
		return document.send(c, "no-cache")
	})
	s.app.Get("/docs", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentSecurityPolicy, docsCSP)
		c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
		return page.send(c, "no-cache")
	})
	s.app.Get("/docs/:asset", func(c *fiber.Ctx) error {
		f, ok := assets[c.Params("asset")]
		if !ok {
			return fiber.ErrNotFound
		}
		if c.Query("v") == f.fingerprint() {
			return f.send(c, "public, max-age=31536000, immutable")
		}
		return f.send(c, "no-cache")
	})
}

// renderDocsPage fills index.html's links with the assets' fingerprinted
// URLs.
func renderDocsPage(assets map[string]docsFile) []byte {
	src, err := fs.ReadFile(openapi.Assets(), "index.html")
	if err != nil {
		panic(err)
	}
	tmpl := template.Must(template.New("index.html").Option("missingkey=error").Funcs(template.FuncMap{
		"asset": func(name string) (string, error) {
			f, ok := assets[name]
			if !ok {
				return "", fmt.Errorf("index.html links the unknown asset %s", name)
			}
			return "/docs/" + name + "?v=" + f.fingerprint(), nil
		},
	}).Parse(string(src)))
	var out bytes.Buffer
	if err := tmpl.Execute(&out, nil); err != nil {
		panic(err)
	}
	return out.Bytes()
}
