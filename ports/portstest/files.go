package portstest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// fileTest is one contract check of a ports.FileStore.
type fileTest struct {
	name string
	run  func(t *testing.T, fs ports.FileStore)
}

var fileTests = []fileTest{
	{"RoundTrip", testFileRoundTrip},
	{"ETag", testFileETag},
	{"UniqueNames", testFileUniqueNames},
	{"BadNames", testFileBadNames},
	{"Delete", testFileDelete},
	{"Trash", testFileTrash},
	{"Missing", testFileMissing},
	{"Traversal", testFileTraversal},
	{"ConcurrentSaves", testFileConcurrentSaves},
}

// RunFiles runs the contract suite of ports.FileStore. newFiles must return
// an empty store that no other test uses, and release it through tb.Cleanup;
// it is called once per subtest.
func RunFiles(t *testing.T, newFiles func(tb testing.TB) ports.FileStore) {
	for _, tc := range fileTests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, newFiles(t))
		})
	}
}

// savedName is the shape of every path Save returns: the directory, 32
// random hex characters and the extension.
func savedName(dir, ext string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(dir) + `/[0-9a-f]{32}` + regexp.QuoteMeta(ext) + `$`)
}

func testFileRoundTrip(t *testing.T, fs ports.FileStore) {
	big := make([]byte, 1<<20)
	_, _ = rand.Read(big)
	cases := []struct {
		dir, ext, contentType string
		data                  []byte
	}{
		{"posts", ".png", "image/png", []byte("\x89PNG\r\n\x1a\n not really")},
		{"avatars", ".jpg", "image/jpeg", big},
		{"posts", ".gif", "image/gif", []byte("GIF89a")},
		{"posts", ".webp", "image/webp", []byte{}},
	}
	for _, tc := range cases {
		before := time.Now()
		path, err := fs.Save(t.Context(), tc.dir, tc.data, tc.ext)
		must(t, fmt.Sprintf("Save(%q, %d bytes, %q)", tc.dir, len(tc.data), tc.ext), err)
		if !savedName(tc.dir, tc.ext).MatchString(path) {
			t.Errorf("Save(%q, %q): got path %q, want %s/<32 hex>%s", tc.dir, tc.ext, path, tc.dir, tc.ext)
		}
		f, data := open(t, fs, path)
		if !bytes.Equal(data, tc.data) {
			t.Errorf("Open(%q): got %d bytes, want the %d saved", path, len(data), len(tc.data))
		}
		if f.Size != int64(len(tc.data)) {
			t.Errorf("Open(%q): got Size %d, want %d", path, f.Size, len(tc.data))
		}
		if f.ContentType != tc.contentType {
			t.Errorf("Open(%q): got ContentType %q, want %q", path, f.ContentType, tc.contentType)
		}
		// Stores keep modification times to the second at least, and the
		// server behind one may run on another clock: a minute either way.
		if f.ModTime.Before(before.Add(-time.Minute)) || f.ModTime.After(time.Now().Add(time.Minute)) {
			t.Errorf("Open(%q): got ModTime %v, want about %v", path, f.ModTime, before)
		}
	}
}

func testFileETag(t *testing.T, fs ports.FileStore) {
	ctx := t.Context()
	a, err := fs.Save(ctx, "posts", []byte("first"), ".png")
	must(t, "Save", err)
	b, err := fs.Save(ctx, "posts", []byte("second"), ".png")
	must(t, "Save", err)
	fa, _ := open(t, fs, a)
	again, _ := open(t, fs, a)
	fb, _ := open(t, fs, b)
	if !regexp.MustCompile(`^"[!#-~]+"$`).MatchString(fa.ETag) {
		t.Errorf("Open(%q): got ETag %q, want a quoted strong entity tag", a, fa.ETag)
	}
	if again.ETag != fa.ETag {
		t.Errorf("Open(%q) twice: got ETags %q and %q, want one", a, fa.ETag, again.ETag)
	}
	if fb.ETag == fa.ETag {
		t.Errorf("two files of different content got one ETag %q", fa.ETag)
	}
}

