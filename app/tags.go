package app

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Tags implements ports.Tags.
type Tags struct {
	store ports.Store
	clock ports.Clock
}

// NewTags returns the tag use cases.
func NewTags(store ports.Store, clock ports.Clock) *Tags {
	return &Tags{store: store, clock: clock}
}

var _ ports.Tags = (*Tags)(nil)

// Create implements ports.Tags.
func (t *Tags) Create(ctx context.Context, actor domain.Actor, name string) (domain.Tag, error) {
	if err := actor.CheckAbility(domain.WriteTags); err != nil {
		return domain.Tag{}, err
	}
	if err := actor.CheckWrite(); err != nil {
		return domain.Tag{}, err
	}
	tag, err := domain.NewTag(name, t.clock.Now())
	if err != nil {
		return domain.Tag{}, err
	}
	if err := t.store.Repos().Tags.Create(ctx, &tag); err != nil {
		return domain.Tag{}, fmt.Errorf("create tag: %w", err)
	}
	return tag, nil
}

// List implements ports.Tags.
func (t *Tags) List(ctx context.Context, actor domain.Actor) ([]domain.Tag, error) {
	tags, err := t.store.Repos().Tags.List(readBy(ctx, actor.User.ID))
	if err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	return tags, nil
}
