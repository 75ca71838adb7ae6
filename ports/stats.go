package ports

import (
	"context"
	"time"
)

// Pinger checks that a store can be reached, for a readiness probe that
// should send traffic elsewhere while it cannot. Every Store is one.
type Pinger interface {
	// Ping returns nil when the store answers before ctx ends; one that
	// cannot be reached gives an error of kind domain.Unavailable.
	Ping(ctx context.Context) error
}

// PoolReporter is implemented by stores that hold connection pools, so that
// operators can watch the pools fill up or make requests wait. It is optional:
// the HTTP adapter exports the figures when it is given a reporter and nothing
// otherwise (the memory store has no pool).
type PoolReporter interface {
	// PoolStats returns a snapshot of every pool of the store. It must be
	// cheap and must not touch the database, as it runs on every scrape.
	PoolStats() []PoolStat
}

// PoolStat is a snapshot of one connection pool.
type PoolStat struct {
	// Pool names the pool among the store's pools, e.g. "main" or "writer".
	Pool string
	// InUse, Idle and Open count connections handed out, waiting in the pool
	// and in existence (including ones being opened); Max is the pool's limit.
	InUse, Idle, Open, Max int64
	// Waits counts acquisitions that found no idle connection and had to wait
	// for one to be released or opened; WaitTime is their total wait.
	Waits    int64
	WaitTime time.Duration
	// CountsAcquires says whether the pool counts every acquisition: Acquires
	// and AcquireTime are meaningful only then. database/sql does not.
	CountsAcquires bool
	Acquires       int64
	AcquireTime    time.Duration
}

// QueryCounter is implemented by stores that count the statements they send,
// so that operators can tell how many queries the requests cost. It is
// optional, as PoolReporter is.
type QueryCounter interface {
	// Queries returns the statements sent since the store opened. Like
	// PoolStats it must be cheap, as it runs on every scrape.
	Queries() int64
}

// BacklogReporter tells how much work waits in the outboxes that the
// workers of every replica send from, so that operators see mail or
// webhooks falling behind.
type BacklogReporter interface {
	// Backlog counts the pending mails and webhook deliveries. It reads
	// the store, so a caller bounds it with ctx.
	Backlog(ctx context.Context) (Backlog, error)
}

// Backlog is the work waiting in the outboxes: pending mails and webhook
// deliveries, due, waiting for a retry or being sent.
type Backlog struct {
	Mails, Deliveries int64
}
