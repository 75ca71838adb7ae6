package s3files_test

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/adapters/s3files/s3test"
	"github.com/inkwell/inkwell/domain"
)

// TestObjects checks the raw object calls the database's replica uses:
// metadata on put, ranged gets, listing by prefix, batch deletes.
func TestObjects(t *testing.T) {
	srv := s3test.Start(t)
	cfg := srv.Bucket(t)
	cfg.Prefix = "backup/db"
	b := newBucket(t, cfg)
	ctx := t.Context()
	before := time.Now().Add(-time.Minute)
	for _, k := range []string{"0000/a.ltx", "0000/b.ltx", "0001/c.ltx"} {
		if err := b.PutObject(ctx, k, strings.NewReader("0123456789"), 10, map[string]string{"litestream-timestamp": "t-" + k}); err != nil {
			t.Fatal(err)
		}
	}
	md, err := b.ObjectMetadata(ctx, "0000/b.ltx")
	if err != nil || md["litestream-timestamp"] != "t-0000/b.ltx" {
		t.Errorf("ObjectMetadata: %v, %v", md, err)
	}
	for _, tc := range []struct {
		offset, size int64
		want         string
	}{{0, 0, "0123456789"}, {3, 0, "3456789"}, {2, 4, "2345"}} {
		rc, err := b.GetObject(ctx, "0000/a.ltx", tc.offset, tc.size)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(got) != tc.want {
			t.Errorf("GetObject(%d, %d) = %q, %v; want %q", tc.offset, tc.size, got, err, tc.want)
		}
	}
	if _, err := b.GetObject(ctx, "0000/missing.ltx", 0, 0); domain.KindOf(err) != domain.NotFound {
		t.Errorf("GetObject of a missing key: %v, want NotFound", err)
	}
	var keys []string
	err = b.ListObjects(ctx, "0000/", func(o s3files.Object) error {
		keys = append(keys, o.Key)
		if o.Size != 10 || o.ModTime.Before(before) {
			t.Errorf("listed %+v", o)
		}
		return nil
	})
	if err != nil || !slices.Equal(keys, []string{"0000/a.ltx", "0000/b.ltx"}) {
		t.Errorf("ListObjects: %v, %v", keys, err)
	}
	if err := b.DeleteObjects(ctx, "0000/a.ltx", "0001/c.ltx", "0000/missing.ltx"); err != nil {
		t.Fatal(err)
	}
	keys = nil
	if err := b.ListObjects(ctx, "", func(o s3files.Object) error { keys = append(keys, o.Key); return nil }); err != nil || !slices.Equal(keys, []string{"0000/b.ltx"}) {
		t.Errorf("after DeleteObjects: %v, %v", keys, err)
	}
}
