// Package wakeup tells the readers of a store's outbox in this process that
// events were committed: ports.EventWaker for the stores to share.
package wakeup

import "sync"

// Broadcaster wakes every subscriber. Wake never waits: each subscriber's
// channel holds one wake-up, and a subscriber that has one pending needs no
// second, since it reads everything new when it wakes.
type Broadcaster struct {
	mu   sync.Mutex
	subs map[chan struct{}]struct{}
}

// Subscribe implements ports.EventWaker.
func (b *Broadcaster) Subscribe() (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	b.mu.Lock()
	if b.subs == nil {
		b.subs = map[chan struct{}]struct{}{}
	}
	b.subs[c] = struct{}{}
	b.mu.Unlock()
	return c, func() {
		b.mu.Lock()
		delete(b.subs, c)
		b.mu.Unlock()
	}
}

// Wake wakes every subscriber.
func (b *Broadcaster) Wake() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for c := range b.subs {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}
