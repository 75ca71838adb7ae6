package httpapi

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"mime/multipart"
	"net/http"
	"strings"

	// The decoders of the accepted formats register themselves with
	// image.DecodeConfig; WebP, which the standard library lacks, is read
	// by webpSize.
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// maxImageSide bounds the width and height of an uploaded image, so that
// whoever decodes a stored image in full never allocates more than it can
// hold: a few kilobytes of compressed pixels can declare gigapixels.
const maxImageSide = 10000

// imageExt maps the formats image.DecodeConfig and webpSize name to the
// extension a stored image gets. Only these formats are accepted.
var imageExt = map[string]string{"jpeg": ".jpg", "png": ".png", "gif": ".gif", "webp": ".webp"}

// imageMimes is the rule of the accepted formats, named as Laravel's mimes
// rule names them.
var imageMimes = domain.RuleOf(domain.RuleMimes, "jpeg", "png", "gif", "webp")

// imageRule is what one image field of a request accepts.
type imageRule struct {
	field    string
	maxKB    int // Laravel's max rule, in kilobytes
	required bool
}

// The image fields: a post's optional image of up to 5 MB and a user's
// avatar of up to 2 MB.
var (
	postImage   = imageRule{field: "image", maxKB: 5120}
	avatarImage = imageRule{field: "avatar", maxKB: 2048, required: true}
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
	format, cfg, known := decodeImageConfig(data)
	good := known
	if !known {
		notImage()
	}
	if len(data) > rule.maxKB*1024 {
		v.Fail(name, domain.RuleN(domain.RuleMaxKilobytes, int64(rule.maxKB)))
		good = false
	}
	if known && (cfg.Width > maxImageSide || cfg.Height > maxImageSide) {
		v.Fail(name, domain.RuleDimensions)
		good = false
	}
	if !good {
		return nil, nil
	}
	return &ports.Image{Data: data, Ext: imageExt[format]}, nil
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
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		w, h, ok := webpSize(data)
		if !ok {
			return "", image.Config{}, false
		}
		cfg, format = image.Config{Width: w, Height: h}, "webp"
	}
	if _, ok := imageExt[format]; !ok || cfg.Width < 1 || cfg.Height < 1 {
		return "", image.Config{}, false
	}
	return format, cfg, true
}

// webpSize returns the dimensions of a WebP image, read from its RIFF
// container and its first chunk as the WebP container specification lays
// them out (https://developers.google.com/speed/webp/docs/riff_container):
//
//	"RIFF", file size - 8 (uint32 LE), "WEBP", then a chunk:
//	fourCC, payload size (uint32 LE), payload.
//
// The first chunk is one of
//   - "VP8 " (lossy): a 3-byte frame tag whose lowest bit is 0 on a key
//     frame, the start code 9d 01 2a, then width and height as 16-bit LE
//     values whose low 14 bits are the size;
//   - "VP8L" (lossless): the signature byte 0x2f, then 32 bits LE holding
//     width-1 (14 bits), height-1 (14 bits), an alpha bit and a 3-bit
//     version that must be 0;
//   - "VP8X" (extended): a flags byte, 3 reserved bytes, then canvas
//     width-1 and height-1 as 24-bit LE values.
//
// Only the header is read: the pixels are not decoded, as for the other
// formats, whose image.DecodeConfig stops at the header too. ok is false
// when data is not such a file or is shorter than its header says.
func webpSize(data []byte) (w, h int, ok bool) {
	if len(data) < 20 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return 0, 0, false
	}
	riffSize := uint64(binary.LittleEndian.Uint32(data[4:8]))
	if riffSize < 12 || riffSize+8 > uint64(len(data)) {
		return 0, 0, false
	}
	fourCC, size := string(data[12:16]), uint64(binary.LittleEndian.Uint32(data[16:20]))
	if 20+size > riffSize+8 {
		return 0, 0, false
	}
	p := data[20 : 20+size]
	le24 := func(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }
	switch fourCC {
	case "VP8 ":
		if len(p) < 10 || p[0]&1 != 0 || p[3] != 0x9d || p[4] != 0x01 || p[5] != 0x2a {
			return 0, 0, false
		}
		w = int(binary.LittleEndian.Uint16(p[6:8]) & 0x3fff)
		h = int(binary.LittleEndian.Uint16(p[8:10]) & 0x3fff)
	case "VP8L":
		if len(p) < 5 || p[0] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(p[1:5])
		if bits>>29 != 0 {
			return 0, 0, false
		}
		w, h = int(bits&0x3fff)+1, int(bits>>14&0x3fff)+1
	case "VP8X":
		if len(p) < 10 {
			return 0, 0, false
		}
		w, h = le24(p[4:7])+1, le24(p[7:10])+1
	default:
		return 0, 0, false
	}
	return w, h, w > 0 && h > 0
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
