// Package s3files keeps uploaded files in a bucket of Amazon S3 or of any
// S3-compatible server, so that every replica of the service reads the same
// files.
package s3files

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	pathpkg "path"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Config mirrors the keys of Laravel's s3 disk (AWS_ACCESS_KEY_ID and the
// others), so that a deployment moving over keeps its settings.
type Config struct {
	AccessKeyID     string
	SecretAccessKey string
	// Region is the bucket's region; S3-compatible servers often accept any.
	Region string
	Bucket string
	// Endpoint is the server's base URL ("http://127.0.0.1:7070"); empty
	// means Amazon S3 itself.
	Endpoint string
	// UsePathStyle addresses the bucket as Endpoint/Bucket/key instead of
	// Bucket.Endpoint/key, as most S3-compatible servers need.
	UsePathStyle bool
	// URL is the public base URL of the bucket's files (a CDN, say); empty
	// when the files are served by the service itself.
	URL string
	// Prefix is the folder of the bucket the files are kept under
	// ("backup/files"); empty for the bucket's root. A path the store
	// hands out stays relative to it.
	Prefix string
}

// Bucket implements ports.FileStore on an S3 bucket.
type Bucket struct {
	client *s3.Client
	bucket string
	url    string
	prefix string // "" or ending in "/"
}

// New returns a file store on the bucket cfg names. It checks the settings
// but does not reach the server, so the service starts while storage is down
// and answers 503 for files until it is back.
func New(cfg Config) (*Bucket, error) {
	switch {
	case cfg.Bucket == "":
		return nil, errors.New("s3files: no bucket")
	case cfg.Region == "":
		return nil, errors.New("s3files: no region")
	case cfg.AccessKeyID == "" || cfg.SecretAccessKey == "":
		return nil, errors.New("s3files: an access key id and a secret access key are required")
	}
	opts := s3.Options{
		Region:       cfg.Region,
		Credentials:  credentials.NewStaticCredentialsProvider(cfg.AccessKeyID, cfg.SecretAccessKey, ""),
		UsePathStyle: cfg.UsePathStyle,
	}
	if cfg.Endpoint != "" {
		opts.BaseEndpoint = aws.String(cfg.Endpoint)
	}
	prefix := strings.Trim(cfg.Prefix, "/")
	if prefix != "" {
		prefix += "/"
	}
	return &Bucket{client: s3.New(opts), bucket: cfg.Bucket, url: strings.TrimRight(cfg.URL, "/"), prefix: prefix}, nil
}

// PublicURL is where clients fetch the file at path straight from the
// bucket's public base URL, and false when none is configured.
func (b *Bucket) PublicURL(path string) (string, bool) {
	if b.url == "" {
		return "", false
	}
	return b.url + "/" + b.prefix + path, true
}

// Save implements ports.FileStore. The name is 32 random hex characters, as
// on the local disk, and the object carries the extension's content type so
// that a public URL serves it right.
func (b *Bucket) Save(ctx context.Context, dir string, data []byte, ext string) (string, error) {
	if !ports.ValidFileName(dir, ext) {
		return "", fmt.Errorf("s3files: save in %q with extension %q: %w", dir, ext, ports.ErrBadFilePath)
	}
	var r [16]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("s3files: save: %w", err)
	}
	path := dir + "/" + hex.EncodeToString(r[:]) + ext
	if err := b.Put(ctx, path, bytes.NewReader(data), int64(len(data))); err != nil {
		return "", fmt.Errorf("s3files: save: %w", err)
	}
	return path, nil
}

// Put stores size bytes of body at path, a path of the shape Save returns,
// with the content type of its extension: the copy of a file another store
// saved (see ports.ValidFilePath). ErrBadFilePath for any other path.
func (b *Bucket) Put(ctx context.Context, path string, body io.Reader, size int64) error {
	if !ports.ValidFilePath(path) {
		return fmt.Errorf("s3files: put %q: %w", path, ports.ErrBadFilePath)
	}
	key := b.prefix + path
	_, err := b.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        &b.bucket,
		Key:           &key,
		Body:          body,
		ContentLength: aws.Int64(size),
		ContentType:   aws.String(ports.ContentType(pathpkg.Ext(path))),
	})
	if err != nil {
		return fmt.Errorf("s3files: put %q: %w", key, classify(ctx, err))
	}
	return nil
}

