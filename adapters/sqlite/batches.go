package sqlite

import "github.com/inkwell/inkwell/adapters/internal/searchtotal"

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
// the walk of tens of thousands of entries that finds that range. The
// lengths are few (batchFor rounds them to powers of two), so it keeps
// them all.
type batchCache = searchtotal.Versioned[int, batchBounds]
