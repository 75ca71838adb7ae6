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

// Cache holds totals by search, all counted at the newest version it has
// seen. Versions only grow, so a total of an older version is never asked
// for again, and a newer version empties the cache.
type Cache struct {
	mu      sync.Mutex
	max     int
	version int64
	totals  map[string]int
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
	return &Cache{max: Size, totals: make(map[string]int), flights: make(map[flightKey]*flight)}
}

// Get returns the total of the search key counted at version, if kept.
func (c *Cache) Get(key string, version int64) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if version != c.version {
		return 0, false
	}
	n, ok := c.totals[key]
	return n, ok
}

// Put keeps total as the total of the search key at version. A total
// counted at a version older than the cache's is dropped: a reader on an
// older snapshot counted it. When the cache is full an arbitrary search
// makes room.
func (c *Cache) Put(key string, version int64, total int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case version < c.version:
		return
	case version > c.version:
		clear(c.totals)
		c.version = version
	}
	if _, ok := c.totals[key]; !ok && len(c.totals) >= c.max {
		for k := range c.totals {
			delete(c.totals, k)
			break
		}
	}
	c.totals[key] = total
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
