package inkwell

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/adapters/sqlite"
	"github.com/inkwell/inkwell/ports"
)

// DefaultSQLitePath is where the embedded store lives when no DATABASE_URL
// is given.
const DefaultSQLitePath = "./data/inkwell.db"

// StoreConfig selects the store.
type StoreConfig struct {
	// URL is empty for the embedded SQLite file, "sqlite://PATH" for another
	// SQLite file, or a "postgres://" / "postgresql://" URL.
	URL string
	// SQLiteSynchronous is the SQLite store's synchronous setting; empty
	// means sqlite.SynchronousFull.
	SQLiteSynchronous sqlite.Synchronous
	// DirectURL reaches the same PostgreSQL database as URL without a
	// connection pooler, for migrations and anything else that needs a
	// session of its own; empty when URL is direct itself.
	DirectURL string
	// ReadURL reaches a hot standby of the PostgreSQL database, or a pooler
	// or balancer in front of several, for the reads of anonymous callers;
	// empty for none.
	ReadURL string
	// ReadMaxLag is the most the standby may lag behind the primary and
	// still serve reads; postgres.DefaultMaxLag when zero.
	ReadMaxLag time.Duration
}

// openStore opens the configured store, applying its migrations. The errors
// an operator can fix name DATABASE_URL, on one line; PostgreSQL's own
// failures to connect are worded by the command line (cmd/inkwell). log hears when the
// standby is skipped and when it is back. With the backup on, the SQLite
// store leaves its checkpoints to the backup, which this process runs
// whenever it opens the store (openBackup).
func openStore(ctx context.Context, cfg StoreConfig, backup BackupConfig, log *slog.Logger) (ports.Store, func(), error) {
	switch {
	case cfg.URL == "":
		if err := checkSQLiteWritable(DefaultSQLitePath); err != nil {
			return nil, nil, fmt.Errorf("DATABASE_URL: not set, and the default SQLite file %s cannot be written: %w; set DATABASE_URL or fix that folder", DefaultSQLitePath, err)
		}
		return openSQLite(ctx, DefaultSQLitePath, cfg.SQLiteSynchronous, backup.On())
	case strings.HasPrefix(cfg.URL, "sqlite://"):
		path := strings.TrimPrefix(cfg.URL, "sqlite://")
		if err := checkSQLiteFolder(path); err != nil {
			return nil, nil, err
		}
		if err := checkSQLiteWritable(path); err != nil {
			return nil, nil, fmt.Errorf("DATABASE_URL: the SQLite file %s cannot be written: %w; fix its permissions or DATABASE_URL", path, err)
		}
		return openSQLite(ctx, path, cfg.SQLiteSynchronous, backup.On())
	case strings.HasPrefix(cfg.URL, "postgres://"), strings.HasPrefix(cfg.URL, "postgresql://"):
		open := postgres.Open
		if cfg.DirectURL != "" && cfg.DirectURL != cfg.URL {
			open = func(ctx context.Context, url string, opts ...postgres.Option) (*postgres.Store, func(), error) {
				return postgres.OpenPooled(ctx, url, cfg.DirectURL, opts...)
			}
		}
		var opts []postgres.Option
		if cfg.ReadURL != "" {
			if _, err := pgconn.ParseConfig(cfg.ReadURL); err != nil {
				// pgconn redacts the password in this text.
				return nil, nil, fmt.Errorf("DATABASE_READ_URL: %s", err)
			}
			opts = append(opts, postgres.WithStandby(postgres.Standby{URL: cfg.ReadURL, MaxLag: cfg.ReadMaxLag, Log: log}))
		}
		// A failure to reach or log in to PostgreSQL is returned as pgconn
		// reports it; the command line words it for the operator.
		s, cleanup, err := open(ctx, cfg.URL, opts...)
		if err != nil {
			return nil, nil, err
		}
		return s, cleanup, nil
	default:
		return nil, nil, fmt.Errorf("DATABASE_URL: want postgres://…, postgresql://… or sqlite://…")
	}
}

func openSQLite(ctx context.Context, path string, sync sqlite.Synchronous, backedUp bool) (ports.Store, func(), error) {
	var opts []sqlite.Option
	if sync != "" {
		opts = append(opts, sqlite.WithSynchronous(sync))
	}
	if backedUp {
		opts = append(opts, sqlite.WithoutAutoCheckpoint())
	}
	s, cleanup, err := sqlite.Open(ctx, path, opts...)
	if err != nil {
		return nil, nil, err
	}
	return s, cleanup, nil
}

// checkSQLiteWritable says why SQLite could not write its file at path
// (and its journal beside it): a folder in which no file can be created, or
// a file that cannot be opened for writing, such as a folder of that name.
// SQLite's own error would say only "unable to open database file".
func checkSQLiteWritable(path string) error {
	if err := checkWritableDir(filepath.Dir(path)); err != nil {
		return err
	}
	return checkWritableFile(path)
}

// checkSQLiteFolder refuses a sqlite:// path whose folder does not exist.
// Only the default file's folder is created: a folder missing from a path
// the operator wrote is more likely a typo, or a volume that is not mounted,
// than a wish for new folders.
func checkSQLiteFolder(path string) error {
	if path == "" {
		return errors.New("DATABASE_URL: sqlite:// names no file; write sqlite:///path/to/file.db")
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("DATABASE_URL: the folder %s of %s does not exist; create it or fix DATABASE_URL", dir, path)
	case err != nil:
		return fmt.Errorf("DATABASE_URL: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("DATABASE_URL: %s, the folder of %s, is not a folder; fix DATABASE_URL", dir, path)
	}
	return nil
}
