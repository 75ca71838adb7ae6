package litestream_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/inkwell/inkwell/adapters/litestream"
	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/adapters/s3files/s3test"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

const interval = 200 * time.Millisecond

func newBackup(t *testing.T, cfg s3files.Config, dbPath string) *litestream.Backup {
	t.Helper()
	cfg.Prefix, cfg.UsePathStyle = "backup/db", true
	b, err := litestream.New(litestream.Config{Bucket: cfg.Bucket, Prefix: cfg.Prefix, SyncInterval: interval},
		newObjects(t, cfg), dbPath, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func insert(t *testing.T, db *sql.DB, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if _, err := db.Exec(`INSERT INTO notes (id, body) VALUES (?, ?)`, i, fmt.Sprintf("note %d", i)); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(t *testing.T, path string) []int {
	t.Helper()
	rows, err := openDB(t, path).Query(`SELECT id FROM notes ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		got = append(got, id)
	}
	return got
}

func seq(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// waitSynced waits until the replica holds everything committed before
// the call.
func waitSynced(t *testing.T, b *litestream.Backup) {
	t.Helper()
	since := time.Now()
	for deadline := since.Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(interval / 4) {
		st, err := b.BackupStatus(t.Context())
		if err == nil && !st.LastSync.IsZero() && time.Since(since) > st.Lag {
			return
		}
	}
	t.Fatal("the replica did not catch up in 20s")
}

// TestReplicateAndRestore replicates a database as it changes, then
// restores its latest state and its state at a moment between two batches
// of writes, into new files.
func TestReplicateAndRestore(t *testing.T) {
	srv := s3test.Start(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	db := openDB(t, path)
	if _, err := db.Exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	bucket := srv.Bucket(t)
	b := newBackup(t, bucket, path)
	ctx := t.Context()

	restore := newBackup(t, bucket, filepath.Join(dir, "unused.db"))
	if empty, err := restore.Empty(ctx); err != nil || !empty {
		t.Fatalf("a new bucket: Empty = %v, %v; want true", empty, err)
	}
	if err := restore.Restore(ctx, filepath.Join(dir, "none.db"), time.Time{}); !errors.Is(err, ports.ErrNothingToRestore) {
		t.Fatalf("restore of an empty replica: %v, want ErrNothingToRestore", err)
	}

	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	insert(t, db, 0, 50)
	waitSynced(t, b)
	time.Sleep(2 * interval)
	between := time.Now()
	time.Sleep(2 * interval)
	insert(t, db, 50, 100)
	waitSynced(t, b)

	st, err := b.BackupStatus(ctx)
	if err != nil || st.Position == "" || st.Err != "" || st.Lag > 5*time.Second {
		t.Errorf("status while replicating: %+v, %v", st, err)
	}

	latest := filepath.Join(dir, "latest.db")
	if err := restore.Restore(ctx, latest, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, latest); !slices.Equal(got, seq(0, 100)) {
		t.Errorf("latest: %d rows, want 100", len(got))
	}
	earlier := filepath.Join(dir, "earlier.db")
	if err := restore.Restore(ctx, earlier, between); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, earlier); !slices.Equal(got, seq(0, 50)) {
		t.Errorf("at a moment between the batches: rows %v, want the first 50", got)
	}
	if err := restore.Restore(ctx, latest, time.Time{}); !errors.Is(err, ports.ErrRestoreTargetExists) {
		t.Errorf("restore over a file: %v, want ErrRestoreTargetExists", err)
	}
	if err := restore.Restore(ctx, filepath.Join(dir, "old.db"), between.Add(-time.Hour)); !errors.Is(err, ports.ErrNothingToRestore) {
		t.Errorf("restore to before the first transaction: %v, want ErrNothingToRestore", err)
	}

	// Read from outside, the replica holds what this host captured.
	remote, err := restore.BackupStatus(ctx)
	if err != nil || remote.Position != st.Position {
		t.Errorf("status from outside: %+v, %v; want position %s", remote, err, st.Position)
	}

	// Close sends what was committed since the last sync.
	insert(t, db, 100, 120)
	if err := b.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	closed := filepath.Join(dir, "closed.db")
	if err := restore.Restore(ctx, closed, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, closed); !slices.Equal(got, seq(0, 120)) {
		t.Errorf("after Close: %d rows, want 120", len(got))
	}
}

// TestLagGrowsWhileTheReplicaIsDown stops the S3 server under a
// replicating backup: the lag grows past the interval, and a status read
// from outside is Unavailable.
func TestLagGrowsWhileTheReplicaIsDown(t *testing.T) {
	srv := s3test.Start(t)
	path := filepath.Join(t.TempDir(), "live.db")
	db := openDB(t, path)
	if _, err := db.Exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	b := newBackup(t, srv.Bucket(t), path)
	if err := b.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	insert(t, db, 0, 10)
	waitSynced(t, b)
	srv.Stop()
	insert(t, db, 10, 20)
	time.Sleep(10 * interval)
	st, err := b.BackupStatus(t.Context())
	if err != nil || st.Lag < 5*interval {
		t.Errorf("status with the replica down: %+v, %v; want a lag over %s", st, err, 5*interval)
	}
	gone := s3files.Config{Bucket: "gone", Region: "us-east-1", Endpoint: srv.Endpoint,
		AccessKeyID: "a", SecretAccessKey: "b", UsePathStyle: true}
	down, err := litestream.New(litestream.Config{Bucket: gone.Bucket, SyncInterval: interval},
		newObjects(t, gone), path, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := down.BackupStatus(t.Context()); domain.KindOf(err) != domain.Unavailable {
		t.Errorf("status of an unreachable replica: %v, want Unavailable", err)
	}
}
