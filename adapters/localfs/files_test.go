package localfs

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/inkwell/inkwell/ports"
	"github.com/inkwell/inkwell/ports/portstest"
)

func TestFiles(t *testing.T) {
	portstest.RunFiles(t, func(tb testing.TB) ports.FileStore {
		return New(Config{Dir: filepath.Join(tb.TempDir(), "storage")})
	})
}

// TestFilesOnDisk checks where the files go: below the root, under the path
// Save returns, and nowhere else.
func TestFilesOnDisk(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "storage")
	f := New(Config{Dir: root})
	ctx := context.Background()
	path, err := f.Save(ctx, "posts", []byte("data"), ".png")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil || string(got) != "data" {
		t.Fatalf("read back %s: got %q, %v", path, got, err)
	}
	entries, err := os.ReadDir(filepath.Join(root, "posts"))
	if err != nil || len(entries) != 1 {
		t.Errorf("posts folder: got %v, %v, want the one file (no temporary left behind)", entries, err)
	}
	if err := f.Delete(ctx, path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(path))); !os.IsNotExist(err) {
		t.Errorf("after delete: stat gave %v, want not-exist", err)
	}

	// A file next to the root stays out of reach of a path that climbs.
	if err := os.WriteFile(filepath.Join(dir, "secret.png"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if file, err := f.Open(ctx, "../secret.png"); err == nil {
		file.Body.Close()
		t.Error(`Open("../secret.png") opened a file outside the root`)
	}
	if err := f.Delete(ctx, "../secret.png"); err == nil {
		t.Error(`Delete("../secret.png"): got nil, want an error`)
	}
	if _, err := os.Stat(filepath.Join(dir, "secret.png")); err != nil {
		t.Errorf("the file outside the root: %v", err)
	}
}
