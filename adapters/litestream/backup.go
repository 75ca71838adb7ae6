// Package litestream backs up the embedded SQLite database with the
// Litestream library: it ships the database's WAL to an S3 bucket, as LTX
// files, within a sync interval of each commit, and restores the database
// as it was at any moment the bucket still covers. It is the one package
// that knows the library, whose API is not declared stable (go.mod pins
// its version); another version, or Litestream run beside the service,
// replaces this package alone. The replica client is its own (see
// replicaClient), over the Objects the root gives it, rather than the
// library's S3 client, whose AWS configuration chain would be a second S3
// client in the binary.
package litestream

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	ls "github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Config is where the replica lives and how often it is fed.
type Config struct {
	// Bucket and Prefix name the replica, s3://Bucket/Prefix, whose
	// objects New is given: its LTX files go under Prefix/<level>/.
	Bucket string
	Prefix string
	// SyncInterval bounds how long a commit waits before the replica
	// holds it.
	SyncInterval time.Duration
}

// ShutdownSyncTimeout bounds the last sync of Close: a replica that cannot
// be reached does not hold the stop for longer.
const ShutdownSyncTimeout = 10 * time.Second

// cycleTimeout bounds one sync, so that a replica that stops answering
// mid-request is retried rather than waited on for ever. It is long enough
// for the first sync of a large database, which uploads all of it.
const cycleTimeout = 15 * time.Minute

// errorLogInterval spaces the log lines of a replica that keeps failing.
const errorLogInterval = 30 * time.Second

// compactionLevels are Litestream's command's defaults: every transaction
// is an L0 file (kept five minutes after compaction, so restores to a
// moment of the last minutes are exact to the transaction), merged every
// 30 seconds, 5 minutes and hour, with a daily snapshot.
var compactionLevels = ls.CompactionLevels{
	{Level: 0},
	{Level: 1, Interval: 30 * time.Second},
	{Level: 2, Interval: 5 * time.Minute},
	{Level: 3, Interval: time.Hour},
}

// Backup is the replica of one SQLite file. Built by New it restores and
// reports; Start makes it replicate until Close.
type Backup struct {
	cfg    Config
	path   string
	client *replicaClient
	log    *slog.Logger

	// Set by Start.
	db     *ls.DB
	store  *ls.Store
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	started  time.Time // when replication started
	complete time.Time // the start of the last sync that succeeded: everything committed before it is on the replica
	synced   time.Time // when that sync ended
	lastErr  string
}

var _ ports.Backup = (*Backup)(nil)

// New returns the replica of the SQLite file at path in objects, the
// bucket below the prefix cfg names. It checks the settings without
// reaching the bucket.
func New(cfg Config, objects Objects, path string, log *slog.Logger) (*Backup, error) {
	switch {
	case cfg.Bucket == "":
		return nil, errors.New("litestream: no bucket")
	case objects == nil:
		return nil, errors.New("litestream: no object store")
	case cfg.SyncInterval <= 0:
		return nil, errors.New("litestream: the sync interval must be positive")
	}
	c := &replicaClient{objects: objects, log: log.With("backup", "s3")}
	if strings.Trim(cfg.Prefix, "/") == "" {
		c.root = "/"
	}
	return &Backup{cfg: cfg, path: path, client: c, log: log}, nil
}

// Name is the replica for the operator: s3://bucket/prefix.
func (b *Backup) Name() string {
	return "s3://" + b.cfg.Bucket + "/" + strings.Trim(b.cfg.Prefix, "/")
}

