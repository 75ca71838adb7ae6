// Package searchtotal keeps the totals of title searches while the
// published titles stay as they were.
//
// A title search's exact total counts every published post whose title
// holds the words, and at a million posts that count is most of what a
// page costs: 2.5 ms of FTS5 phrase matching on SQLite, 19 ms of heap
// rechecks on PostgreSQL, against a millisecond or two for the page. The
// SQL stores keep a version of the published titles, the sum of
// post_counts.title_changes, which triggers raise in the transaction of
// every write that adds, removes, retitles, publishes or unpublishes a
// published post (migration 0011). Read in the snapshot that counts, it
// names the set of published titles that snapshot sees: snapshots see
// ever larger sets of commits, and every commit that changes the titles
// raises the sum. A total counted at a version is therefore the exact
// total of any later snapshot that reads the same version, whichever
// replica counted it; the cache is consulted outside transactions only,
// where no uncommitted change is visible.
package searchtotal

import (
	"context"
	"sync"
)

// Versioned holds values by key, all read at the newest version of the
// published titles it has seen. Versions only grow, so a value of an older
// version is never asked for again, and a newer version empties it. Its
// zero value holds any number of keys; max, when above zero, bounds them.
type Versioned[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	version int64
	values  map[K]V
}

// Get returns the value of key read at version, if kept.
func (c *Versioned[K, V]) Get(key K, version int64) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if version != c.version {
		var zero V
		return zero, false
	}
	v, ok := c.values[key]
	return v, ok
}

// Put keeps v as the value of key at version. A value read at a version
// older than the cache's is dropped: a reader on an older snapshot read
// it. When the cache is full an arbitrary key makes room.
func (c *Versioned[K, V]) Put(key K, version int64, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case version < c.version:
		return
	case version > c.version || c.values == nil:
		c.values = make(map[K]V)
		c.version = version
	}
	if _, ok := c.values[key]; !ok && c.max > 0 && len(c.values) >= c.max {
		for k := range c.values {
			delete(c.values, k)
			break
		}
	}
	c.values[key] = v
}

// Cache holds totals by search, all counted at the newest version it has
// seen, and shares the counts in progress.
type Cache struct {
	Versioned[string, int]

	mu      sync.Mutex
	flights map[flightKey]*flight
}

// flightKey names a count in progress: a search at a version.
type flightKey struct {
	search  string
	version int64
}

// flight is a count in progress, done once its outcome is set.
type flight struct {
	done    chan struct{}
	total   int
	version int64
	err     error
}

// Size is how many searches a Cache holds: a few hundred kilobytes at
// most.
const Size = 4096

// New returns an empty cache of up to Size searches.
func New() *Cache {
	return &Cache{Versioned: Versioned[string, int]{max: Size}, flights: make(map[flightKey]*flight)}
}

// Share counts key by count, which returns the total and the version of
// the titles it counted at, and keeps the total. While a count of key at
// version runs, the callers that ask for the same wait for it rather than
// count again: a search nobody counted yet, asked by fifty readers at
// once, costs one count, not fifty, which on a common text at a million
// posts made every one of them wait for seconds. A waiter takes the
// total when it was counted at version, the one the waiter read, and
// counts by itself otherwise (the count failed, or saw a newer version).
// counted reports whether this caller's count ran, so that what else it
// read is there.
func (c *Cache) Share(ctx context.Context, key string, version int64, count func() (int, int64, error)) (total int, counted bool, err error) {
	k := flightKey{key, version}
	c.mu.Lock()
	f, waiting := c.flights[k]
	if !waiting {
		f = &flight{done: make(chan struct{})}
		c.flights[k] = f
	}
	c.mu.Unlock()
	if waiting {
		select {
		case <-f.done:
			if f.err == nil && f.version == version {
				return f.total, false, nil
			}
		case <-ctx.Done():
			return 0, false, ctx.Err()
		}
		total, at, err := count()
		if err == nil {
			c.Put(key, at, total)
		}
		return total, true, err
	}
	f.total, f.version, f.err = count()
	c.mu.Lock()
	delete(c.flights, k)
	c.mu.Unlock()
	close(f.done)
	if f.err == nil {
		c.Put(key, f.version, f.total)
	}
	return f.total, true, f.err
}
