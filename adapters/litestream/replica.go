package litestream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"sort"
	"sync"
	"time"

	ls "github.com/benbjohnson/litestream"
	"github.com/superfly/ltx"
)

// Objects is the object store the replica lives in: a bucket below the
// replica's prefix, with keys relative to it. The root hands it the S3
// file store's client, so the service has one S3 client.
type Objects interface {
	// Put stores size bytes of r at key with the user metadata given.
	Put(ctx context.Context, key string, r io.ReadSeeker, size int64, metadata map[string]string) error
	// Get streams size bytes of the object at key from offset on (the
	// rest when size is 0). A missing key is an error matching
	// fs.ErrNotExist.
	Get(ctx context.Context, key string, offset, size int64) (io.ReadCloser, error)
	// List calls fn with each object whose key starts with prefix, in
	// lexical order, until fn returns an error, which List returns.
	List(ctx context.Context, prefix string, fn func(key string, size int64, modTime time.Time) error) error
	// Metadata returns the user metadata of the object at key.
	Metadata(ctx context.Context, key string) (map[string]string, error)
	// Delete deletes the objects at keys; missing ones are no error.
	Delete(ctx context.Context, keys ...string) error
}

// metadataKeyTimestamp is the user metadata that holds when an LTX file
// was captured, as Litestream's S3 client writes it: the object's
// LastModified is when it was uploaded, later for compacted files.
const metadataKeyTimestamp = "litestream-timestamp"

// metadataConcurrency bounds the metadata reads of one listing.
const metadataConcurrency = 16

// memoryLimit is the most of an unsized LTX stream held in memory before
// it is spooled to a temporary file for its upload. Unsized streams are
// compactions, whose output under a steady stream of writes runs to
// megabytes every 30 seconds: held whole in memory they made the server's
// peak RSS with the backup on about 150 MiB, over the 143 MiB every
// make bench row is held to; spooled past 1 MiB they cost a file write.
const memoryLimit = 1 << 20

// replicaClient implements ls.ReplicaClient on Objects with the layout of
// Litestream's S3 client (github.com/benbjohnson/litestream/s3), so that
// the litestream command reads and writes the same replica: each LTX file
// at <prefix>/<level as %04x>/<min>-<max>.ltx, with its capture time in
// the litestream-timestamp metadata.
type replicaClient struct {
	objects Objects
	// root is what precedes the level's folder: "" below a prefix, "/"
	// at the bucket's root, where Litestream's client writes
	// "/0000/...".
	root string
	log  *slog.Logger
}

var _ ls.ReplicaClient = (*replicaClient)(nil)

func (c *replicaClient) Type() string { return "s3" }

func (c *replicaClient) Init(context.Context) error { return nil }

func (c *replicaClient) SetLogger(log *slog.Logger) { c.log = log }

func (c *replicaClient) levelDir(level int) string {
	return c.root + fmt.Sprintf("%04x/", level)
}

func (c *replicaClient) key(level int, minTXID, maxTXID ltx.TXID) string {
	return c.levelDir(level) + ltx.FormatFilename(minTXID, maxTXID)
}

