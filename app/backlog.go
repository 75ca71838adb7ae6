package app

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/ports"
)

// Backlog reads what the mail and webhook workers have left to send, for
// the operators' metrics.
type Backlog struct {
	store ports.Store
}

var _ ports.BacklogReporter = (*Backlog)(nil)

// NewBacklog returns the backlog of store's outboxes.
func NewBacklog(store ports.Store) *Backlog { return &Backlog{store: store} }

// Backlog implements ports.BacklogReporter.
func (b *Backlog) Backlog(ctx context.Context) (ports.Backlog, error) {
	r := b.store.Repos()
	mails, err := r.Mails.Pending(ctx)
	if err != nil {
		return ports.Backlog{}, fmt.Errorf("count pending mails: %w", err)
	}
	deliveries, err := r.Deliveries.Pending(ctx)
	if err != nil {
		return ports.Backlog{}, fmt.Errorf("count pending deliveries: %w", err)
	}
	return ports.Backlog{Mails: mails, Deliveries: deliveries}, nil
}