// List calls fn with the path and size of every file below the prefix, in
// the bucket's order, until fn returns an error, which List returns. Keys of
// another shape than Save's are skipped.
func (b *Bucket) List(ctx context.Context, fn func(path string, size int64) error) error {
	p := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{Bucket: &b.bucket, Prefix: aws.String(b.prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("s3files: list: %w", classify(ctx, err))
		}
		for _, o := range page.Contents {
			path := strings.TrimPrefix(aws.ToString(o.Key), b.prefix)
			if !ports.ValidFilePath(path) {
				continue
			}
			if err := fn(path, aws.ToInt64(o.Size)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Open implements ports.FileStore with one GetObject, whose body streams
// from the server as the caller reads. The content type is the one Save
// stored with the object.
func (b *Bucket) Open(ctx context.Context, key string) (ports.StoredFile, error) {
	if !ports.ValidFilePath(key) {
		return ports.StoredFile{}, fmt.Errorf("s3files: open %q: %w", key, domain.ErrNotFound)
	}
	full := b.prefix + key
	out, err := b.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &b.bucket, Key: &full})
	if err != nil {
		return ports.StoredFile{}, fmt.Errorf("s3files: open %q: %w", key, classify(ctx, err))
	}
	return ports.StoredFile{
		Body:        out.Body,
		Size:        aws.ToInt64(out.ContentLength),
		ContentType: aws.ToString(out.ContentType),
		ETag:        aws.ToString(out.ETag),
		ModTime:     aws.ToTime(out.LastModified),
	}, nil
}

// Delete implements ports.FileStore. S3 answers a delete of a missing key
// with success, which is what the port asks for.
func (b *Bucket) Delete(ctx context.Context, key string) error {
	if !ports.ValidFilePath(key) {
		return fmt.Errorf("s3files: delete %q: %w", key, ports.ErrBadFilePath)
	}
	for _, k := range []string{key, ports.TrashedFilePath(key)} {
		full := b.prefix + k
		if _, err := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.bucket, Key: &full}); err != nil {
			return fmt.Errorf("s3files: delete %q: %w", k, classify(ctx, err))
		}
	}
	return nil
}

// MoveToTrash implements ports.FileStore: S3 has no rename, so the object
// is copied within the bucket and the original deleted. A public URL
// (AWS_URL) of the bucket still reaches the trash's prefix unless the
// bucket's policy keeps it private.
func (b *Bucket) MoveToTrash(ctx context.Context, key string) error {
	if !ports.ValidFilePath(key) {
		return fmt.Errorf("s3files: move %q to the trash: %w", key, ports.ErrBadFilePath)
	}
	return b.move(ctx, key, ports.TrashedFilePath(key))
}

// MoveFromTrash implements ports.FileStore.
func (b *Bucket) MoveFromTrash(ctx context.Context, key string) error {
	if !ports.ValidFilePath(key) {
		return fmt.Errorf("s3files: move %q from the trash: %w", key, ports.ErrBadFilePath)
	}
	return b.move(ctx, ports.TrashedFilePath(key), key)
}

func (b *Bucket) move(ctx context.Context, from, to string) error {
	from, to = b.prefix+from, b.prefix+to
	segments := strings.Split(from, "/")
	for i, seg := range segments {
		segments[i] = url.PathEscape(seg)
	}
	source := b.bucket + "/" + strings.Join(segments, "/")
	_, err := b.client.CopyObject(ctx, &s3.CopyObjectInput{Bucket: &b.bucket, Key: &to, CopySource: &source})
	if err != nil {
		if err := classify(ctx, err); errors.Is(err, domain.ErrNotFound) {
			return nil
		}
		return fmt.Errorf("s3files: move %q to %q: %w", from, to, classify(ctx, err))
	}
	if _, err := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.bucket, Key: &from}); err != nil {
		return fmt.Errorf("s3files: move %q: %w", from, classify(ctx, err))
	}
	return nil
}

// classify adds the domain's reading to an error of the S3 client: a missing
// key is NotFound; a server that can't be reached, or answers 5xx once the
// client's retries are spent, is Unavailable. A caller that gave up keeps its
// context's error, and anything else (a missing bucket, refused keys) is a
// fault of the setup and stays Internal.
func classify(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return err
	}
	var api smithy.APIError
	if errors.As(err, &api) && (api.ErrorCode() == "NoSuchKey" || api.ErrorCode() == "NotFound") {
		return fmt.Errorf("%w: %w", domain.ErrNotFound, err)
	}
	var send *smithyhttp.RequestSendError
	var resp *smithyhttp.ResponseError
	if errors.As(err, &send) || errors.As(err, &resp) && resp.HTTPStatusCode() >= 500 {
		return fmt.Errorf("%w: %w", domain.ErrUnavailable, err)
	}
	return err
}

