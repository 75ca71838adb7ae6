package inkwell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkWritableDir reports, as "PATH: reason", why files could not be
// created in dir, or in the folders MkdirAll would create there: dir, or
// its nearest existing parent, must be a folder where a file can be
// created. It creates nothing that it leaves behind, so a start refused
// for another reason leaves no folder.
func checkWritableDir(dir string) error {
	existing := dir
	for {
		fi, err := os.Stat(existing)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a folder", existing)
			}
			break
		}
		parent := filepath.Dir(existing)
		if !errors.Is(err, fs.ErrNotExist) || parent == existing {
			return pathError(err)
		}
		existing = parent
	}
	f, err := os.CreateTemp(existing, ".inkwell-write-check-*")
	if err != nil {
		return pathError(err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// checkWritableFile reports why the file at path could not be opened for
// writing, when it exists; checkWritableDir checks its folder.
func checkWritableFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return pathError(err)
	}
	return f.Close()
}

// pathError words err as "PATH: reason", without the operation that
// os.PathError puts first.
func pathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}
