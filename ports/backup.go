package ports

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// Backup copies an embedded store's database, as it changes, to a replica
// off the machine (an S3 bucket), and brings back the database as it was at
// any moment the replica still covers. A PostgreSQL store has its own tools
// and no Backup.
type Backup interface {
	BackupReporter
	// Restore writes the database as the replica holds it into a new file
	// at path: its latest state when at is zero, else its state at that
	// moment. ErrRestoreTargetExists when something is at path already, so
	// that a restore never overwrites a live database; ErrNothingToRestore
	// when the replica holds nothing, or nothing as old as at.
	Restore(ctx context.Context, path string, at time.Time) error
	// Close stops replicating after sending every transaction committed
	// so far, when the backup replicates; a Backup opened only to restore
	// or report has nothing to send.
	Close(ctx context.Context) error
}

// BackupReporter tells how far the replica is behind, for a readiness probe
// and the metrics; it must be cheap while the backup replicates in this
// process, as it runs on every probe and scrape.
type BackupReporter interface {
	// BackupStatus reports the replica's position, the last time it was
	// known to hold every committed transaction and its lag. An error of
	// kind domain.Unavailable when the replica cannot be read.
	BackupStatus(ctx context.Context) (BackupStatus, error)
}

// BackupStatus is where a replica stands.
type BackupStatus struct {
	// Replica names it for the operator, without secrets: s3://bucket/prefix.
	Replica string
	// Position is the newest transaction the replica holds, in the
	// backup's own notation; empty when it holds none.
	Position string
	// LastSync is when the replica last held everything committed, or
	// for a replica read from outside the replicating process, when its
	// newest transaction was captured; zero when never.
	LastSync time.Time
	// Lag is how old the oldest change missing from the replica may be:
	// zero when the replica is known to hold everything.
	Lag time.Duration
	// Err says why the last attempt to replicate failed, empty when it
	// succeeded.
	Err string
}

// ErrRestoreTargetExists is the error of a restore into a path that is
// taken.
var ErrRestoreTargetExists = &domain.Error{Kind: domain.Conflict, Code: "restore_target_exists"}

// ErrNothingToRestore is the error of a restore from a replica that holds
// nothing, or nothing from the moment asked for.
var ErrNothingToRestore = &domain.Error{Kind: domain.NotFound, Code: "nothing_to_restore"}
