package ports

import (
	"context"
	"io"
	"mime"
	"strings"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// FileStore keeps uploaded files where every replica of the service can read
// them. A path is what Save returned: "dir/name.ext", slash-separated and
// relative to the store's root. Every method returns an error of kind
// domain.Unavailable when the storage behind the store cannot be reached,
// so that callers answer 503 rather than 500.
type FileStore interface {
	// Save stores data under a new random name ending in ext (".png") below
	// dir ("posts") and returns its path. ErrBadFilePath unless dir is one
	// segment of letters, digits, "-" and "_" and ext a dot followed by
	// letters or digits.
	Save(ctx context.Context, dir string, data []byte, ext string) (string, error)
	// Open returns the file at path for reading; the caller closes its Body.
	// domain.ErrNotFound when there is no such file, which includes every
	// path no Save can have returned (absolute, with "." or ".." segments).
	Open(ctx context.Context, path string) (StoredFile, error)
	// Delete removes the file at path and its copy in the trash; a missing
	// file is not an error. ErrBadFilePath for a path no Save can have
	// returned.
	Delete(ctx context.Context, path string) error
	// MoveToTrash moves the file at path to TrashedFilePath(path), where
	// Open does not find it and the service serves it no more, with the
	// same store's storage; a missing file is not an error. ErrBadFilePath
	// for a path no Save can have returned.
	MoveToTrash(ctx context.Context, path string) error
	// MoveFromTrash moves the file MoveToTrash moved back to path; a file
	// not in the trash is not an error. ErrBadFilePath as MoveToTrash.
	MoveFromTrash(ctx context.Context, path string) error
}

// TrashDir is the folder below a file store's root that keeps the files of
// trashed posts. Its name starts with a dot, which no directory Save
// accepts, so no path of a live file and no URL the service serves reaches
// it.
const TrashDir = ".trash"

// TrashedFilePath is where MoveToTrash keeps the file saved at path.
func TrashedFilePath(path string) string { return TrashDir + "/" + path }

// PublicFiles is a FileStore whose files clients may also fetch from a
// public base URL of their own (a CDN, a public bucket), bypassing the
// service.
type PublicFiles interface {
	// PublicURL is where clients fetch the file at path, and false when the
	// store has no public URL configured.
	PublicURL(path string) (string, bool)
}

// StoredFile is an open file of a FileStore with what serving it needs.
type StoredFile struct {
	Body io.ReadCloser
	// Size is the length of Body in bytes.
	Size int64
	// ContentType follows from the extension the file was saved with.
	ContentType string
	// ETag is a strong HTTP entity tag, quotes included. It stays the same
	// while the stored file does and differs between files of different
	// content.
	ETag string
	// ModTime is when the file was written, to the precision the store
	// keeps (S3: a second).
	ModTime time.Time
}

// ErrBadFilePath is the error of a directory, extension or path a FileStore
// refuses: one that could leave the store's root or that names something
// Save never makes.
var ErrBadFilePath = &domain.Error{Kind: domain.Invalid, Code: "bad_file_path"}

// ValidFileName reports whether FileStore.Save accepts dir and ext: dir one
// segment of letters, digits, "-" and "_", ext a dot followed by letters or
// digits. Nothing else can reach outside the store's root or hide a name.
func ValidFileName(dir, ext string) bool {
	return len(ext) > 1 && ext[0] == '.' && dir != "" &&
		strings.IndexFunc(dir, notNameRune) < 0 && strings.IndexFunc(ext[1:], notExtRune) < 0
}

// ValidFilePath reports whether path has the shape of what FileStore.Save
// returns: "dir/name.ext", with dir and ext as Save accepts them and name
// made of letters, digits, "-" and "_". Absolute paths, "." and ".."
// segments, backslashes, folders and the temporary names a store may write
// before a rename all fall outside it.
func ValidFilePath(path string) bool {
	dir, file, _ := strings.Cut(path, "/")
	name, ext, _ := strings.Cut(file, ".")
	return name != "" && strings.IndexFunc(name, notNameRune) < 0 && ValidFileName(dir, "."+ext)
}

func notNameRune(r rune) bool { return !isAlnum(r) && r != '-' && r != '_' }

func notExtRune(r rune) bool { return !isAlnum(r) }

func isAlnum(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

// ContentType is the media type every file store gives a file named with
// ext (".png"), so that one file is served alike from any of them.
func ContentType(ext string) string {
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}
