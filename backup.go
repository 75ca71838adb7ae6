package inkwell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/inkwell/inkwell/adapters/litestream"
	"github.com/inkwell/inkwell/adapters/localfs"
	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// BackupConfig is the continuous backup of the embedded SQLite store
// (BACKUP_*): its database through the backup adapter, and its files on
// the local disk copied beside it, under Prefix/files/.
type BackupConfig struct {
	// Bucket and Prefix come from BACKUP_URL, s3://bucket/prefix; an empty
	// Bucket turns backups off.
	Bucket string
	Prefix string
	// S3 reaches the bucket: the file store's AWS_* settings (its Bucket
	// and Prefix are not used).
	S3 s3files.Config
	// SyncInterval bounds how long a commit waits for the replica; MaxLag
	// is the lag beyond which the service says it is not ready.
	SyncInterval time.Duration
	MaxLag       time.Duration
	// RestoreIfMissing makes serve restore the database, and the files,
	// before it migrates when the database file is missing.
	RestoreIfMissing bool
	// Replicate says that this process sends changes: serve alone, so
	// that a command run beside it does not replicate the same file twice.
	Replicate bool
}

// On reports whether backups are configured.
func (c BackupConfig) On() bool { return c.Bucket != "" }

// database is the backup adapter on the SQLite file at path. Its replica
// lives below Prefix through the file store's S3 client (see
// replicaObjects), so the binary holds one S3 client.
func (c BackupConfig) database(dbPath string, log *slog.Logger) (*litestream.Backup, error) {
	objects, err := c.bucket(strings.Trim(c.Prefix, "/"))
	if err != nil {
		return nil, err
	}
	return litestream.New(litestream.Config{
		Bucket: c.Bucket, Prefix: c.Prefix, SyncInterval: c.SyncInterval,
	}, replicaObjects{objects}, dbPath, log)
}

// files is the copy of the local files in the bucket.
func (c BackupConfig) files() (*s3files.Bucket, error) {
	return c.bucket(path.Join(strings.Trim(c.Prefix, "/"), "files"))
}

// bucket is the backup's bucket below prefix.
func (c BackupConfig) bucket(prefix string) (*s3files.Bucket, error) {
	cfg := c.S3
	cfg.Bucket, cfg.URL, cfg.Prefix = c.Bucket, "", prefix
	return s3files.New(cfg)
}

// replicaObjects is the S3 file store's bucket as the object store of the
// database's replica.
type replicaObjects struct{ b *s3files.Bucket }

var _ litestream.Objects = replicaObjects{}

func (o replicaObjects) Put(ctx context.Context, key string, r io.ReadSeeker, size int64, metadata map[string]string) error {
	return o.b.PutObject(ctx, key, r, size, metadata)
}

// Get says a missing key with fs.ErrNotExist, as the replica asks.
func (o replicaObjects) Get(ctx context.Context, key string, offset, size int64) (io.ReadCloser, error) {
	rc, err := o.b.GetObject(ctx, key, offset, size)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	}
	return rc, err
}

func (o replicaObjects) List(ctx context.Context, prefix string, fn func(key string, size int64, modTime time.Time) error) error {
	return o.b.ListObjects(ctx, prefix, func(obj s3files.Object) error { return fn(obj.Key, obj.Size, obj.ModTime) })
}

func (o replicaObjects) Metadata(ctx context.Context, key string) (map[string]string, error) {
	return o.b.ObjectMetadata(ctx, key)
}

func (o replicaObjects) Delete(ctx context.Context, keys ...string) error {
	return o.b.DeleteObjects(ctx, keys...)
}

// SQLitePath is the SQLite file the store configuration names, and false
// for PostgreSQL.
func (c StoreConfig) SQLitePath() (string, bool) {
	switch {
	case c.URL == "":
		return DefaultSQLitePath, true
	case strings.HasPrefix(c.URL, "sqlite://"):
		return strings.TrimPrefix(c.URL, "sqlite://"), true
	}
	return "", false
}

// errBackupNeedsSQLite refuses backups of PostgreSQL, which has its own
// tools.
var errBackupNeedsSQLite = errors.New("BACKUP_URL: backs up the embedded SQLite store only; back up PostgreSQL with its own tools (pgBackRest or WAL-G, with a standby), see the README's \"Backups and restore\"")

// openBackup starts replicating the SQLite store when backups are on and
// this process replicates (serve), once the store is open and migrated
// (store is taken for that order). It returns nil otherwise. The cleanup
// sends what was committed since the last sync before the store closes.
func openBackup(ctx context.Context, cfg BackupConfig, storeCfg StoreConfig, _ ports.Store, log *slog.Logger) (ports.BackupReporter, func(), error) {
	if !cfg.On() || !cfg.Replicate {
		return nil, func() {}, nil
	}
	dbPath, ok := storeCfg.SQLitePath()
	if !ok {
		return nil, nil, errBackupNeedsSQLite
	}
	b, err := cfg.database(dbPath, log)
	if err != nil {
		return nil, nil, err
	}
	if err := b.Start(ctx); err != nil {
		return nil, nil, err
	}
	log.Info("backing up", "replica", b.Name(), "interval", cfg.SyncInterval)
	return b, func() {
		if err := b.Close(context.Background()); err != nil {
			log.Error("backup: the last sync before the stop failed; the replica lacks the last changes", "replica", b.Name(), "err", err)
		}
	}, nil
}

// BackupStatus reads the replica of the configured store from outside the
// process that replicates it.
func BackupStatus(ctx context.Context, cfg Config, log *slog.Logger) (ports.BackupStatus, error) {
	b, err := backupOf(cfg, log)
	if err != nil {
		return ports.BackupStatus{}, err
	}
	return b.BackupStatus(ctx)
}

