package litestream_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/litestream"
	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/domain"
)

// objects is the S3 file store's bucket as the replica's Objects, as the
// root adapts it.
type objects struct{ b *s3files.Bucket }

var _ litestream.Objects = objects{}

func newObjects(t *testing.T, cfg s3files.Config) objects {
	t.Helper()
	b, err := s3files.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return objects{b}
}

func (o objects) Put(ctx context.Context, key string, r io.ReadSeeker, size int64, metadata map[string]string) error {
	return o.b.PutObject(ctx, key, r, size, metadata)
}

func (o objects) Get(ctx context.Context, key string, offset, size int64) (io.ReadCloser, error) {
	rc, err := o.b.GetObject(ctx, key, offset, size)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	}
	return rc, err
}

func (o objects) List(ctx context.Context, prefix string, fn func(key string, size int64, modTime time.Time) error) error {
	return o.b.ListObjects(ctx, prefix, func(obj s3files.Object) error { return fn(obj.Key, obj.Size, obj.ModTime) })
}

func (o objects) Metadata(ctx context.Context, key string) (map[string]string, error) {
	return o.b.ObjectMetadata(ctx, key)
}

func (o objects) Delete(ctx context.Context, keys ...string) error {
	return o.b.DeleteObjects(ctx, keys...)
}
