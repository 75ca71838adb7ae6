package inkwell

import (
	"fmt"

	"github.com/inkwell/inkwell/adapters/localfs"
	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/ports"
)

// FilesConfig selects where uploaded files are kept (FILESYSTEM_DISK) and
// holds the settings of each place.
type FilesConfig struct {
	// Disk is "local" (the default when empty) or "s3".
	Disk  string
	Local localfs.Config
	S3    s3files.Config
}

// openFiles returns the file store of the configured disk. Replicas that
// share one database must share their files too, which only "s3" does.
func openFiles(cfg FilesConfig) (ports.FileStore, error) {
	switch cfg.Disk {
	case "", "local":
		// An upload into a folder that cannot be written would fail with a
		// 500 long after the start; the start is the time to say so.
		if err := checkWritableDir(cfg.Local.Dir); err != nil {
			return nil, fmt.Errorf("STORAGE_DIR: files cannot be written in %s: %w; fix its permissions or STORAGE_DIR", cfg.Local.Dir, err)
		}
		return localfs.New(cfg.Local), nil
	case "s3":
		b, err := s3files.New(cfg.S3)
		if err != nil {
			return nil, err
		}
		return b, nil
	default:
		return nil, fmt.Errorf("FILESYSTEM_DISK: %q is neither local nor s3", cfg.Disk)
	}
}
