package inkwell

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/inkwell/inkwell/adapters/localfs"
	"github.com/inkwell/inkwell/adapters/s3files"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// copyQueueSize is how many saved files wait for their copy before the
// queue overflows into a scan.
const copyQueueSize = 1024

// copyRetry is how long a failed copy waits before a scan copies what is
// missing.
const copyRetry = 10 * time.Second

// copyShutdown bounds the copies Close still makes.
const copyShutdown = 10 * time.Second

// copiedFiles is the local file store of a backed-up service: every file
// it saves is copied once to the backup bucket, since a stored file never
// changes. A copy is made after the save returns, by one goroutine, so an
// upload neither slows nor fails a request. What the queue cannot hold, and
// what a crash or an unreachable bucket left uncopied, a scan finds: one at
// start and one after every failure compares the folder with the bucket and
// copies what the bucket lacks. Deletes stay local: a restore to an earlier
// moment needs the files its rows link to.
type copiedFiles struct {
	*localfs.Files
	copies *s3files.Bucket
	log    *slog.Logger

	queue  chan string
	rescan chan struct{}
	stop   context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	closed bool
}

var _ ports.FileStore = (*copiedFiles)(nil)

// newCopiedFiles starts copying the files of local to copies, beginning
// with a scan.
func newCopiedFiles(local *localfs.Files, copies *s3files.Bucket, log *slog.Logger) *copiedFiles {
	ctx, stop := context.WithCancel(context.Background())
	c := &copiedFiles{
		Files: local, copies: copies, log: log,
		queue: make(chan string, copyQueueSize), rescan: make(chan struct{}, 1),
		stop: stop, done: make(chan struct{}),
	}
	c.rescan <- struct{}{}
	go c.run(ctx)
	return c
}

// Save implements ports.FileStore: the local save, then the file's path in
// the copy queue.
func (c *copiedFiles) Save(ctx context.Context, dir string, data []byte, ext string) (string, error) {
	p, err := c.Files.Save(ctx, dir, data, ext)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return p, nil // the next start's scan copies it
	}
	select {
	case c.queue <- p:
	default:
		c.needScan()
	}
	return p, nil
}

func (c *copiedFiles) needScan() {
	select {
	case c.rescan <- struct{}{}:
	default:
	}
}

// run copies queued files and scans when asked, until ctx ends.
func (c *copiedFiles) run(ctx context.Context) {
	defer close(c.done)
	var retry <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case p := <-c.queue:
			if err := c.copy(ctx, p); err != nil && ctx.Err() == nil {
				c.log.Error("backup: copy a stored file; retrying with a scan", "path", p, "err", err)
				retry = time.After(copyRetry)
			}
		case <-retry:
			retry = nil
			c.needScan()
		case <-c.rescan:
			if err := c.scan(ctx); err != nil && ctx.Err() == nil {
				c.log.Error("backup: compare the stored files with their copies; retrying", "err", err)
				retry = time.After(copyRetry)
			}
		}
	}
}

// copy uploads the local file at p; a file deleted meanwhile is skipped.
func (c *copiedFiles) copy(ctx context.Context, p string) error {
	f, err := c.Files.Open(ctx, p)
	if errors.Is(err, domain.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Body.Close()
	return c.copies.Put(ctx, p, f.Body, f.Size)
}

// scan copies every local file the bucket lacks, or holds with another
// size (an upload cut short).
func (c *copiedFiles) scan(ctx context.Context) error {
	have := map[string]int64{}
	if err := c.copies.List(ctx, func(p string, size int64) error {
		have[p] = size
		return nil
	}); err != nil {
		return err
	}
	n := 0
	err := c.Files.List(ctx, func(p string, size int64) error {
		if s, ok := have[p]; ok && s == size {
			return nil
		}
		n++
		return c.copy(ctx, p)
	})
	if n > 0 {
		c.log.Info("backup: copied stored files the bucket lacked", "count", n)
	}
	return err
}

// Close copies what the queue holds, for up to copyShutdown, and stops.
// Files saved after it are copied by the next start's scan.
func (c *copiedFiles) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.stop()
	<-c.done
	ctx, cancel := context.WithTimeout(context.Background(), copyShutdown)
	defer cancel()
	for {
		select {
		case p := <-c.queue:
			if err := c.copy(ctx, p); err != nil {
				c.log.Error("backup: copy a stored file before the stop; the next start copies it", "path", p, "err", err)
				return
			}
		default:
			return
		}
	}
}
