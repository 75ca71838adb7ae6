package inkwell

import (
	"log/slog"

	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/purge"
	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/ports"
)

// CacheConfig holds the settings of the cache of anonymous reads: its
// size and time to live (httpapi.CacheConfig) and where purges go.
type CacheConfig struct {
	httpapi.CacheConfig
	// PurgeURL receives a purge per evicted tag (HTTP_CACHE_PURGE_URL);
	// empty: none. It needs the cache on, whose answers name their tags.
	PurgeURL string
}

// newCache builds the replica's cache of anonymous reads (nil when off).
func newCache(cfg CacheConfig) *respcache.Cache {
	return httpapi.NewCache(cfg.CacheConfig)
}

// newPurger builds the purger of a shared cache in front, nil without a
// URL or with the cache off.
func newPurger(cfg CacheConfig, log *slog.Logger) *purge.Purger {
	if cfg.MaxBytes <= 0 {
		return nil
	}
	return purge.New(purge.Config{URL: cfg.PurgeURL}, log)
}

// newCacheInvalidation builds the replica's reader of the outbox that
// evicts from the cache and purges the shared cache; it does nothing when
// the cache is off.
func newCacheInvalidation(store ports.Store, events app.EventsConfig, cache *respcache.Cache, purger *purge.Purger) *app.CacheInvalidation {
	var evict []ports.CacheEvictor
	if cache != nil {
		evict = append(evict, cache)
	}
	if purger != nil {
		evict = append(evict, purger)
	}
	return app.NewCacheInvalidation(store, events.Poll, evict...)
}
