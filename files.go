package inkwell

import (
	"fmt"
	"log/slog"

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
// When this process replicates a backup, local files are copied to the
// backup's bucket (copiedFiles), and the cleanup makes the copies still
// queued; files on S3 need no copy.
func openFiles(cfg FilesConfig, backup BackupConfig, log *slog.Logger) (ports.FileStore, func(), error) {
	switch cfg.Disk {
	case "", "local":
		// An upload into a folder that cannot be written would fail with a
		// 500 long after the start; the start is the time to say so.
		if err := checkWritableDir(cfg.Local.Dir); err != nil {
			return nil, nil, fmt.Errorf("STORAGE_DIR: files cannot be written in %s: %w; fix its permissions or STORAGE_DIR", cfg.Local.Dir, err)
		}
		local := localfs.New(cfg.Local)
		if !backup.On() || !backup.Replicate {
			return local, func() {}, nil
		}
		copies, err := backup.files()
		if err != nil {
			return nil, nil, err
		}
		c := newCopiedFiles(local, copies, log)
		return c, c.Close, nil
	case "s3":
		b, err := s3files.New(cfg.S3)
		if err != nil {
			return nil, nil, err
		}
		return b, func() {}, nil
	default:
		return nil, nil, fmt.Errorf("FILESYSTEM_DISK: %q is neither local nor s3", cfg.Disk)
	}
}
