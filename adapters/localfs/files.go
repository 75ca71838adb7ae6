// Package localfs keeps uploaded files in a folder on the local disk.
package localfs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Config names the storage root.
type Config struct {
	// Dir is the folder files are kept in; it is created when missing.
	Dir string
}

// Files implements ports.FileStore on a folder.
type Files struct {
	root string
}

// New returns a file store rooted at cfg.Dir.
func New(cfg Config) *Files {
	return &Files{root: cfg.Dir}
}

// Root is the folder files are kept in, for serving them.
func (f *Files) Root() string { return f.root }

// Save implements ports.FileStore. The name is 32 random hex characters, so
// names can't be guessed and never collide. The file is written under a
// temporary name and renamed, so a reader never sees half a file.
func (f *Files) Save(_ context.Context, dir string, data []byte, ext string) (string, error) {
	if strings.ContainsAny(dir, `/\.`) || strings.ContainsAny(ext[min(1, len(ext)):], `/\.`) {
		return "", fmt.Errorf("localfs: save: bad directory %q or extension %q", dir, ext)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("localfs: save: %w", err)
	}
	rel := dir + "/" + hex.EncodeToString(b[:]) + ext
	full := filepath.Join(f.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return "", fmt.Errorf("localfs: save: %w", err)
	}
	tmp := full + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return "", fmt.Errorf("localfs: save: %w", err)
	}
	if err := os.Rename(tmp, full); err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("localfs: save: %w", err)
	}
	return rel, nil
}

// Delete implements ports.FileStore. Paths that would leave the root are
// refused.
func (f *Files) Delete(_ context.Context, rel string) error {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if rel == "" || filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return fmt.Errorf("localfs: delete: path %q is outside the storage root", rel)
	}
	err := os.Remove(filepath.Join(f.root, clean))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("localfs: delete: %w", err)
	}
	return nil
}
