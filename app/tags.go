package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

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

// manager reads the caller's account through r and returns it when the
// caller may manage tags now (domain.Actor.CheckManageTags): the rights
// are the account's as stored, so a revoke counts at once, and a deleted
// account has none. The presented actor's ability is checked before the
// store is asked anything.
func manager(ctx context.Context, r ports.Repos, c ports.AdminCaller) (domain.User, error) {
	if err := c.Actor.CheckAbility(domain.WriteTags); err != nil {
		return domain.User{}, err
	}
	return asStored(ctx, r, c, domain.Actor.CheckManageTags)
}

// manage runs one change of tags in one transaction: check the caller's
// rights, make the change, write the audit row of action about tag id,
// then record that the tags fn returns changed, so that every cache of
// answers showing them drops them.
func (t *Tags) manage(ctx context.Context, c ports.AdminCaller, action domain.AuditAction, id int64, fn func(r ports.Repos, now time.Time) ([]domain.Tag, error)) error {
	err := t.store.InTx(ctx, func(r ports.Repos) error {
		admin, err := manager(ctx, r, c)
		if err != nil {
			return err
		}
		if err := c.Actor.CheckWrite(); err != nil {
			return err
		}
		now := t.clock.Now()
		changed, err := fn(r, now)
		if err != nil {
			return err
		}
		entry := domain.NewAuditEntry(admin, action, domain.SubjectTag, id, c.Address, now)
		if err := r.Admin.AppendAudit(ctx, &entry); err != nil {
			return err
		}
		return record(ctx, r, domain.NewTagsEvent(changed, now))
	})
	if err != nil {
		return fmt.Errorf("%s %d: %w", action, id, err)
	}
	return nil
}

// Counted implements ports.Tags.
func (t *Tags) Counted(ctx context.Context, c ports.AdminCaller, q ports.TagQuery) ([]ports.TagCount, int, error) {
	r := t.store.Repos()
	if _, err := manager(ctx, r, c); err != nil {
		return nil, 0, err
	}
	if err := checkSearch("q", q.Search); err != nil {
		return nil, 0, err
	}
	if q.Sort.Field == "" {
		q.Sort.Field = "name"
	}
	if !slices.Contains(ports.TagFields, q.Sort.Field) {
		return nil, 0, domain.InvalidField("sort", domain.RuleOf(domain.RuleIn, ports.TagFields...))
	}
	q.Page = capped(q.Page)
	list, total, err := r.Tags.Counted(ctx, q)
	if err != nil {
		return nil, 0, fmt.Errorf("list tags with their posts: %w", err)
	}
	return list, total, nil
}

// Rename implements ports.Tags.
func (t *Tags) Rename(ctx context.Context, c ports.AdminCaller, id int64, name string) (domain.Tag, error) {
	var tag domain.Tag
	err := t.manage(ctx, c, domain.AuditTagRename, id, func(r ports.Repos, now time.Time) ([]domain.Tag, error) {
		var err error
		if tag, err = r.Tags.Lock(ctx, id); err != nil {
			return nil, err
		}
		if err := tag.Rename(name, now); err != nil {
			return nil, err
		}
		if err := r.Tags.Update(ctx, tag); err != nil {
			return nil, err
		}
		return []domain.Tag{tag}, nil
	})
	if err != nil {
		return domain.Tag{}, err
	}
	return tag, nil
}

// Merge implements ports.Tags.
func (t *Tags) Merge(ctx context.Context, c ports.AdminCaller, from int64, into string) (domain.Tag, error) {
	var target domain.Tag
	err := t.manage(ctx, c, domain.AuditTagMerge, from, func(r ports.Repos, _ time.Time) ([]domain.Tag, error) {
		source, err := r.Tags.Lock(ctx, from)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(into) == "" {
			return nil, domain.InvalidField("into", domain.RuleRequired)
		}
		found, err := r.Tags.ByName(ctx, into)
		if errors.Is(err, domain.ErrNotFound) {
			return nil, domain.InvalidField("into", domain.RuleExists)
		}
		if err != nil {
			return nil, err
		}
		if err := domain.CheckMerge(source, found); err != nil {
			return nil, err
		}
		if target, err = r.Tags.Lock(ctx, found.ID); err != nil {
			return nil, err
		}
		if _, err := r.Tags.Move(ctx, source.ID, target.ID); err != nil {
			return nil, err
		}
		if err := r.Tags.Delete(ctx, source.ID); err != nil {
			return nil, err
		}
		return []domain.Tag{source, target}, nil
	})
	if err != nil {
		return domain.Tag{}, err
	}
	return target, nil
}

// Delete implements ports.Tags.
func (t *Tags) Delete(ctx context.Context, c ports.AdminCaller, id int64) error {
	return t.manage(ctx, c, domain.AuditTagDelete, id, func(r ports.Repos, _ time.Time) ([]domain.Tag, error) {
		tag, err := r.Tags.Lock(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := r.Tags.Delete(ctx, id); err != nil {
			return nil, err
		}
		return []domain.Tag{tag}, nil
	})
}
