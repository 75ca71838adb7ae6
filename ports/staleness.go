package ports

import (
	"context"
	"time"
)

// staleReadsKey marks a context whose reads may be answered from a copy of
// the store that lags behind it.
type staleReadsKey struct{}

// AllowStaleReads returns ctx marked as tolerating a read from a standby
// copy of the store that may lag behind the primary by up to the store's
// lag limit. The use cases mark the reads of callers who cannot have
// written what they read (app decides who they are); a store without
// standbys ignores the mark. Reads in Store.InTx never take it.
func AllowStaleReads(ctx context.Context) context.Context {
	return context.WithValue(ctx, staleReadsKey{}, true)
}

// StaleReadsAllowed reports whether ctx was marked by AllowStaleReads.
func StaleReadsAllowed(ctx context.Context) bool {
	ok, _ := ctx.Value(staleReadsKey{}).(bool)
	return ok
}

// ReadReporter is implemented by stores that may send reads to a standby,
// so that operators can see where reads go and how far the standby lags.
// It is optional, as PoolReporter is.
type ReadReporter interface {
	// ReadStats returns where reads have gone since the store opened and
	// the standby's state at its last check. It must be cheap and must not
	// touch the database, as it runs on every scrape.
	ReadStats() ReadStats
}

// ReadStats counts the reads a store may route (post views and the tag
// list, outside transactions) by the database that was asked, and
// describes the standby.
type ReadStats struct {
	// Primary and Standby count reads sent to each; a read the standby
	// failed and the primary answered counts once for each.
	Primary, Standby int64
	// HasStandby says whether a standby is configured; the fields below
	// mean something only then.
	HasStandby bool
	// Usable says whether reads that tolerate staleness go to the standby
	// now: it answered its last check and lags no more than the limit.
	Usable bool
	// Lag is how far the standby's replay was behind the primary at its
	// last check; LagKnown is false when it could not be measured (the
	// standby or the primary did not answer, or not for long enough).
	Lag      time.Duration
	LagKnown bool
}

// freshReadsKey marks a context whose reads must come from the primary,
// even for a caller whom the use cases would let read a standby.
type freshReadsKey struct{}

// RequireFreshReads returns ctx marked so that its reads never go to a
// standby: a transport asks it for an answer it keeps for others (a cached
// answer), which must not be older than the events that evicted its
// predecessor.
func RequireFreshReads(ctx context.Context) context.Context {
	return context.WithValue(ctx, freshReadsKey{}, true)
}

// FreshReadsRequired reports whether ctx was marked by RequireFreshReads.
func FreshReadsRequired(ctx context.Context) bool {
	ok, _ := ctx.Value(freshReadsKey{}).(bool)
	return ok
}
