package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// v1Part is one part of a multipart body: a value, or a file when filename
// is set.
type v1Part struct {
	name, filename string
	data           []byte
}

func v1Field(name, value string) v1Part { return v1Part{name: name, data: []byte(value)} }

func v1File(name, filename string, data []byte) v1Part {
	return v1Part{name: name, filename: filename, data: data}
}

// v1Multipart encodes parts and returns the body and the headers that
// send it.
func v1Multipart(t *testing.T, parts ...v1Part) (string, []string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		var dst io.Writer
		var err error
		if p.filename != "" {
			dst, err = w.CreateFormFile(p.name, p.filename)
		} else {
			dst, err = w.CreateFormField(p.name)
		}
		if err == nil {
			_, err = dst.Write(p.data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String(), []string{"Content-Type", w.FormDataContentType()}
}

// v1Send sends parts as token.
func (h *harness) v1Send(method, path, token string, parts ...v1Part) response {
	h.t.Helper()
	body, headers := v1Multipart(h.t, parts...)
	return h.do(method, path, body, as(token, headers...)...)
}

func v1Encode(t *testing.T, encode func(io.Writer, image.Image) error, w, h int) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black, color.White})
	var buf bytes.Buffer
	if err := encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func v1PNG(t *testing.T, w, h int) []byte { return v1Encode(t, png.Encode, w, h) }

func v1JPEG(t *testing.T) []byte {
	return v1Encode(t, func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, nil) }, 4, 3)
}

func v1GIF(t *testing.T) []byte {
	return v1Encode(t, func(w io.Writer, m image.Image) error { return gif.Encode(w, m, nil) }, 4, 3)
}

// v1WebPLossless is a complete lossless WebP of one transparent pixel.
const v1WebPLossless = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="

// v1WebPFile wraps a first chunk in a RIFF WebP container.
func v1WebPFile(fourCC string, payload []byte) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(4+8+len(payload)))
	b.WriteString("WEBP" + fourCC)
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(payload)))
	b.Write(payload)
	return b.Bytes()
}

// v1WebPLossy has a VP8 key frame header of w×h.
func v1WebPLossy(w, h uint16) []byte {
	return v1WebPFile("VP8 ", []byte{0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, byte(w), byte(w >> 8), byte(h), byte(h >> 8)})
}

// v1WebPExtended has a VP8X header with a canvas of w×h.
func v1WebPExtended(w, h int) []byte {
	w, h = w-1, h-1
	return v1WebPFile("VP8X", []byte{0x10, 0, 0, 0, byte(w), byte(w >> 8), byte(w >> 16), byte(h), byte(h >> 8), byte(h >> 16)})
}

// v1ImageURL matches the URL of a stored post image.
var v1ImageURL = regexp.MustCompile(`^http://example\.com/storage/posts/[0-9a-f]{32}(\.[a-z]+)$`)

