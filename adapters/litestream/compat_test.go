package litestream_test

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	ls "github.com/benbjohnson/litestream"
	lss3 "github.com/benbjohnson/litestream/s3"
	"github.com/superfly/ltx"

	"github.com/inkwell/inkwell/adapters/litestream"
	"github.com/inkwell/inkwell/adapters/s3files/s3test"
)

// TestLitestreamReadsTheReplica checks that the replica keeps the layout
// and metadata of Litestream's own S3 client, so that the litestream
// command reads it: the two clients list the same files with the same
// capture times, and Litestream's client restores a moment of it.
func TestLitestreamReadsTheReplica(t *testing.T) {
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
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	insert(t, db, 0, 30)
	waitSynced(t, b)
	time.Sleep(2 * interval)
	between := time.Now()
	time.Sleep(2 * interval)
	insert(t, db, 30, 60)
	waitSynced(t, b)
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}

	// Litestream's client loads the AWS configuration chain, which fails
	// on a CA bundle.
	t.Setenv("AWS_CA_BUNDLE", "")
	theirs := lss3.NewReplicaClient()
	theirs.Bucket, theirs.Path, theirs.Region = bucket.Bucket, "backup/db", bucket.Region
	theirs.Endpoint, theirs.ForcePathStyle = bucket.Endpoint, true
	theirs.AccessKeyID, theirs.SecretAccessKey = bucket.AccessKeyID, bucket.SecretAccessKey
	ours := litestream.ReplicaClientOf(b)

	files := 0
	for level := 0; level <= ls.SnapshotLevel; level++ {
		for _, useMetadata := range []bool{false, true} {
			want := list(t, theirs, level, useMetadata)
			got := list(t, ours, level, useMetadata)
			if !slices.EqualFunc(got, want, func(a, b *ltx.FileInfo) bool { return *a == *b }) {
				t.Errorf("level %d (metadata %v): ours list %v, Litestream's %v", level, useMetadata, got, want)
			}
			files += len(want)
		}
	}
	if files == 0 {
		t.Fatal("Litestream's client lists no file")
	}

	opt := ls.NewRestoreOptions()
	opt.OutputPath = filepath.Join(dir, "theirs.db")
	opt.Timestamp = between
	if err := ls.NewReplicaWithClient(nil, theirs).Restore(ctx, opt); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, opt.OutputPath); !slices.Equal(got, seq(0, 30)) {
		t.Errorf("Litestream's restore of a moment between the batches: rows %v, want the first 30", got)
	}
}

func list(t *testing.T, c ls.ReplicaClient, level int, useMetadata bool) []*ltx.FileInfo {
	t.Helper()
	itr, err := c.LTXFiles(t.Context(), level, 0, useMetadata)
	if err != nil {
		t.Fatal(err)
	}
	defer itr.Close()
	var infos []*ltx.FileInfo
	for itr.Next() {
		info := *itr.Item()
		infos = append(infos, &info)
	}
	if err := itr.Close(); err != nil {
		t.Fatal(err)
	}
	return infos
}
