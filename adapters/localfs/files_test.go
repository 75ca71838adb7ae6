package localfs

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func TestSaveAndDelete(t *testing.T) {
	root := t.TempDir()
	f := New(Config{Dir: filepath.Join(root, "storage")})
	ctx := context.Background()
	path, err := f.Save(ctx, "posts", []byte("data"), ".png")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^posts/[0-9a-f]{32}\.png$`).MatchString(path) {
		t.Errorf("got path %q, want posts/<32 hex>.png", path)
	}
	got, err := os.ReadFile(filepath.Join(root, "storage", path))
	if err != nil || string(got) != "data" {
		t.Fatalf("read back: got %q, %v", got, err)
	}
	other, _ := f.Save(ctx, "posts", []byte("data"), ".png")
	if other == path {
		t.Error("two saves got one name")
	}
	if err := f.Delete(ctx, path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "storage", path)); !os.IsNotExist(err) {
		t.Errorf("after delete: stat gave %v, want not-exist", err)
	}
	if err := f.Delete(ctx, path); err != nil {
		t.Errorf("deleting a missing file: got %v, want nil", err)
	}
	for _, bad := range []string{"../x", "/etc/passwd", "posts/../../x", ""} {
		if err := f.Delete(ctx, bad); err == nil {
			t.Errorf("Delete(%q): got nil, want an error", bad)
		}
	}
	for _, tc := range []struct{ dir, ext string }{{"../x", ".png"}, {"posts", "./../x"}, {"a/b", ".png"}} {
		if _, err := f.Save(ctx, tc.dir, nil, tc.ext); err == nil {
			t.Errorf("Save(%q, %q): got nil, want an error", tc.dir, tc.ext)
		}
	}
}
