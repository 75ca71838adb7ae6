package httpapi

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// maxImageSide, imageExt and imageMimes are the domain's bounds of an
// uploaded image (domain.CheckImage), which the use cases check again.
const maxImageSide = domain.MaxImageSide

var (
	imageExt   = domain.ImageExtensions
	imageMimes = domain.ImageMimes
)

// imageRule is what one image field of a request accepts.
type imageRule struct {
	field    string
	maxKB    int // Laravel's max rule, in kilobytes
	required bool
}

// The image fields: a post's optional image of up to 5 MB and a user's
// avatar of up to 2 MB.
var (
	postImage   = imageRule{field: "image", maxKB: domain.MaxPostImageKilobytes}
	avatarImage = imageRule{field: "avatar", maxKB: domain.MaxAvatarKilobytes, required: true}
)

// imageField checks rule's field of a request body as the Laravel rules
// "nullable|image|mimes:jpeg,png,gif,webp|max:<maxKB>|dimensions:max_width=10000,max_height=10000"
// would ("required" in place of "nullable" for a required field), recording
// failures on v with Laravel's rules, and returns the image to store,
// nil when none was sent or it failed. Whether a file is an image is
// decided by decoding its header, never by its name or declared type; only
// the header is decoded, so the pixel limits hold before anything allocates
// pixels. The error is a failure to read an upload the server already
// holds.
func imageField(v *validate.Validator, body map[string]any, rule imageRule) (*ports.Image, error) {
	name := rule.field
	raw, present := body[name]
	_, isText := raw.(string)
	// A blank form value is what a browser sends for an empty file input.
	if !present || raw == nil || (isText && !v.Filled(name)) {
		if rule.required {
			v.Fail(name, domain.RuleRequired)
		}
		return nil, nil
	}
	notImage := func() {
		v.Fail(name, domain.RuleImage)
		v.Fail(name, imageMimes)
	}
	fh, ok := raw.(*multipart.FileHeader)
	if !ok {
		notImage()
		return nil, nil
	}
	data, err := readUpload(fh)
	if err != nil {
		return nil, err
	}
	header, rules := domain.CheckImage(data, rule.maxKB)
	if len(rules) > 0 {
		for _, r := range rules {
			v.Fail(name, r)
		}
		return nil, nil
	}
	return &ports.Image{Data: data, Ext: header.Ext}, nil
}

// readUpload reads an uploaded file whole, since a WebP is checked
// against the length its header declares. Its size is bounded by the
// server's body limit, which the multipart parser has already enforced.
func readUpload(fh *multipart.FileHeader) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read upload: %w", err)
	}
	return data, nil
}

// decodeImageConfig returns the format and dimensions of data when it is an
// image of an accepted format with a width and height of at least one.
func decodeImageConfig(data []byte) (string, image.Config, bool) {
	h, ok := domain.DecodeImageHeader(data)
	return h.Format, image.Config{Width: h.Width, Height: h.Height}, ok
}

// serveStorage serves the uploaded files under /storage/ for GET and HEAD
// from the file store, so that every replica answers for every file
// whichever replica stored it. It is a mount rather than a route, so that
// its requests are counted and logged under /storage whatever the path.
func (s *Server) serveStorage() {
	if s.files == nil {
		return
	}
	s.app.Use("/storage", s.storedFile)
}

// storageCacheControl lets browsers and caches keep a file for a year:
// files are stored under fresh random names and never change in place.
const storageCacheControl = "public, max-age=31536000, immutable"

// storedFile streams one file with its type, validators and cache headers.
// A path no upload can have, a folder or a missing file goes on to the
// router's 404, the answer of any unknown path outside /api, as does a
// method other than GET or HEAD; a store that cannot be reached answers 503.
// The files are named and typed by the server (see imageField), and nosniff
// keeps browsers from reading them as anything but their stored type.
func (s *Server) storedFile(c *fiber.Ctx) error {
	if c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead {
		return c.Next()
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(c.Path(), "/storage"), "/")
	if !ports.ValidFilePath(rel) {
		return c.Next()
	}
	// The body is read after the handler returns, when the request's
	// context has ended, so the file is opened on a context of its own that
	// the request's deadline ends only until the file is open, and that ends
	// when the body is closed.
	ctx, cancel := context.WithCancel(context.WithoutCancel(c.UserContext()))
	stop := context.AfterFunc(c.UserContext(), cancel)
	f, err := s.files.Open(ctx, rel)
	stop()
	if err != nil {
		cancel()
		if errors.Is(err, domain.ErrNotFound) {
			return c.Next()
		}
		if reqErr := c.UserContext().Err(); reqErr != nil {
			// The request's deadline ended the open by cancelling the
			// file's own context, whose error says only "canceled": the
			// deadline is the reason, and answers 503 like any other.
			return fmt.Errorf("open stored file %q: %w", rel, reqErr)
		}
		return err
	}
	body := &cancelOnClose{ReadCloser: f.Body, cancel: cancel}
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderCacheControl, storageCacheControl)
	if f.ETag != "" {
		c.Set(fiber.HeaderETag, f.ETag)
	}
	if !f.ModTime.IsZero() {
		c.Set(fiber.HeaderLastModified, f.ModTime.UTC().Format(http.TimeFormat))
	}
	if f.ETag != "" && conditional.NoneMatch(c.Get(fiber.HeaderIfNoneMatch), f.ETag) {
		_ = body.Close()
		return c.SendStatus(fiber.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, f.ContentType)
	c.Response().SetBodyStream(body, int(f.Size))
	return nil
}

// cancelOnClose ends the context a stored file was opened on once the
// server has sent it and closes the body.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	defer b.cancel()
	return b.ReadCloser.Close()
}
