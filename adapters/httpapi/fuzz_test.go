package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// FuzzDecodeCursor checks that any text given as a cursor is read without
// a panic, that only the one text encodeCursor makes of a position within
// the years 1 to 9999 is accepted, and that positions survive the round
// trip. Whatever decodeCursor refuses, postListQuery reports as an invalid
// cursor field, a 422.
func FuzzDecodeCursor(f *testing.F) {
	for _, p := range []ports.PostCursor{{CreatedAt: 1_700_000_000_000_000, ID: 1}, {CreatedAt: minCursorMicros, ID: 1<<63 - 1}, {CreatedAt: maxCursorMicros, ID: 42}, {CreatedAt: -1, ID: 3}} {
		f.Add(encodeCursor(p), p.CreatedAt, p.ID)
	}
	for _, s := range []string{"", "garbage", "MTo=", "MTox", "MToxAA", base64.RawURLEncoding.EncodeToString([]byte("+1:1")),
		base64.RawURLEncoding.EncodeToString([]byte("01:1")), base64.RawURLEncoding.EncodeToString([]byte("1:1:1")), "MTox\n"} {
		f.Add(s, int64(0), int64(0))
	}
	f.Fuzz(func(t *testing.T, s string, at, id int64) {
		if p, ok := decodeCursor(s); ok {
			if p == nil || p.ID <= 0 || p.CreatedAt < minCursorMicros || p.CreatedAt > maxCursorMicros {
				t.Fatalf("decodeCursor(%q) = %+v", s, p)
			}
			if enc := encodeCursor(*p); enc != s {
				t.Fatalf("decodeCursor(%q) = %+v, which encodes as %q", s, p, enc)
			}
		} else if p != nil {
			t.Fatalf("decodeCursor(%q) refused but returned %+v", s, p)
		}
		want := ports.PostCursor{CreatedAt: at, ID: id}
		p, ok := decodeCursor(encodeCursor(want))
		valid := id > 0 && at >= minCursorMicros && at <= maxCursorMicros
		if ok != valid || ok && *p != want {
			t.Fatalf("decodeCursor(encodeCursor(%+v)) = %+v, %v; want ok %v", want, p, ok, valid)
		}
	})
}

// FuzzJSONBody checks that any body with any content type is decoded
// without a panic into an object or refused with one of the two 400s:
// errUnsupportedContent for a non-blank body of another type, and
// errMalformedJSON for anything but exactly one JSON object, which
// includes nesting deeper than encoding/json's 10000 levels. A decoded
// object survives being encoded and decoded again.
func FuzzJSONBody(f *testing.F) {
	for _, s := range []string{
		``, ` `, `{}`, `{"a":1}`, `{"a":1}{}`, `{"a":1} `, `[]`, `null`, `"x"`, `{"a":1e400,"b":-0.0,"c":"\ud800"}`,
		`{"a":{"b":[1,{"c":null}]}}`, `{"a":"` + "\xff" + `"}`, `{"a":1,"a":2}`, `{"a"}`, "\ufeff{}", `{} x`,
		`{"a":` + strings.Repeat(`[`, 9990) + strings.Repeat(`]`, 9990) + `}`,
		`{"a":` + strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001) + `}`,
	} {
		f.Add([]byte(s), "application/json")
	}
	for _, ct := range []string{"", "application/json; charset=utf-8", "application/vnd.api+json", "text/plain", "application/+json", "application/json;;"} {
		f.Add([]byte(`{"a":"b"}`), ct)
	}
	f.Fuzz(func(t *testing.T, raw []byte, contentType string) {
		body, err := decodeJSONObject(raw, contentType)
		trimmed := bytes.TrimSpace(raw)
		switch {
		case len(trimmed) == 0:
			if err != nil || body == nil || len(body) != 0 {
				t.Fatalf("blank body: %v, %v; want an empty object", body, err)
			}
			return
		case !isJSON(contentType):
			if err != errUnsupportedContent || body != nil {
				t.Fatalf("content type %q: %v, %v; want errUnsupportedContent", contentType, body, err)
			}
			return
		}
		isObject := json.Valid(raw) && trimmed[0] == '{'
		if err != nil {
			if err != errMalformedJSON || body != nil || isObject {
				t.Fatalf("decodeJSONObject(%q) = %v, %v; valid object %v", raw, body, err, isObject)
			}
			return
		}
		if body == nil || !isObject {
			t.Fatalf("decodeJSONObject(%q) = %v, accepting what is no JSON object", raw, body)
		}
		again, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("decodeJSONObject(%q) = %v, which does not encode: %v", raw, body, err)
		}
		back, err := decodeJSONObject(again, "application/json")
		if err != nil || !reflect.DeepEqual(back, body) {
			t.Fatalf("decodeJSONObject(%q) = %v, encoded %s decodes as %v, %v", raw, body, again, back, err)
		}
	})
}

// imageMagic is how a file of each stored extension begins.
var imageMagic = map[string]func([]byte) bool{
	".png": func(b []byte) bool { return bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) },
	".gif": func(b []byte) bool {
		return bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a"))
	},
	".jpg":  func(b []byte) bool { return bytes.HasPrefix(b, []byte("\xff\xd8")) },
	".webp": func(b []byte) bool { return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP" },
}

// upload makes the multipart file header a handler receives for data.
func upload(tb testing.TB, field, filename, contentType string, data []byte) *multipart.FileHeader {
	tb.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{`form-data; name="` + field + `"; filename="` + filename + `"`}
	h["Content-Type"] = []string{contentType}
	part, err := w.CreatePart(h)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := part.Write(data); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	form, err := multipart.NewReader(&buf, w.Boundary()).ReadForm(8 << 20)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = form.RemoveAll() })
	return form.File[field][0]
}