// v1StoredImages lists the files kept for posts.
func (h *harness) v1StoredImages() []string {
	h.t.Helper()
	entries, err := os.ReadDir(filepath.Join(h.storage, "posts"))
	if err != nil && !os.IsNotExist(err) {
		h.t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestPostImageFormats(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		webp, err := base64.StdEncoding.DecodeString(v1WebPLossless)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name, filename string
			data           []byte
			ext            string
		}{
			{"png", "a.png", v1PNG(t, 3, 2), ".png"},
			{"jpeg", "a.jpeg", v1JPEG(t), ".jpg"},
			{"gif", "a.gif", v1GIF(t), ".gif"},
			{"lossless webp", "a.webp", webp, ".webp"},
			{"lossy webp", "a.webp", v1WebPLossy(640, 480), ".webp"},
			{"extended webp", "a.webp", v1WebPExtended(10000, 10000), ".webp"},
			{"the name does not matter", "notes.txt", v1PNG(t, 1, 1), ".png"},
			{"exactly 5 MB", "big.png", v1PadTo(v1PNG(t, 1, 1), 5*1024*1024), ".png"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := h.v1Send("POST", "/api/v1/posts", token,
					v1Field("title", "With "+tc.name), v1Field("body", "Body"), v1Field("status", "published"),
					v1File("image", tc.filename, tc.data))
				r.expect(t, http.StatusCreated, nil)
				u, _ := v1Attrs(r.body["data"])["image_url"].(string)
				m := v1ImageURL.FindStringSubmatch(u)
				if m == nil || m[1] != tc.ext {
					t.Fatalf("image_url: got %q, want a stored %s", u, tc.ext)
				}
				path := strings.TrimPrefix(u, "http://example.com")
				got := h.do("GET", path, nil)
				if got.status != http.StatusOK || !bytes.Equal(got.raw, tc.data) {
					t.Errorf("GET %s: got %d and %d bytes, want 200 and the %d bytes sent", path, got.status, len(got.raw), len(tc.data))
				}
				if got.header.Get("X-Content-Type-Options") != "nosniff" || !strings.HasPrefix(got.header.Get("Content-Type"), "image/") {
					t.Errorf("GET %s: headers %v", path, got.header)
				}
				show := h.do("GET", "/api/v1/posts/"+jsonNumber(r.body["data"].(map[string]any)["id"]), nil)
				if v1Attrs(show.body["data"])["image_url"] != u {
					t.Errorf("show: image_url %v, want %q", v1Attrs(show.body["data"])["image_url"], u)
				}
			})
		}
	})
}

// v1PadTo appends zeros to data up to n bytes. The decoders read only the
// header, so the result is still an image.
func v1PadTo(data []byte, n int) []byte {
	return append(data, make([]byte, n-len(data))...)
}

// TestPostImageContentValidation sends files that are no image the API
// takes. The HTTP layer judges a file's bytes before the request reaches a
// store, so one store proves it, which spares the suite sending its 6 MB
// bodies once per store; TestPostImageValidation checks the form's other
// fields, and that failed requests store no file, on every store.
func TestPostImageContentValidation(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	token, _ := h.v1Account("Ann")
	notImage := []string{"The image field must be an image.", "The image field must be a file of type: jpeg, png, gif, webp."}
	tooLarge := "The image field must not be greater than 5120 kilobytes."
	dimensions := "The image field has invalid image dimensions."
	png1 := v1PNG(t, 1, 1)
	lossless, _ := base64.StdEncoding.DecodeString(v1WebPLossless)
	badVersion := bytes.Clone(lossless)
	badVersion[24] |= 0x20 // a VP8L version other than 0
	interFrame := v1WebPLossy(10, 10)
	interFrame[20] |= 1 // a VP8 frame that is not a key frame
	bmp := append([]byte("BM"), make([]byte, 60)...)
	for _, tc := range []struct {
		name string
		data []byte
		want []string
	}{
		{"a renamed text file", []byte("hello, I am text\n"), notImage},
		{"an SVG", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), notImage},
		{"an empty file", nil, notImage},
		{"a BMP", bmp, notImage},
		{"a truncated PNG", png1[:20], notImage},
		{"a truncated WebP", lossless[:len(lossless)-4], notImage},
		{"a WebP of an unknown version", badVersion, notImage},
		{"a lossy WebP without a key frame", interFrame, notImage},
		{"a RIFF that is not WebP", append([]byte("RIFF\x04\x00\x00\x00WAVE"), make([]byte, 8)...), notImage},
		{"6 MB", v1PadTo(png1, 6*1024*1024), []string{tooLarge}},
		{"6 MB of text", bytes.Repeat([]byte("a"), 6*1024*1024), append(notImage, tooLarge)},
		{"a 6 MB WebP", v1WebPFile("VP8 ", v1PadTo([]byte{0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 8, 0, 8, 0}, 6*1024*1024)), []string{tooLarge}},
		{"one byte over 5 MB", v1PadTo(png1, 5*1024*1024+1), []string{tooLarge}},
		{"a PNG too wide", v1PNG(t, 10001, 1), []string{dimensions}},
		{"a PNG too tall", v1PNG(t, 1, 10001), []string{dimensions}},
		{"a WebP canvas of 2^24 pixels a side", v1WebPExtended(1<<24, 1<<24), []string{dimensions}},
		{"a lossy WebP too wide", v1WebPLossy(16383, 1), []string{dimensions}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.v1Send("POST", "/api/v1/posts", token,
				v1Field("title", "T"), v1Field("body", "B"), v1Field("status", "draft"), v1File("image", "photo.png", tc.data))
			r.expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"image": tc.want}))
		})
	}
	if files := h.v1StoredImages(); len(files) != 0 {
		t.Errorf("files stored by failed requests: %v", files)
	}
}

