package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// TrashConfig says how long the trash keeps what was deleted.
type TrashConfig struct {
	// Retention is how long a trashed post or comment stays restorable
	// (TRASH_RETENTION); the worker purges it after.
	Retention time.Duration
}

// trashBatch is how many trashed records one transaction of the retention
// purge deletes, so that no purge holds the store's locks for long.
const trashBatch = 100

// trashPurgeInterval is how often each replica purges the expired trash.
// Replicas that purge at once take turns on each record's row: one purges
// it, the others find it gone.
const trashPurgeInterval = time.Hour

// TrashPurger purges the trash of what has been there longer than the
// retention, on every replica, as Laravel's Prunable does.
type TrashPurger struct {
	store ports.Store
	files ports.FileStore
	clock ports.Clock
	cfg   TrashConfig
}

// NewTrashPurger returns the retention purge of the trash.
func NewTrashPurger(store ports.Store, files ports.FileStore, clock ports.Clock, cfg TrashConfig) *TrashPurger {
	return &TrashPurger{store: store, files: files, clock: clock, cfg: cfg}
}

// Run purges the expired trash at once and then every trashPurgeInterval
// until ctx ends, handing each failure to report.
func (t *TrashPurger) Run(ctx context.Context, report func(error)) {
	for {
		if _, err := t.PurgeExpired(ctx); err != nil && ctx.Err() == nil {
			report(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(trashPurgeInterval):
		}
	}
}

// PurgeExpired deletes, one transaction per batch of trashBatch, every post
// and comment trashed at least the retention ago, with post.deleted or
// comment.deleted as a purge by hand records, and their images after each
// commit; it says how many records went.
func (t *TrashPurger) PurgeExpired(ctx context.Context) (int, error) {
	cutoff := t.clock.Now().Add(-t.cfg.Retention)
	total := 0
	for {
		var images []string
		n := 0
		err := t.store.InTx(ctx, func(r ports.Repos) error {
			images, n = nil, 0
			now := t.clock.Now()
			posts, err := r.Trash.ExpiredPosts(ctx, cutoff, trashBatch)
			if err != nil {
				return err
			}
			for _, p := range posts {
				image, err := purgePost(ctx, r, domain.User{}, p.Post.ID(), ports.Precondition{}, now, allow, allow)
				if err != nil {
					return err
				}
				images = append(images, image)
				n++
			}
			if n == trashBatch {
				return nil
			}
			comments, err := r.Trash.ExpiredComments(ctx, cutoff, trashBatch-n)
			if err != nil {
				return err
			}
			for _, c := range comments {
				if err := purgeTrashedComment(ctx, r, c.Comment, now); err != nil {
					return err
				}
				n++
			}
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("purge the expired trash: %w", err)
		}
		removeFiles(ctx, t.files, images...)
		total += n
		if n < trashBatch {
			return total, nil
		}
	}
}

// allow lets the retention purge take any post.
func allow(domain.Post) error { return nil }

// purgeTrashedComment deletes trashed comment c for good and records
// comment.deleted, unless its post is gone too, which took its events.
func purgeTrashedComment(ctx context.Context, r ports.Repos, c domain.Comment, now time.Time) error {
	post, err := anyPost(ctx, r, c.PostID)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	if err := r.Trash.PurgeComment(ctx, c.ID); err != nil {
		return err
	}
	if post.ID() == 0 {
		return nil
	}
	author, err := r.Users.ByID(ctx, c.UserID)
	if err != nil {
		return err
	}
	return record(ctx, r, domain.NewCommentEvent(domain.CommentDeleted, c, author, post, now))
}