// Object is one object of the bucket as a listing gives it: its key below
// the prefix, its size and when the bucket last wrote it.
type Object struct {
	Key     string
	Size    int64
	ModTime time.Time
}

// PutObject stores size bytes of body at key, below the prefix, with the
// user metadata given (x-amz-meta-*). Unlike Put it takes any key: it
// serves callers that lay out keys of their own, such as the database's
// replica. body must be seekable for the client's retries.
func (b *Bucket) PutObject(ctx context.Context, key string, body io.ReadSeeker, size int64, metadata map[string]string) error {
	full := b.prefix + key
	_, err := b.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        &b.bucket,
		Key:           &full,
		Body:          body,
		ContentLength: aws.Int64(size),
		Metadata:      metadata,
	})
	if err != nil {
		return fmt.Errorf("s3files: put %q: %w", full, classify(ctx, err))
	}
	return nil
}

// GetObject streams the object at key, below the prefix, from offset on:
// size bytes of it, or the rest when size is 0 or less. A missing key is
// domain.ErrNotFound.
func (b *Bucket) GetObject(ctx context.Context, key string, offset, size int64) (io.ReadCloser, error) {
	full := b.prefix + key
	in := &s3.GetObjectInput{Bucket: &b.bucket, Key: &full}
	switch {
	case size > 0:
		in.Range = aws.String(fmt.Sprintf("bytes=%d-%d", offset, offset+size-1))
	case offset > 0:
		in.Range = aws.String(fmt.Sprintf("bytes=%d-", offset))
	}
	out, err := b.client.GetObject(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("s3files: get %q: %w", full, classify(ctx, err))
	}
	return out.Body, nil
}

// ObjectMetadata returns the user metadata of the object at key, below the
// prefix, with one HeadObject. A missing key is domain.ErrNotFound.
func (b *Bucket) ObjectMetadata(ctx context.Context, key string) (map[string]string, error) {
	full := b.prefix + key
	out, err := b.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &b.bucket, Key: &full})
	if err != nil {
		return nil, fmt.Errorf("s3files: head %q: %w", full, classify(ctx, err))
	}
	return out.Metadata, nil
}

// ListObjects calls fn with every object whose key, below the bucket's
// prefix, starts with prefix, in the bucket's (lexical) order, until fn
// returns an error, which ListObjects returns. Keys are given relative to
// the bucket's prefix.
func (b *Bucket) ListObjects(ctx context.Context, prefix string, fn func(Object) error) error {
	p := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{Bucket: &b.bucket, Prefix: aws.String(b.prefix + prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("s3files: list %q: %w", b.prefix+prefix, classify(ctx, err))
		}
		for _, o := range page.Contents {
			obj := Object{
				Key:     strings.TrimPrefix(aws.ToString(o.Key), b.prefix),
				Size:    aws.ToInt64(o.Size),
				ModTime: aws.ToTime(o.LastModified).UTC(),
			}
			if err := fn(obj); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxDeleteKeys is the most keys one DeleteObjects takes.
const maxDeleteKeys = 1000

// DeleteObjects deletes the objects at keys, below the prefix, in batches
// of DeleteObjects. Missing keys are not an error; a key the server
// refuses to delete is.
func (b *Bucket) DeleteObjects(ctx context.Context, keys ...string) error {
	for len(keys) > 0 {
		n := min(len(keys), maxDeleteKeys)
		ids := make([]types.ObjectIdentifier, n)
		for i, k := range keys[:n] {
			ids[i] = types.ObjectIdentifier{Key: aws.String(b.prefix + k)}
		}
		out, err := b.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: &b.bucket,
			Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return fmt.Errorf("s3files: delete %d objects: %w", n, classify(ctx, err))
		}
		for _, e := range out.Errors {
			if aws.ToString(e.Code) == "NoSuchKey" {
				continue
			}
			return fmt.Errorf("s3files: delete %q: %s: %s", aws.ToString(e.Key), aws.ToString(e.Code), aws.ToString(e.Message))
		}
		keys = keys[n:]
	}
	return nil
}