func TestPostImageValidation(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		notImage := []string{"The image field must be an image.", "The image field must be a file of type: jpeg, png, gif, webp."}
		png1 := v1PNG(t, 1, 1)

		// Form fields are validated as their JSON counterparts are, and an
		// image is never stored for a request that fails.
		for _, tc := range []struct {
			name  string
			parts []v1Part
			want  map[string][]string
		}{
			{"nothing but an image", []v1Part{v1File("image", "a.png", png1)}, map[string][]string{
				"title": {"The title field is required."}, "body": {"The body field is required."}, "status": {"The status field is required."},
			}},
			{"text where the image goes", []v1Part{v1Field("title", "T"), v1Field("body", "B"), v1Field("status", "draft"), v1Field("image", "cat.png")}, map[string][]string{
				"image": notImage,
			}},
			{"a list of images", []v1Part{v1Field("title", "T"), v1Field("body", "B"), v1Field("status", "draft"), v1File("image[]", "a.png", png1)}, map[string][]string{
				"image": notImage,
			}},
			{"bad fields and a bad image", []v1Part{v1Field("title", strings.Repeat("x", 256)), v1Field("body", "B"), v1Field("status", "live"), v1Field("tags[0]", "x"), v1Field("tags[1]", "1"), v1File("image", "a.png", []byte("text"))}, map[string][]string{
				"title":  {"The title field must not be greater than 255 characters."},
				"status": {"The selected status is invalid."},
				"tags.0": {"The tags.0 field must be an integer."},
				"image":  notImage,
			}},
			{"a title that is a file", []v1Part{v1File("title", "t.txt", []byte("T")), v1Field("body", "B"), v1Field("status", "draft")}, map[string][]string{
				"title": {"The title field must be a string."},
			}},
			{"tags that is not a list", []v1Part{v1Field("title", "T"), v1Field("body", "B"), v1Field("status", "draft"), v1Field("tags", "1")}, map[string][]string{
				"tags": {"The tags field must be an array."},
			}},
			{"a tag that does not exist", []v1Part{v1Field("title", "T"), v1Field("body", "B"), v1Field("status", "draft"), v1Field("tags[]", "999999"), v1File("image", "a.png", png1)}, map[string][]string{
				"tags.0": {"The selected tags.0 is invalid."},
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h.v1Send("POST", "/api/v1/posts", token, tc.parts...).expect(t, http.StatusUnprocessableEntity, v1Invalid(tc.want))
			})
		}
		if files := h.v1StoredImages(); len(files) != 0 {
			t.Errorf("files stored by failed requests: %v", files)
		}

		// Null in JSON, and a blank value, which a browser sends for an
		// empty file input, are no image.
		r := h.do("POST", "/api/v1/posts", map[string]any{"title": "T", "body": "B", "status": "draft", "image": nil}, as(token)...)
		r.expect(t, http.StatusCreated, nil)
		r = h.v1Send("POST", "/api/v1/posts", token, v1Field("title", "T"), v1Field("body", "B"), v1Field("status", "draft"), v1Field("image", ""))
		r.expect(t, http.StatusCreated, nil)
		if u := v1Attrs(r.body["data"])["image_url"]; u != nil {
			t.Errorf("image_url after a blank image: %v", u)
		}
	})
}

