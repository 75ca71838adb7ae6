// Package localfs keeps uploaded files in a folder on the local disk.
package localfs

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
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
	if !ports.ValidFileName(dir, ext) {
		return "", fmt.Errorf("localfs: save in %q with extension %q: %w", dir, ext, ports.ErrBadFilePath)
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

// Open implements ports.FileStore. The ETag is a digest of the path, size
// and modification time rather than of the content, so that opening a file
// does not read it twice; a file replaced in place gets a new one.
func (f *Files) Open(_ context.Context, rel string) (ports.StoredFile, error) {
	if !ports.ValidFilePath(rel) {
		return ports.StoredFile{}, fmt.Errorf("localfs: open %q: %w", rel, domain.ErrNotFound)
	}
	file, err := os.Open(filepath.Join(f.root, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return ports.StoredFile{}, fmt.Errorf("localfs: open %q: %w", rel, domain.ErrNotFound)
	}
	if err != nil {
		return ports.StoredFile{}, fmt.Errorf("localfs: open: %w", err)
	}
	fi, err := file.Stat()
	if err != nil {
		_ = file.Close()
		return ports.StoredFile{}, fmt.Errorf("localfs: open: %w", err)
	}
	if !fi.Mode().IsRegular() {
		_ = file.Close()
		return ports.StoredFile{}, fmt.Errorf("localfs: open %q: %w", rel, domain.ErrNotFound)
	}
	return ports.StoredFile{
		Body:        file,
		Size:        fi.Size(),
		ContentType: ports.ContentType(path.Ext(rel)),
		ETag:        etag(rel, fi),
		ModTime:     fi.ModTime(),
	}, nil
}

// Delete implements ports.FileStore.
func (f *Files) Delete(_ context.Context, rel string) error {
	if !ports.ValidFilePath(rel) {
		return fmt.Errorf("localfs: delete %q: %w", rel, ports.ErrBadFilePath)
	}
	for _, p := range []string{rel, ports.TrashedFilePath(rel)} {
		err := os.Remove(filepath.Join(f.root, filepath.FromSlash(p)))
		if err != nil && !missing(err) {
			return fmt.Errorf("localfs: delete: %w", err)
		}
	}
	return nil
}

// MoveToTrash implements ports.FileStore with a rename, which is atomic on
// one file system: the file is either served or in the trash.
func (f *Files) MoveToTrash(_ context.Context, rel string) error {
	if !ports.ValidFilePath(rel) {
		return fmt.Errorf("localfs: move %q to the trash: %w", rel, ports.ErrBadFilePath)
	}
	return f.move(rel, ports.TrashedFilePath(rel))
}

// MoveFromTrash implements ports.FileStore.
func (f *Files) MoveFromTrash(_ context.Context, rel string) error {
	if !ports.ValidFilePath(rel) {
		return fmt.Errorf("localfs: move %q from the trash: %w", rel, ports.ErrBadFilePath)
	}
	return f.move(ports.TrashedFilePath(rel), rel)
}

func (f *Files) move(from, to string) error {
	full := filepath.Join(f.root, filepath.FromSlash(to))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return fmt.Errorf("localfs: move: %w", err)
	}
	err := os.Rename(filepath.Join(f.root, filepath.FromSlash(from)), full)
	if err != nil && !missing(err) {
		return fmt.Errorf("localfs: move: %w", err)
	}
	return nil
}

// missing reports whether err says that a file or a folder on its path is
// not there.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// etag is the entity tag of the file at rel: 16 bytes of a SHA-256 over its
// path, size and modification time.
func etag(rel string, fi fs.FileInfo) string {
	h := sha256.New()
	h.Write([]byte(rel))
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(fi.Size())))
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(fi.ModTime().UnixNano())))
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}
