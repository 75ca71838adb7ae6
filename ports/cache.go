package ports

import "context"

// CacheEvictor is the driven port of what keeps copies of answers: the
// replica's own cache of anonymous reads and, when configured, a CDN that
// takes purges. Each copy is filed under the tags of what it shows
// (domain.Event.CacheTags names them).
type CacheEvictor interface {
	// Evict drops every copy filed under any of tags. It must not wait
	// on the network: an evictor that tells another service queues.
	Evict(tags []string)
	// EvictAll drops every copy, for when the reader of the outbox cannot
	// tell what changed before it started.
	EvictAll()
}

// CacheFreshness is the driving port a transport calls after a write, so
// that the replica that made it drops what the write changed before it
// answers: a client then reads its own writes.
type CacheFreshness interface {
	// CatchUp reads the outbox up to the newest committed event and evicts
	// what each event changed.
	CatchUp(ctx context.Context) error
}