func TestPostImageMultipartFields(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		a, b, c := h.v1Tag(token, "A"), h.v1Tag(token, "B"), h.v1Tag(token, "C")
		for _, tc := range []struct {
			name string
			tags []v1Part
		}{
			{"tags[]", []v1Part{v1Field("tags[]", jsonNumber(c)), v1Field("tags[]", jsonNumber(a))}},
			{"tags[n] in any order", []v1Part{v1Field("tags[1]", jsonNumber(a)), v1Field("tags[0]", jsonNumber(c))}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				parts := append([]v1Part{v1Field("title", " Form café "), v1Field("body", "Body"), v1Field("status", "published")}, tc.tags...)
				r := h.v1Send("POST", "/api/v1/posts", token, parts...)
				r.expect(t, http.StatusCreated, nil)
				data := r.body["data"].(map[string]any)
				var ids []string
				for _, tag := range data["relationships"].(map[string]any)["tags"].([]any) {
					ids = append(ids, jsonNumber(tag.(map[string]any)["id"]))
				}
				if want := []string{jsonNumber(a), jsonNumber(c)}; !equalJSON(ids, want) {
					t.Errorf("tags: got %v, want %v", ids, want)
				}
				if attrs := v1Attrs(data); attrs["title"] != "Form café" || attrs["image_url"] != nil || attrs["status"] != "published" {
					t.Errorf("attributes: got %v", attrs)
				}
			})
		}
		// The position of an unknown id is its place in the list.
		h.v1Send("POST", "/api/v1/posts", token, v1Field("title", "T"), v1Field("body", "B"), v1Field("status", "draft"),
			v1Field("tags[5]", "999999"), v1Field("tags[2]", jsonNumber(b))).
			expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"tags.1": {"The selected tags.1 is invalid."}}))
	})
}

func TestPostImageLifecycle(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		other, _ := h.v1Account("Other")
		r := h.v1Send("POST", "/api/v1/posts", token,
			v1Field("title", "Pictured"), v1Field("body", "Body"), v1Field("status", "published"), v1File("image", "a.png", v1PNG(t, 2, 2)))
		r.expect(t, http.StatusCreated, nil)
		id := jsonNumber(r.body["data"].(map[string]any)["id"])
		first := v1Attrs(r.body["data"])["image_url"].(string)
		path := "/api/v1/posts/" + id

		// Somebody else's image is refused and leaves nothing behind.
		h.v1Send("PUT", path, other, v1File("image", "b.gif", v1GIF(t))).
			expect(t, http.StatusForbidden, map[string]any{"success": false, "message": "This action is unauthorized."})
		h.v1Send("PUT", path, other, v1Field("remove_image", "1")).expect(t, http.StatusForbidden, nil)
		if files := h.v1StoredImages(); len(files) != 1 {
			t.Errorf("files after refused updates: %v", files)
		}

		// A new image replaces the old one, whose file goes; other fields
		// of the form change too, and tags stay as they are.
		r = h.v1Send("PUT", path, token, v1Field("title", "Repictured"), v1Field("tags[]", "1"), v1File("image", "b.gif", v1GIF(t)))
		r.expect(t, http.StatusOK, nil)
		second, _ := v1Attrs(r.body["data"])["image_url"].(string)
		if m := v1ImageURL.FindStringSubmatch(second); m == nil || m[1] != ".gif" || second == first {
			t.Errorf("image_url after replacing: got %q (was %q)", second, first)
		}
		if a := v1Attrs(r.body["data"]); a["title"] != "Repictured" || a["slug"] != "pictured" {
			t.Errorf("after a form update: %v", a)
		}
		if n := len(r.body["data"].(map[string]any)["relationships"].(map[string]any)["tags"].([]any)); n != 0 {
			t.Errorf("a form update set %d tags", n)
		}
		h.do("GET", strings.TrimPrefix(first, "http://example.com"), nil).expect(t, http.StatusNotFound, nil)
		h.do("GET", strings.TrimPrefix(second, "http://example.com"), nil).expect(t, http.StatusOK, nil)
		if files := h.v1StoredImages(); len(files) != 1 {
			t.Errorf("files after replacing: %v", files)
		}

		// remove_image must be true to remove: false keeps the image, and
		// an image sent with it wins.
		for _, parts := range [][]v1Part{{v1Field("remove_image", "false")}, {v1Field("remove_image", "0"), v1Field("title", "Still pictured")}} {
			r = h.v1Send("PUT", path, token, parts...)
			r.expect(t, http.StatusOK, nil)
			if u := v1Attrs(r.body["data"])["image_url"]; u != second {
				t.Errorf("remove_image false: image_url %v, want %q", u, second)
			}
		}
		r = h.v1Send("PUT", path, token, v1Field("remove_image", "true"), v1File("image", "c.webp", v1WebPLossy(8, 8)))
		r.expect(t, http.StatusOK, nil)
		third, _ := v1Attrs(r.body["data"])["image_url"].(string)
		if m := v1ImageURL.FindStringSubmatch(third); m == nil || m[1] != ".webp" {
			t.Errorf("image with remove_image: image_url %q", third)
		}

		// JSON clears it too, and the file goes.
		r = h.do("PUT", path, map[string]any{"remove_image": true}, as(token)...)
		r.expect(t, http.StatusOK, nil)
		if u := v1Attrs(r.body["data"])["image_url"]; u != nil {
			t.Errorf("after remove_image: image_url %v", u)
		}
		if files := h.v1StoredImages(); len(files) != 0 {
			t.Errorf("files after removing: %v", files)
		}

		// Deleting a post deletes its image.
		r = h.v1Send("PUT", path, token, v1File("image", "d.jpg", v1JPEG(t)))
		r.expect(t, http.StatusOK, nil)
		if files := h.v1StoredImages(); len(files) != 1 {
			t.Errorf("files before delete: %v", files)
		}
		h.do("DELETE", path, nil, as(token)...).expect(t, http.StatusOK, map[string]any{"message": "Post deleted successfully."})
		if files := h.v1StoredImages(); len(files) != 0 {
			t.Errorf("files after delete: %v", files)
		}
	})
}