// Start replicates the database from now until Close: a first sync sends
// what the replica lacks (the whole database on a new replica), then one
// sync every interval. The database file may not exist yet; replication
// begins once it does. Litestream holds a read transaction on the database
// between syncs, so that no checkpoint moves WAL frames it has not copied.
func (b *Backup) Start(ctx context.Context) error {
	if b.db != nil {
		return errors.New("litestream: already started")
	}
	db := ls.NewDB(b.path)
	// The sync loop below drives both stages, so that a commit reaches the
	// replica within one interval, not the library monitors' two.
	db.MonitorInterval = 0
	replica := ls.NewReplicaWithClient(db, b.client)
	replica.MonitorEnabled = false
	db.Replica = replica
	store := ls.NewStore([]*ls.DB{db}, compactionLevels)
	store.Logger = b.log.With("backup", "litestream")
	store.ShutdownSyncTimeout = ShutdownSyncTimeout
	// NewStore hands its logger and shutdown settings to the databases
	// it was built with, before they were set here.
	db.SetLogger(store.Logger)
	db.ShutdownSyncTimeout = ShutdownSyncTimeout
	if err := store.Open(ctx); err != nil {
		return fmt.Errorf("litestream: open: %w", err)
	}
	b.db, b.store = db, store
	b.mu.Lock()
	b.started = time.Now()
	b.mu.Unlock()
	loop, cancel := context.WithCancel(context.WithoutCancel(ctx))
	b.cancel, b.done = cancel, make(chan struct{})
	go b.run(loop)
	return nil
}

// run syncs until ctx ends. Each sync starts early by the time the last
// one took, so that while syncs take about as long as the last, a commit
// is on the replica within one interval of returning.
func (b *Backup) run(ctx context.Context) {
	defer close(b.done)
	var lastLogged time.Time
	next := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
		start := time.Now()
		cycle, cancel := context.WithTimeout(ctx, cycleTimeout)
		err := b.db.SyncAndWait(cycle)
		cancel()
		if ctx.Err() != nil {
			return
		}
		end := time.Now()
		b.mu.Lock()
		if err != nil {
			b.lastErr = err.Error()
		} else {
			b.complete, b.synced, b.lastErr = start, end, ""
		}
		b.mu.Unlock()
		if err != nil {
			if time.Since(lastLogged) >= errorLogInterval {
				b.log.Error("backup: sync failed; retrying every interval", "replica", b.Name(), "err", err)
				lastLogged = time.Now()
			}
			next = end.Add(b.cfg.SyncInterval)
			continue
		}
		if !lastLogged.IsZero() {
			b.log.Info("backup: sync recovered", "replica", b.Name())
			lastLogged = time.Time{}
		}
		next = start.Add(b.cfg.SyncInterval - end.Sub(start))
	}
}

// Close implements ports.Backup: it stops the sync loop, then sends what
// was committed since the last sync, trying for up to ShutdownSyncTimeout.
func (b *Backup) Close(ctx context.Context) error {
	if b.db == nil {
		return nil
	}
	b.cancel()
	<-b.done
	err := b.store.Close(ctx)
	b.db = nil
	if err != nil {
		return fmt.Errorf("litestream: last sync: %w", err)
	}
	return nil
}

