package sqlite

import "sync"

// batchBounds are the bounds of the newest entries of posts_published, a
// batch of searchPage's (batchAfter): the lowest and the highest id among
// them, the oldest time, how many there were, and the highest id of all
// posts.
type batchBounds struct {
	lo, hi, oldest int64
	walked         int
	top            int64
}

// batchCache keeps the bounds of the batches searchPage walked, by their
// length, at one version of the published titles (package searchtotal).
// The version grows with every write that adds or removes a published
// post, and no write changes a post's id or time, so bounds read at a
// version are those of every snapshot that reads the same version. Whatever
// the search, the first page of a search that matches a few thousand
// titles or fewer then costs the matches in a narrow range of ids, not
// the walk of tens of thousands of entries that finds that range.
type batchCache struct {
	mu      sync.Mutex
	version int64
	bounds  map[int]batchBounds
}

// get returns the bounds of the newest batch entries at version, if kept.
func (c *batchCache) get(batch int, version int64) (batchBounds, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if version != c.version {
		return batchBounds{}, false
	}
	b, ok := c.bounds[batch]
	return b, ok
}

// put keeps b as the bounds of the newest batch entries at version; bounds
// read at an older version than the cache's are dropped, and a newer one
// empties it. The lengths are few (batchFor rounds them to powers of two).
func (c *batchCache) put(batch int, version int64, b batchBounds) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case version < c.version:
		return
	case version > c.version || c.bounds == nil:
		c.bounds = make(map[int]batchBounds)
		c.version = version
	}
	c.bounds[batch] = b
}