func testFileUniqueNames(t *testing.T, fs ports.FileStore) {
	ctx := t.Context()
	seen := map[string]bool{}
	for range 5 {
		path, err := fs.Save(ctx, "posts", []byte("same"), ".png")
		must(t, "Save", err)
		if seen[path] {
			t.Errorf("Save returned %q twice", path)
		}
		seen[path] = true
	}
	for path := range seen {
		if _, data := open(t, fs, path); string(data) != "same" {
			t.Errorf("Open(%q): got %q, want %q", path, data, "same")
		}
	}
}

func testFileBadNames(t *testing.T, fs ports.FileStore) {
	cases := []struct{ dir, ext string }{
		{"", ".png"},
		{"..", ".png"},
		{"../x", ".png"},
		{"a/b", ".png"},
		{`a\b`, ".png"},
		{"/abs", ".png"},
		{"posts", ""},
		{"posts", "png"},
		{"posts", "."},
		{"posts", "./../x"},
		{"posts", ".png/x"},
		{"posts", ".tar.gz"},
	}
	for _, tc := range cases {
		path, err := fs.Save(t.Context(), tc.dir, []byte("x"), tc.ext)
		checkErr(t, fmt.Sprintf("Save(%q, %q) (got path %q)", tc.dir, tc.ext, path), err, ports.ErrBadFilePath)
	}
}

func testFileDelete(t *testing.T, fs ports.FileStore) {
	ctx := t.Context()
	gone, err := fs.Save(ctx, "posts", []byte("gone"), ".png")
	must(t, "Save", err)
	kept, err := fs.Save(ctx, "posts", []byte("kept"), ".png")
	must(t, "Save", err)
	checkErr(t, fmt.Sprintf("Delete(%q)", gone), fs.Delete(ctx, gone), nil)
	_, err = fs.Open(ctx, gone)
	checkErr(t, fmt.Sprintf("Open(%q) after Delete", gone), err, domain.ErrNotFound)
	checkErr(t, fmt.Sprintf("Delete(%q) again", gone), fs.Delete(ctx, gone), nil)
	checkErr(t, "Delete of a file never saved", fs.Delete(ctx, "posts/"+randomName()+".png"), nil)
	if _, data := open(t, fs, kept); string(data) != "kept" {
		t.Errorf("Open(%q) after deleting another file: got %q, want %q", kept, data, "kept")
	}
}

// testFileTrash checks the move of a trashed post's image: out of Open's
// reach at once, back with its content on restore, and gone with Delete
// wherever it is.
func testFileTrash(t *testing.T, fs ports.FileStore) {
	ctx := t.Context()
	path, err := fs.Save(ctx, "posts", []byte("trashed"), ".png")
	must(t, "Save", err)
	kept, err := fs.Save(ctx, "posts", []byte("kept"), ".png")
	must(t, "Save", err)
	checkErr(t, fmt.Sprintf("MoveToTrash(%q)", path), fs.MoveToTrash(ctx, path), nil)
	_, err = fs.Open(ctx, path)
	checkErr(t, fmt.Sprintf("Open(%q) in the trash", path), err, domain.ErrNotFound)
	_, err = fs.Open(ctx, ports.TrashedFilePath(path))
	checkErr(t, fmt.Sprintf("Open(%q)", ports.TrashedFilePath(path)), err, domain.ErrNotFound)
	if _, data := open(t, fs, kept); string(data) != "kept" {
		t.Errorf("Open(%q) beside a trashed file: got %q, want %q", kept, data, "kept")
	}
	checkErr(t, "MoveToTrash again", fs.MoveToTrash(ctx, path), nil)
	checkErr(t, fmt.Sprintf("MoveFromTrash(%q)", path), fs.MoveFromTrash(ctx, path), nil)
	if _, data := open(t, fs, path); string(data) != "trashed" {
		t.Errorf("Open(%q) after MoveFromTrash: got %q, want %q", path, data, "trashed")
	}
	checkErr(t, "MoveFromTrash of a file not in the trash", fs.MoveFromTrash(ctx, path), nil)
	if _, data := open(t, fs, path); string(data) != "trashed" {
		t.Errorf("Open(%q) after a second MoveFromTrash: got %q, want %q", path, data, "trashed")
	}
	// Delete removes a trashed file too: a purge deletes what is in the trash.
	must(t, "MoveToTrash", fs.MoveToTrash(ctx, path))
	checkErr(t, fmt.Sprintf("Delete(%q) in the trash", path), fs.Delete(ctx, path), nil)
	checkErr(t, "MoveFromTrash after Delete", fs.MoveFromTrash(ctx, path), nil)
	_, err = fs.Open(ctx, path)
	checkErr(t, fmt.Sprintf("Open(%q) after Delete in the trash", path), err, domain.ErrNotFound)
	for _, bad := range []string{"../x.png", "/posts/x.png", ports.TrashedFilePath(kept)} {
		if err := fs.MoveToTrash(ctx, bad); !errors.Is(err, ports.ErrBadFilePath) {
			t.Errorf("MoveToTrash(%q): got %v, want ErrBadFilePath", bad, err)
		}
		if err := fs.MoveFromTrash(ctx, bad); !errors.Is(err, ports.ErrBadFilePath) {
			t.Errorf("MoveFromTrash(%q): got %v, want ErrBadFilePath", bad, err)
		}
	}
}

