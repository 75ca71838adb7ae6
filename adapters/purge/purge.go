// Package purge tells a shared cache in front of the service (a CDN,
// Varnish with xkey) to drop what changed: one POST per tag to the
// configured URL, the tag in the Surrogate-Key header, as the answers name
// their tags in it. It implements ports.CacheEvictor and never makes the
// caller wait: tags queue, and a worker sends them.
package purge

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/inkwell/inkwell/ports"
)

// Config holds the purger's settings.
type Config struct {
	// URL receives the purges (HTTP_CACHE_PURGE_URL); empty: none.
	URL string
	// Timeout bounds each purge; 5 seconds when zero.
	Timeout time.Duration
}

// Purger sends purges to Config.URL.
type Purger struct {
	url    string
	client *http.Client
	log    *slog.Logger
	queue  chan string
}

var _ ports.CacheEvictor = (*Purger)(nil)

// queueSize is how many tags wait for the worker; past it a tag is
// dropped (and logged), and the shared cache keeps that copy until its
// s-maxage ends.
const queueSize = 4096

// New returns the purger of cfg, nil when cfg has no URL.
func New(cfg Config, log *slog.Logger) *Purger {
	if cfg.URL == "" {
		return nil
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	return &Purger{url: cfg.URL, client: &http.Client{Timeout: cfg.Timeout}, log: log, queue: make(chan string, queueSize)}
}

// Evict implements ports.CacheEvictor.
func (p *Purger) Evict(tags []string) {
	for _, t := range tags {
		select {
		case p.queue <- t:
		default:
			p.log.Warn("cache purge: queue full, tag dropped", "tag", t)
		}
	}
}

// EvictAll implements ports.CacheEvictor. It purges nothing: a replica
// calls it when it starts reading the outbox, and the shared cache's
// copies of what changed before were purged by the replicas that read it
// then, or end with their s-maxage.
func (p *Purger) EvictAll() {}

// Run sends the queued purges until ctx ends.
func (p *Purger) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case tag := <-p.queue:
			if err := p.send(ctx, tag); err != nil && ctx.Err() == nil {
				p.log.Warn("cache purge", "tag", tag, "err", err)
			}
		}
	}
}

// send purges one tag.
func (p *Purger) send(ctx context.Context, tag string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, http.NoBody)
	if err != nil {
		return err
	}
	req.Header.Set("Surrogate-Key", tag)
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("purge answered %s", resp.Status)
	}
	return nil
}