// BackupStatus implements ports.BackupReporter. While this process
// replicates it answers from memory: the position the replica reached,
// the start of the last sync that succeeded (everything committed before
// it is on the replica) and the time since then. Otherwise it reads the
// replica's newest transaction and compares it with what this host has
// captured of its database (see remoteStatus).
func (b *Backup) BackupStatus(ctx context.Context) (ports.BackupStatus, error) {
	if b.db == nil {
		return b.remoteStatus(ctx)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	st := ports.BackupStatus{Replica: b.Name(), LastSync: b.synced, Err: b.lastErr}
	if pos := b.db.Replica.Pos(); !pos.IsZero() {
		st.Position = pos.TXID.String()
	}
	since := b.complete
	if since.IsZero() {
		since = b.started
	}
	st.Lag = time.Since(since)
	return st, nil
}

// remoteStatus reads the replica from outside the replicating process: its
// newest transaction (the highest of every level) and when that was
// captured. The lag compares it with the transactions this host captured
// from its database's WAL (Litestream's files beside the database): zero
// when the replica holds them all, else the age of the oldest it lacks.
// Commits still in the WAL, at most an interval old while serve runs, are
// not seen from here.
func (b *Backup) remoteStatus(ctx context.Context) (ports.BackupStatus, error) {
	st := ports.BackupStatus{Replica: b.Name()}
	if err := b.client.Init(ctx); err != nil {
		return st, unavailable("read the replica", err)
	}
	var newest ltx.FileInfo
	for level := 0; level <= ls.SnapshotLevel; level++ {
		itr, err := b.client.LTXFiles(ctx, level, 0, true)
		if err != nil {
			return st, unavailable("read the replica", err)
		}
		for itr.Next() {
			if info := itr.Item(); info.MaxTXID > newest.MaxTXID {
				newest = *info
			}
		}
		if err := itr.Close(); err != nil {
			return st, unavailable("read the replica", err)
		}
	}
	if newest.MaxTXID > 0 {
		st.Position = newest.MaxTXID.String()
		st.LastSync = newest.CreatedAt
	}
	local := ls.NewDB(b.path)
	_, localMax, err := local.MaxLTX()
	if err != nil || localMax <= newest.MaxTXID {
		return st, nil
	}
	// The oldest transaction the replica lacks is the next after its
	// newest; its L0 file here says when it was captured.
	captured, err := capturedAt(local.LTXPath(0, newest.MaxTXID+1, newest.MaxTXID+1))
	if err != nil {
		captured = st.LastSync
	}
	st.Lag = time.Since(captured)
	return st, nil
}

// capturedAt reads when the LTX file at path was written, from its header.
func capturedAt(path string) (time.Time, error) {
	f, err := os.Open(path)
	if err != nil {
		return time.Time{}, err
	}
	defer f.Close()
	dec := ltx.NewDecoder(f)
	if err := dec.DecodeHeader(); err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(dec.Header().Timestamp).UTC(), nil
}

// Restore implements ports.Backup. A point in time restores every
// transaction the replica captured before it; the replica keeps each
// transaction apart for five minutes after it is compacted (30 seconds
// after capture), then in 30-second, 5-minute and hourly steps, for a day
// after the daily snapshot.
func (b *Backup) Restore(ctx context.Context, path string, at time.Time) error {
	for _, p := range []string{path, path + "-wal"} {
		if _, err := os.Lstat(p); err == nil {
			return fmt.Errorf("litestream: restore into %s: %w", p, ports.ErrRestoreTargetExists)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("litestream: restore into %s: %w", p, err)
		}
	}
	if err := b.client.Init(ctx); err != nil {
		return unavailable("restore", err)
	}
	opt := ls.NewRestoreOptions()
	opt.OutputPath = path
	opt.Timestamp = at
	opt.IntegrityCheck = ls.IntegrityCheckQuick
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("litestream: restore: %w", err)
	}
	r := ls.NewReplicaWithClient(nil, b.client)
	if err := r.Restore(ctx, opt); err != nil {
		if errors.Is(err, ls.ErrTxNotAvailable) || errors.Is(err, ls.ErrNoSnapshots) {
			return fmt.Errorf("litestream: restore from %s: %w", b.Name(), ports.ErrNothingToRestore)
		}
		return fmt.Errorf("litestream: restore from %s: %w", b.Name(), err)
	}
	return nil
}

// Empty reports whether the replica holds no transaction yet: a new
// installation's empty bucket.
func (b *Backup) Empty(ctx context.Context) (bool, error) {
	if err := b.client.Init(ctx); err != nil {
		return false, unavailable("read the replica", err)
	}
	for level := 0; level <= ls.SnapshotLevel; level++ {
		itr, err := b.client.LTXFiles(ctx, level, 0, false)
		if err != nil {
			return false, unavailable("read the replica", err)
		}
		found := itr.Next()
		if err := itr.Close(); err != nil {
			return false, unavailable("read the replica", err)
		}
		if found {
			return false, nil
		}
	}
	return true, nil
}

// unavailable marks a failure to reach the replica as domain.Unavailable.
func unavailable(op string, err error) error {
	return fmt.Errorf("litestream: %s: %w: %w", op, domain.ErrUnavailable, err)
}