// backupOf is the backup adapter of the configured store, which must be a
// SQLite one with backups on.
func backupOf(cfg Config, log *slog.Logger) (*litestream.Backup, error) {
	if !cfg.Backup.On() {
		return nil, errors.New("BACKUP_URL: not set; set it to the replica, s3://bucket/prefix")
	}
	dbPath, ok := cfg.Store.SQLitePath()
	if !ok {
		return nil, errBackupNeedsSQLite
	}
	return cfg.Backup.database(dbPath, log)
}

// RestoreRequest is what to restore, and where.
type RestoreRequest struct {
	// To is the new database file; At the moment to restore, zero for
	// the latest.
	To string
	At time.Time
	// FilesTo is the folder the local files are restored into; empty
	// when the files live on S3 and need nothing.
	FilesTo string
}

// RestoreReport says what a restore brought back.
type RestoreReport struct {
	// Files and Present count the files copied and those already there.
	Files, Present int
}

// Restore restores the configured store's replica into a new database
// file and its copied files into a folder (never replacing a file there).
func Restore(ctx context.Context, cfg Config, req RestoreRequest, log *slog.Logger) (RestoreReport, error) {
	b, err := backupOf(cfg, log)
	if err != nil {
		return RestoreReport{}, err
	}
	if err := b.Restore(ctx, req.To, req.At); err != nil {
		return RestoreReport{}, err
	}
	if req.FilesTo == "" {
		return RestoreReport{}, nil
	}
	rep, err := restoreFiles(ctx, cfg.Backup, req.FilesTo)
	if err != nil {
		return rep, err
	}
	return rep, trashRestoredFiles(ctx, req.To, req.FilesTo)
}

// RestoreIfMissing restores the database and its files when backups and
// BACKUP_RESTORE_IF_MISSING are on and the SQLite file does not exist, so
// that a replacement machine comes back by itself. An empty replica (a new
// installation) restores nothing: the store starts empty. It reports
// whether it restored.
func RestoreIfMissing(ctx context.Context, cfg Config, log *slog.Logger) (bool, error) {
	if !cfg.Backup.On() || !cfg.Backup.RestoreIfMissing {
		return false, nil
	}
	dbPath, ok := cfg.Store.SQLitePath()
	if !ok {
		return false, errBackupNeedsSQLite
	}
	if _, err := os.Stat(dbPath); !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	b, err := cfg.Backup.database(dbPath, log)
	if err != nil {
		return false, err
	}
	empty, err := b.Empty(ctx)
	if err != nil {
		return false, fmt.Errorf("BACKUP_RESTORE_IF_MISSING: %w", err)
	}
	if empty {
		log.Info("backup: the database is missing and the replica is empty; starting a new store", "replica", b.Name())
		return false, nil
	}
	start := time.Now()
	if err := b.Restore(ctx, dbPath, time.Time{}); err != nil {
		return false, fmt.Errorf("BACKUP_RESTORE_IF_MISSING: %w", err)
	}
	var rep RestoreReport
	if cfg.Files.Disk == "" || cfg.Files.Disk == "local" {
		if rep, err = restoreFiles(ctx, cfg.Backup, cfg.Files.Local.Dir); err != nil {
			return false, fmt.Errorf("BACKUP_RESTORE_IF_MISSING: %w", err)
		}
		if err := trashRestoredFiles(ctx, dbPath, cfg.Files.Local.Dir); err != nil {
			return false, fmt.Errorf("BACKUP_RESTORE_IF_MISSING: %w", err)
		}
	}
	log.Info("backup: restored the missing database", "replica", b.Name(), "path", dbPath, "files", rep.Files, "took", time.Since(start).Round(time.Millisecond))
	return true, nil
}

// trashRestoredFiles moves the images of the posts that the restored
// database at dbPath holds in its trash out of what is served, as trashing
// them did: the bucket keeps one copy per file at the path it was saved
// under, so restoreFiles put them back where a live post's image would be.
// Opening the store brings the restored file to the current schema, which
// serve would do anyway.
func trashRestoredFiles(ctx context.Context, dbPath, dir string) error {
	st, closeStore, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		return fmt.Errorf("restore: open %s: %w", dbPath, err)
	}
	defer closeStore()
	local := localfs.New(localfs.Config{Dir: dir})
	trash := st.Repos().Trash
	const batch = 500
	for page := (ports.Page{Limit: batch}); ; page.Offset += batch {
		posts, _, err := trash.Posts(ctx, 0, page)
		if err != nil {
			return fmt.Errorf("restore: read the trash of %s: %w", dbPath, err)
		}
		for _, p := range posts {
			if path := p.Post.ImagePath(); path != "" {
				if err := local.MoveToTrash(ctx, path); err != nil {
					return fmt.Errorf("restore: move the image of trashed post %d aside: %w", p.Post.ID(), err)
				}
			}
		}
		if len(posts) < batch {
			return nil
		}
	}
}

// restoreFiles copies every file of the bucket's copy into dir, except
// those already there.
func restoreFiles(ctx context.Context, cfg BackupConfig, dir string) (RestoreReport, error) {
	var rep RestoreReport
	copies, err := cfg.files()
	if err != nil {
		return rep, err
	}
	local := localfs.New(localfs.Config{Dir: dir})
	err = copies.List(ctx, func(p string, _ int64) error {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
			rep.Present++
			return nil
		}
		f, err := copies.Open(ctx, p)
		if err != nil {
			return err
		}
		defer f.Body.Close()
		if err := local.Put(ctx, p, f.Body); err != nil {
			return err
		}
		rep.Files++
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("restore files into %s: %w", dir, err)
	}
	return rep, nil
}
