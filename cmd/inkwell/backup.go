package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/inkwell/inkwell"
	"github.com/inkwell/inkwell/ports"
)

var backupCommand = &command{
	name: "backup",
	synopsis: `inkwell backup status
inkwell backup restore --to FILE [--at TIME] [--files-to DIR]`,
	summary: "report on or restore the continuous backup of the SQLite store",
	about: `With BACKUP_URL=s3://bucket/prefix (and the AWS_* keys of the S3 file store),
serve copies every change of the SQLite store to the bucket within
BACKUP_SYNC_INTERVAL, and every file saved on the local disk under
prefix/files/. These commands read that replica; they may run while serve
does.`,
	subs: []*command{backupStatusCommand, backupRestoreCommand},
}

var backupStatusCommand = &command{
	name:     "backup status",
	synopsis: "inkwell backup status",
	summary:  "print the replica's position, last sync and lag",
	about: `Prints the replica (BACKUP_URL), the newest transaction it holds, when that was
captured (the last sync), and the lag: how long the oldest transaction this
host captured from its database, and the replica lacks, has waited; 0s when
the replica holds every one. Changes serve has not captured yet, at most
BACKUP_SYNC_INTERVAL old, are not seen from here; serve's /metrics has its
own lag, inkwell_backup_lag_seconds.`,
	store:  storeNone,
	define: noFlags(backupStatus),
}

var backupRestoreCommand = &command{
	name:     "backup restore",
	synopsis: "inkwell backup restore --to FILE [--at TIME] [--files-to DIR]",
	summary:  "restore the replica into a new database file, and the files",
	about: `Writes the database the replica holds into FILE, which must not exist: its
latest state, or with --at its state at that moment (RFC 3339, such as
2026-11-28T09:30:00Z). With files on the local disk, it also copies every
stored file of the replica into DIR (STORAGE_DIR by default), leaving those
already there. Start serve on the result with DATABASE_URL=sqlite://FILE.`,
	store: storeNone,
	define: func(fs *flag.FlagSet) func() (action, error) {
		to := fs.String("to", "", "the new database `file`")
		at := fs.String("at", "", "the `time` to restore, RFC 3339; the latest when empty")
		filesTo := fs.String("files-to", "", "the `folder` to restore the files into (default STORAGE_DIR)")
		return func() (action, error) {
			if *to == "" {
				return nil, errors.New("--to is required")
			}
			var when time.Time
			if *at != "" {
				t, err := time.Parse(time.RFC3339, *at)
				if err != nil {
					return nil, fmt.Errorf("--at: %q is not an RFC 3339 time such as 2026-11-28T09:30:00Z", *at)
				}
				when = t
			}
			return backupRestore(*to, when, *filesTo), nil
		}
	},
}

// backupStatus is the action of backup status.
func backupStatus(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error {
	st, err := inkwell.BackupStatus(ctx, cfg.service(), log)
	if err != nil {
		return backupError(err)
	}
	position, lastSync := "none: the replica is empty", "never"
	if st.Position != "" {
		position = "transaction " + st.Position
		lastSync = fmt.Sprintf("%s (%s ago)", st.LastSync.UTC().Format(time.RFC3339Nano), time.Since(st.LastSync).Round(time.Second))
	}
	fmt.Fprintf(out, "replica    %s\nposition   %s\nlast sync  %s\nlag        %s\n", st.Replica, position, lastSync, st.Lag.Round(time.Millisecond))
	return nil
}

// backupRestore is the action of backup restore.
func backupRestore(to string, at time.Time, filesTo string) action {
	return func(ctx context.Context, cfg environment, log *slog.Logger, out io.Writer) error {
		svc := cfg.service()
		req := inkwell.RestoreRequest{To: to, At: at, FilesTo: filesTo}
		if req.FilesTo == "" && svc.Files.Disk == "local" {
			req.FilesTo = cfg.StorageDir
		}
		start := time.Now()
		rep, err := inkwell.Restore(ctx, svc, req, log)
		if err != nil {
			return backupError(err)
		}
		when := "its latest state"
		if !at.IsZero() {
			when = "its state at " + at.UTC().Format(time.RFC3339Nano)
		}
		fmt.Fprintf(out, "restored %s into %s in %s\n", when, to, time.Since(start).Round(time.Millisecond))
		if req.FilesTo != "" {
			fmt.Fprintf(out, "files: %d restored into %s, %d already there\n", rep.Files, req.FilesTo, rep.Present)
		}
		return nil
	}
}

// backupError words the backup's refusals for the operator.
func backupError(err error) error {
	switch {
	case errors.Is(err, ports.ErrRestoreTargetExists):
		return errors.New("--to: the file exists; a restore writes a new file, never over a database")
	case errors.Is(err, ports.ErrNothingToRestore):
		return errors.New("the replica holds nothing to restore from that moment (an empty replica, or a time before its oldest transaction)")
	}
	return err
}

// restoreIfMissing is serve's restore of a missing database from the
// replica, with BACKUP_RESTORE_IF_MISSING=true.
func restoreIfMissing(ctx context.Context, cfg environment, log *slog.Logger) error {
	_, err := inkwell.RestoreIfMissing(ctx, cfg.service(), log)
	return err
}