// pngHeader is a PNG signature and header chunk declaring w×h pixels,
// followed by an empty image data chunk: a file of a few dozen bytes whose
// full decoding would allocate w×h×4 bytes.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(kind)
		b.Write(data)
		_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(kind), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h)
	chunk("IHDR", append(ihdr, 8, 6, 0, 0, 0))
	chunk("IDAT", nil)
	chunk("IEND", nil)
	return b.Bytes()
}

// encodeImage encodes a small w×h picture with encode.
func encodeImage(tb testing.TB, encode func(*bytes.Buffer, image.Image) error, w, h int) []byte {
	tb.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black, color.White})
	var buf bytes.Buffer
	if err := encode(&buf, img); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// imageSeeds are files of every accepted format, and of every way to
// declare too many pixels in few bytes.
func imageSeeds(tb testing.TB) [][]byte {
	webp := func(fourCC string, payload []byte) []byte {
		b := []byte("RIFF")
		b = binary.LittleEndian.AppendUint32(b, uint32(4+8+len(payload)))
		b = append(b, "WEBP"+fourCC...)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
		return append(b, payload...)
	}
	// A JPEG whose frame header claims 65535×65535 pixels.
	jpegBomb := encodeImage(tb, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) }, 3, 2)
	if sof := bytes.Index(jpegBomb, []byte{0xff, 0xc0}); sof >= 0 {
		copy(jpegBomb[sof+5:], []byte{0xff, 0xff, 0xff, 0xff})
	}
	lossless, _ := base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
	return [][]byte{
		encodeImage(tb, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) }, 3, 2),
		encodeImage(tb, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) }, 3, 2),
		encodeImage(tb, func(b *bytes.Buffer, m image.Image) error { return gif.Encode(b, m, nil) }, 3, 2),
		lossless,
		webp("VP8 ", []byte{0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 3, 0, 2, 0}),
		webp("VP8X", []byte{0x10, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}),
		webp("VP8L", []byte{0x2f, 0xff, 0xff, 0xff, 0x0f}),
		webp("VP8 ", []byte{0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 0xff, 0x3f, 0xff, 0x3f}),
		pngHeader(100000, 100000),
		pngHeader(1<<31-1, 1),
		[]byte("GIF89a\xff\xff\xff\xff\x00\x00\x00;"),
		jpegBomb,
		[]byte("<svg xmlns='http://www.w3.org/2000/svg'/>"),
		[]byte("RIFF\x04\x00\x00\x00WEBP"),
	}
}

// FuzzImageField checks that any uploaded bytes are judged without a
// panic, by their content alone: an accepted image is stored unchanged
// with the extension of the format its first bytes announce, within the
// size and dimension limits, and a refused one leaves failures on the
// image field only.
func FuzzImageField(f *testing.F) {
	for i, data := range imageSeeds(f) {
		f.Add(data, uint8(i))
	}
	f.Add([]byte("<?php echo 1;"), uint8(2))
	// What the client declares, which must make no difference.
	declared := [][2]string{{"photo.png", "image/png"}, {"photo.jpg", "image/jpeg"}, {"shell.php", "image/gif"}, {"a.svg", "image/svg+xml"}}
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		d := declared[int(pick)%len(declared)]
		v := validate.New(nil)
		img, err := imageField(v, map[string]any{"image": upload(t, "image", d[0], d[1], data)}, postImage)
		if err != nil {
			t.Fatalf("imageField: %v", err)
		}
		if img == nil {
			var de *domain.Error
			if !errors.As(v.Err(), &de) || len(de.Fields) == 0 || slices.ContainsFunc(de.Fields, func(f domain.Violation) bool { return f.Field != "image" }) {
				t.Fatalf("refused image with failures %v", v.Err())
			}
			return
		}
		if v.Err() != nil {
			t.Fatalf("image accepted along with failures %v", v.Err())
		}
		if !bytes.Equal(img.Data, data) {
			t.Fatal("stored bytes differ from the upload")
		}
		if magic, ok := imageMagic[img.Ext]; !ok || !magic(data) {
			t.Fatalf("accepted %q as %q", data[:min(len(data), 16)], img.Ext)
		}
		if len(data) > postImage.maxKB*1024 {
			t.Fatalf("accepted %d bytes", len(data))
		}
		format, cfg, ok := decodeImageConfig(data)
		if !ok || imageExt[format] != img.Ext || cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxImageSide || cfg.Height > maxImageSide {
			t.Fatalf("accepted a %s of %d×%d", format, cfg.Width, cfg.Height)
		}
	})
}

// TestImageDimensionBombs sends a few bytes declaring billions of pixels in
// each format: they must be refused for their dimensions, from the header
// alone and so at once.
func TestImageDimensionBombs(t *testing.T) {
	seeds := imageSeeds(t)
	for i, data := range [][]byte{seeds[5], seeds[7], seeds[8], seeds[9], seeds[10], seeds[11]} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			v := validate.New(nil)
			start := time.Now()
			img, err := imageField(v, map[string]any{"image": upload(t, "image", "x", "image/png", data)}, postImage)
			if elapsed := time.Since(start); elapsed > time.Second {
				t.Errorf("took %v", elapsed)
			}
			if err != nil || img != nil {
				t.Fatalf("imageField = %v, %v; want a refusal", img, err)
			}
			var de *domain.Error
			if !errors.As(v.Err(), &de) || !slices.Contains(de.Fields, domain.Violation{Field: "image", Rule: domain.RuleDimensions}) {
				t.Fatalf("failures %v, want invalid dimensions", v.Err())
			}
		})
	}
}
