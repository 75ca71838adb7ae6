package httpapi_test

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/adapters/s3files/s3test"
)

// checkStoredFile fetches the file at url (a path of the harness) and holds
// it to what every file store must serve: the body, its type, validators
// that make a second fetch a 304, and a year of caching.
func checkStoredFile(t *testing.T, h *harness, path string, want []byte, wantType string) {
	t.Helper()
	r := h.do("GET", path, nil)
	if r.status != http.StatusOK || string(r.raw) != string(want) {
		t.Fatalf("GET %s: got %d and %d bytes, want 200 and %d", path, r.status, len(r.raw), len(want))
	}
	for key, value := range map[string]string{
		"Content-Type":           wantType,
		"X-Content-Type-Options": "nosniff",
		"Cache-Control":          "public, max-age=31536000, immutable",
	} {
		if got := r.header.Get(key); got != value {
			t.Errorf("GET %s: %s is %q, want %q", path, key, got, value)
		}
	}
	etag := r.header.Get("ETag")
	if !strings.HasPrefix(etag, `"`) {
		t.Errorf("GET %s: ETag %q, want a strong tag", path, etag)
	}
	if _, err := time.Parse(http.TimeFormat, r.header.Get("Last-Modified")); err != nil {
		t.Errorf("GET %s: Last-Modified %q: %v", path, r.header.Get("Last-Modified"), err)
	}
	if again := h.do("GET", path, nil, "If-None-Match", etag); again.status != http.StatusNotModified || len(again.raw) != 0 {
		t.Errorf("GET %s with If-None-Match: got %d and %d bytes, want 304 and none", path, again.status, len(again.raw))
	}
	if other := h.do("GET", path, nil, "If-None-Match", `"other"`); other.status != http.StatusOK {
		t.Errorf("GET %s with another If-None-Match: got %d, want 200", path, other.status)
	}
	if head := h.do("HEAD", path, nil); head.status != http.StatusOK || len(head.raw) != 0 || head.header.Get("Content-Type") != wantType {
		t.Errorf("HEAD %s: got %d %v %q", path, head.status, head.header, head.raw)
	}
}

func TestStorageHeadersOnLocalDisk(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	token, _ := h.v1Account("Ann")
	png := v1PNG(t, 2, 2)
	r := h.v1Send("POST", "/api/v1/user/avatar", token, v1File("avatar", "me.png", png))
	r.expect(t, http.StatusOK, nil)
	url := r.body["user"].(map[string]any)["avatar_url"].(string)
	checkStoredFile(t, h, strings.TrimPrefix(url, "http://example.com"), png, "image/png")
}

// TestStorageOnS3 serves the uploads from a bucket, as replicas sharing one
// database do: every file the API links is readable through /storage, a
// replaced or deleted file leaves no object behind, and a bucket with a
// public URL is linked there instead.
func TestStorageOnS3(t *testing.T) {
	server := s3test.Start(t)
	bucket, err := s3files.New(server.Bucket(t))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, stores[0].Open(t), options{files: bucket})
	token, _ := h.v1Account("Ann")
	png := v1PNG(t, 2, 2)
	r := h.v1Send("POST", "/api/v1/user/avatar", token, v1File("avatar", "me.png", png))
	r.expect(t, http.StatusOK, nil)
	first := r.body["user"].(map[string]any)["avatar_url"].(string)
	if !avatarURL.MatchString(first) {
		t.Fatalf("avatar_url: got %q", first)
	}
	firstPath := strings.TrimPrefix(first, "http://example.com")
	checkStoredFile(t, h, firstPath, png, "image/png")

	r = h.v1Send("POST", "/api/v1/posts", token,
		v1Field("title", "T"), v1Field("body", "B"), v1Field("status", "published"), v1File("image", "a.webp", v1WebPLossy(8, 8)))
	r.expect(t, http.StatusCreated, nil)
	image := strings.TrimPrefix(v1Attrs(r.body["data"])["image_url"].(string), "http://example.com")
	checkStoredFile(t, h, image, v1WebPLossy(8, 8), "image/webp")

	// Replacing the avatar removes the old object once the change commits.
	h.v1Send("POST", "/api/v1/user/avatar", token, v1File("avatar", "me.png", v1PNG(t, 3, 3))).expect(t, http.StatusOK, nil)
	if r := h.do("GET", firstPath, nil); r.status != http.StatusNotFound || r.body["message"] != "Not Found" {
		t.Errorf("GET the replaced avatar: got %d %s, want the envelope's 404", r.status, r.raw)
	}
	// Deleting the account removes its files.
	avatar := strings.TrimPrefix(h.do("GET", "/api/v1/user", nil, as(token)...).body["avatar_url"].(string), "http://example.com")
	h.do("DELETE", "/api/v1/user", map[string]any{"current_password": "password1"}, as(token)...).expect(t, http.StatusOK, nil)
	for _, path := range []string{image, avatar} {
		if r := h.do("GET", path, nil); r.status != http.StatusNotFound {
			t.Errorf("GET %s of a deleted account: got %d, want 404", path, r.status)
		}
	}

	t.Run("public URL", func(t *testing.T) {
		cfg := server.Bucket(t)
		cfg.URL = "https://cdn.example.net/files/"
		public, err := s3files.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, stores[0].Open(t), options{files: public})
		token, _ := h.v1Account("Bob")
		r := h.v1Send("POST", "/api/v1/user/avatar", token, v1File("avatar", "me.png", png))
		r.expect(t, http.StatusOK, nil)
		url := r.body["user"].(map[string]any)["avatar_url"].(string)
		rest, ok := strings.CutPrefix(url, "https://cdn.example.net/files/")
		if !ok || !strings.HasPrefix(rest, "avatars/") {
			t.Fatalf("avatar_url: got %q, want it under the public URL", url)
		}
		// The service still serves the file itself.
		checkStoredFile(t, h, "/storage/"+rest, png, "image/png")
	})

	// A storage server that refuses connections, and one that takes them
	// and never answers, which holds the request until its deadline: both
	// answer 503, the second although the file is opened on a context of
	// its own, which the deadline cancels.
	for _, tc := range []struct{ name, endpoint string }{
		{"storage down", "http://127.0.0.1:1"},
		{"storage hangs", "http://" + silentServer(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := server.Bucket(t)
			cfg.Endpoint = tc.endpoint
			files, err := s3files.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, stores[0].Open(t), options{files: files, requestTimeout: 3 * time.Second})
			r := h.do("GET", "/storage/avatars/0123456789abcdef0123456789abcdef.png", nil)
			if r.status != http.StatusServiceUnavailable || r.body["success"] != false || r.body["data"] != nil {
				t.Errorf("GET a file, %s: got %d %s, want the envelope's 503", tc.name, r.status, r.raw)
			}
		})
	}
}

// silentServer listens on loopback, takes every connection and never
// answers, until the test ends; it returns its address.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		held.Wait()
	})
	held.Go(func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	})
	return ln.Addr().String()
}
