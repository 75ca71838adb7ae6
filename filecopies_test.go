package inkwell

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/localfs"
	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/adapters/s3files/s3test"
)

// TestCopiedFiles checks that every local file reaches the backup's
// bucket: those saved before the copying started (a crash, or backups
// turned on later) through the scan at start, those saved after through the
// queue, and a restore brings them back into another folder.
func TestCopiedFiles(t *testing.T) {
	srv := s3test.Start(t)
	bucket := srv.Bucket(t)
	cfg := BackupConfig{Bucket: bucket.Bucket, Prefix: "app", S3: bucket}
	ctx := context.Background()

	dir := t.TempDir()
	local := localfs.New(localfs.Config{Dir: dir})
	before, err := local.Save(ctx, "posts", []byte("saved before"), ".png")
	if err != nil {
		t.Fatal(err)
	}
	copies, err := cfg.files()
	if err != nil {
		t.Fatal(err)
	}
	c := newCopiedFiles(local, copies, slog.New(slog.NewTextHandler(io.Discard, nil)))
	after, err := c.Save(ctx, "avatars", []byte("saved after"), ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{before: "saved before", after: "saved after"}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if got := listed(t, copies); len(got) == len(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bucket holds %v after 20s, want %d files", listed(t, copies), len(want))
		}
	}
	c.Close()

	// Saved after Close: the next start's scan copies it.
	late, err := c.Save(ctx, "posts", []byte("saved late"), ".gif")
	if err != nil {
		t.Fatal(err)
	}
	want[late] = "saved late"
	c = newCopiedFiles(local, copies, slog.New(slog.NewTextHandler(io.Discard, nil)))
	for deadline := time.Now().Add(20 * time.Second); len(listed(t, copies)) != len(want); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the scan at start did not copy %s", late)
		}
	}
	c.Close()

	to := t.TempDir()
	rep, err := restoreFiles(ctx, cfg, to)
	if err != nil || rep.Files != len(want) || rep.Present != 0 {
		t.Fatalf("restore: %+v, %v; want %d files", rep, err, len(want))
	}
	for path, text := range want {
		got, err := os.ReadFile(filepath.Join(to, filepath.FromSlash(path)))
		if err != nil || string(got) != text {
			t.Errorf("restored %s: %q, %v; want %q", path, got, err, text)
		}
	}
	if rep, err := restoreFiles(ctx, cfg, to); err != nil || rep.Files != 0 || rep.Present != len(want) {
		t.Errorf("a second restore: %+v, %v; want every file already there", rep, err)
	}
}

func listed(t *testing.T, b *s3files.Bucket) map[string]int64 {
	t.Helper()
	got := map[string]int64{}
	if err := b.List(context.Background(), func(p string, size int64) error {
		got[p] = size
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}
