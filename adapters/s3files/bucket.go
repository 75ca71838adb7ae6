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
	"net/url"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
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
}

// Bucket implements ports.FileStore on an S3 bucket.
type Bucket struct {
	client *s3.Client
	bucket string
	url    string
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
	return &Bucket{client: s3.New(opts), bucket: cfg.Bucket, url: strings.TrimRight(cfg.URL, "/")}, nil
}

// PublicURL is where clients fetch the file at path straight from the
// bucket's public base URL, and false when none is configured.
func (b *Bucket) PublicURL(path string) (string, bool) {
	if b.url == "" {
		return "", false
	}
	return b.url + "/" + path, true
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
	key := dir + "/" + hex.EncodeToString(r[:]) + ext
	_, err := b.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        &b.bucket,
		Key:           &key,
		Body:          bytes.NewReader(data),
		ContentLength: aws.Int64(int64(len(data))),
		ContentType:   aws.String(ports.ContentType(ext)),
	})
	if err != nil {
		return "", fmt.Errorf("s3files: save %q: %w", key, classify(ctx, err))
	}
	return key, nil
}

// Open implements ports.FileStore with one GetObject, whose body streams
// from the server as the caller reads. The content type is the one Save
// stored with the object.
func (b *Bucket) Open(ctx context.Context, key string) (ports.StoredFile, error) {
	if !ports.ValidFilePath(key) {
		return ports.StoredFile{}, fmt.Errorf("s3files: open %q: %w", key, domain.ErrNotFound)
	}
	out, err := b.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &b.bucket, Key: &key})
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
		if _, err := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.bucket, Key: &k}); err != nil {
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