func TestStorageServing(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	token, _ := h.v1Account("Ann")
	r := h.v1Send("POST", "/api/v1/posts", token,
		v1Field("title", "T"), v1Field("body", "B"), v1Field("status", "draft"), v1File("image", "a.png", v1PNG(t, 1, 1)))
	r.expect(t, http.StatusCreated, nil)
	path := strings.TrimPrefix(v1Attrs(r.body["data"])["image_url"].(string), "http://example.com")
	// A file beside the storage folder, which no URL may reach.
	if err := os.WriteFile(filepath.Join(filepath.Dir(h.storage), "secret.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}

	head := h.do("HEAD", path, nil)
	if head.status != http.StatusOK || len(head.raw) != 0 || head.header.Get("Content-Type") != "image/png" {
		t.Errorf("HEAD %s: got %d %v %q", path, head.status, head.header, head.raw)
	}
	// Only reads are served; the file survives the other methods.
	for _, method := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		if r := h.do(method, path, nil); r.status != http.StatusNotFound && r.status != http.StatusMethodNotAllowed {
			t.Errorf("%s %s: got %d, want 404 or 405", method, path, r.status)
		}
	}
	h.do("GET", path, nil).expect(t, http.StatusOK, nil)
	// No listings, no escape from the folder.
	for _, p := range []string{
		"/storage", "/storage/", "/storage/posts", "/storage/posts/", "/storage/posts/missing.png",
		"/storage/../secret.txt", "/storage/%2e%2e/secret.txt", "/storage/..%2fsecret.txt", "/storage/posts/../../secret.txt",
	} {
		if r := h.do("GET", p, nil); r.status != http.StatusNotFound {
			t.Errorf("GET %s: got %d %.80q, want 404", p, r.status, r.raw)
		}
	}
}

func TestPostBodyOverTheServerLimit(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	token, _ := h.v1Account("Ann")
	// The in-memory test transport reports the limit as an error, so this
	// goes through a real listener. Only the headers are sent: the server
	// answers as soon as it reads the declared length.
	base := h.listen()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	head := "POST /api/v1/posts HTTP/1.1\r\nHost: example.com\r\nAuthorization: Bearer " + token +
		"\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 9437184\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(body) != `{"success":false,"message":"Payload Too Large"}` {
		t.Errorf("got %d %s, want 413 with area A's body", resp.StatusCode, body)
	}
}