func testFileMissing(t *testing.T, fs ports.FileStore) {
	ctx := t.Context()
	saved, err := fs.Save(ctx, "posts", []byte("x"), ".png")
	must(t, "Save", err)
	for _, path := range []string{
		"posts/" + randomName() + ".png",
		"nowhere/" + randomName() + ".png",
		strings.TrimSuffix(saved, ".png") + ".jpg",
	} {
		_, err := fs.Open(ctx, path)
		checkErr(t, fmt.Sprintf("Open(%q)", path), err, domain.ErrNotFound)
	}
}

// testFileTraversal holds a store to the shape of the paths Save returns:
// Open finds nothing anywhere else, not even a folder, and Delete refuses to
// try.
func testFileTraversal(t *testing.T, fs ports.FileStore) {
	ctx := t.Context()
	saved, err := fs.Save(ctx, "posts", []byte("x"), ".png")
	must(t, "Save", err)
	for _, path := range []string{
		"",
		".",
		"..",
		"../x.png",
		"/" + saved,
		"posts/../" + saved,
		"./" + saved,
		"posts//x.png",
		"posts/",
		"posts",
		saved + "/x.png",
		"posts/sub/" + randomName() + ".png",
		`posts\..\x.png`,
		saved + ".tmp",
		"../../../../../../etc/passwd",
	} {
		_, err := fs.Open(ctx, path)
		checkErr(t, fmt.Sprintf("Open(%q)", path), err, domain.ErrNotFound)
		checkErr(t, fmt.Sprintf("Delete(%q)", path), fs.Delete(ctx, path), ports.ErrBadFilePath)
	}
	if _, data := open(t, fs, saved); string(data) != "x" {
		t.Errorf("Open(%q) after the refused deletes: got %q, want %q", saved, data, "x")
	}
}

// testFileConcurrentSaves saves from several goroutines at once, as
// replicas and requests do, and reads every file back.
func testFileConcurrentSaves(t *testing.T, fs ports.FileStore) {
	const writers, each = 8, 4
	var mu sync.Mutex
	saved := map[string]string{} // path → content
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				content := fmt.Sprintf("writer %d, file %d", w, i)
				path, err := fs.Save(t.Context(), "posts", []byte(content), ".png")
				if err != nil {
					t.Errorf("Save(%q): %v", content, err)
					return
				}
				mu.Lock()
				if other, ok := saved[path]; ok {
					t.Errorf("Save returned %q for %q and for %q", path, other, content)
				}
				saved[path] = content
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(saved) != writers*each {
		t.Errorf("got %d distinct paths, want %d", len(saved), writers*each)
	}
	for path, content := range saved {
		if _, data := open(t, fs, path); string(data) != content {
			t.Errorf("Open(%q): got %q, want %q", path, data, content)
		}
	}
}

// open opens and reads the file at path, stopping the test if it can't.
func open(t *testing.T, fs ports.FileStore, path string) (ports.StoredFile, []byte) {
	t.Helper()
	f, err := fs.Open(t.Context(), path)
	must(t, fmt.Sprintf("Open(%q)", path), err)
	defer f.Body.Close()
	data, err := io.ReadAll(f.Body)
	must(t, fmt.Sprintf("read %q", path), err)
	return f, data
}

// randomName is a name no store has saved.
func randomName() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
