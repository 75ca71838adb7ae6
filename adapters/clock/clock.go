// Package clock tells the time the way the stores keep it.
package clock

import (
	"sync"
	"time"
)

// UTC implements ports.Clock: UTC truncated to microseconds, the precision
// PostgreSQL keeps, so a time read back from any store equals the one written.
type UTC struct{}

// NewUTC returns the production clock.
func NewUTC() UTC { return UTC{} }

// Now returns the current time.
func (UTC) Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Fixed is a clock that stands still until moved, for tests. It is safe for
// concurrent use.
type Fixed struct {
	mu sync.Mutex
	t  time.Time
}

// NewFixed returns a clock standing at t.
func NewFixed(t time.Time) *Fixed { return &Fixed{t: t} }

// Now returns the clock's time.
func (f *Fixed) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

// Advance moves the clock forward by d.
func (f *Fixed) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}