// LTXFiles lists the level's files from seek on. With useMetadata, each
// file's CreatedAt is its capture time from the metadata, read with one
// request per file; otherwise it is the object's LastModified.
func (c *replicaClient) LTXFiles(ctx context.Context, level int, seek ltx.TXID, useMetadata bool) (ltx.FileIterator, error) {
	var infos []*ltx.FileInfo
	var keys []string
	err := c.objects.List(ctx, c.levelDir(level), func(key string, size int64, modTime time.Time) error {
		minTXID, maxTXID, err := ltx.ParseFilename(path.Base(key))
		if err != nil || minTXID < seek || key != c.key(level, minTXID, maxTXID) {
			return nil
		}
		infos = append(infos, &ltx.FileInfo{Level: level, MinTXID: minTXID, MaxTXID: maxTXID, Size: size, CreatedAt: modTime.UTC()})
		keys = append(keys, key)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("s3: list level %d: %w", level, err)
	}
	if useMetadata {
		if err := c.captureTimes(ctx, infos, keys); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(infos, func(i, j int) bool { return infos[i].MinTXID < infos[j].MinTXID })
	return ltx.NewFileInfoSliceIterator(infos), nil
}

// captureTimes sets each file's CreatedAt from its metadata, where it has
// some; a file without keeps its LastModified, as Litestream's client does.
func (c *replicaClient) captureTimes(ctx context.Context, infos []*ltx.FileInfo, keys []string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, metadataConcurrency)
	var wg sync.WaitGroup
	for i := range infos {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			md, err := c.objects.Metadata(ctx, keys[i])
			if err != nil {
				return
			}
			if ts, ok := md[metadataKeyTimestamp]; ok {
				if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
					infos[i].CreatedAt = t
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// OpenLTXFile reads the file from offset on: size bytes, or the rest when
// size is 0. A missing file is os.ErrNotExist itself, which the library
// tests with os.IsNotExist.
func (c *replicaClient) OpenLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, offset, size int64) (io.ReadCloser, error) {
	rc, err := c.objects.Get(ctx, c.key(level, minTXID, maxTXID), offset, size)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, os.ErrNotExist
	} else if err != nil {
		return nil, fmt.Errorf("s3: open ltx file: %w", err)
	}
	return rc, nil
}

// WriteLTXFile uploads the file with one PutObject and records the capture
// time of its header in its metadata. A stream of unknown size is held in
// memory up to memoryLimit, then spooled to a temporary file.
func (c *replicaClient) WriteLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, r io.Reader) (*ltx.FileInfo, error) {
	key := c.key(level, minTXID, maxTXID)
	body, size, cleanup, err := sized(r)
	if err != nil {
		return nil, fmt.Errorf("s3: write %s: %w", key, err)
	}
	defer cleanup()
	start, err := body.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, fmt.Errorf("s3: write %s: %w", key, err)
	}
	hdr, _, err := ltx.PeekHeader(body)
	if err != nil {
		return nil, fmt.Errorf("s3: write %s: read the ltx header: %w", key, err)
	}
	if _, err := body.Seek(start, io.SeekStart); err != nil {
		return nil, fmt.Errorf("s3: write %s: %w", key, err)
	}
	created := time.UnixMilli(hdr.Timestamp).UTC()
	md := map[string]string{metadataKeyTimestamp: created.Format(time.RFC3339Nano)}
	if err := c.objects.Put(ctx, key, body, size, md); err != nil {
		return nil, fmt.Errorf("s3: write ltx file: %w", err)
	}
	return &ltx.FileInfo{Level: level, MinTXID: minTXID, MaxTXID: maxTXID, Size: size, CreatedAt: created}, nil
}

// sized returns r as a seekable body at its current position, and the
// number of bytes from there to its end.
func sized(r io.Reader) (io.ReadSeeker, int64, func(), error) {
	nothing := func() {}
	if rs, ok := r.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			end, err := rs.Seek(0, io.SeekEnd)
			if err != nil {
				return nil, 0, nothing, err
			}
			if _, err := rs.Seek(start, io.SeekStart); err != nil {
				return nil, 0, nothing, err
			}
			return rs, end - start, nothing, nil
		}
	}
	var buf bytes.Buffer
	n, err := io.CopyN(&buf, r, memoryLimit+1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, 0, nothing, err
	}
	if n <= memoryLimit {
		return bytes.NewReader(buf.Bytes()), n, nothing, nil
	}
	f, err := os.CreateTemp("", "inkwell-ltx-*")
	if err != nil {
		return nil, 0, nothing, err
	}
	cleanup := func() { f.Close(); os.Remove(f.Name()) }
	size, err := io.Copy(f, io.MultiReader(&buf, r))
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		cleanup()
		return nil, 0, nothing, err
	}
	return f, size, cleanup, nil
}

// DeleteLTXFiles deletes the files, in batches.
func (c *replicaClient) DeleteLTXFiles(ctx context.Context, a []*ltx.FileInfo) error {
	if len(a) == 0 {
		return nil
	}
	keys := make([]string, len(a))
	for i, info := range a {
		keys[i] = c.key(info.Level, info.MinTXID, info.MaxTXID)
	}
	if err := c.objects.Delete(ctx, keys...); err != nil {
		return fmt.Errorf("s3: delete %d ltx files: %w", len(keys), err)
	}
	return nil
}

// DeleteAll deletes every object of the replica.
func (c *replicaClient) DeleteAll(ctx context.Context) error {
	var keys []string
	err := c.objects.List(ctx, c.root, func(key string, _ int64, _ time.Time) error {
		keys = append(keys, key)
		return nil
	})
	if err != nil {
		return fmt.Errorf("s3: list the replica: %w", err)
	}
	if err := c.objects.Delete(ctx, keys...); err != nil {
		return fmt.Errorf("s3: delete the replica: %w", err)
	}
	return nil
}
