package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Purge implements ports.Posts: a live post the actor may edit, or one of
// the actor's in the trash, goes for good with every comment on it, live
// or trashed, and its image wherever it is.
func (p *Posts) Purge(ctx context.Context, actor domain.Actor, id int64, pre ports.Precondition) error {
	if err := checkPostWriter(domain.ByOwnRight(actor)); err != nil {
		return err
	}
	var image string
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		image, err = purgePost(ctx, r, actor.User, id, pre, p.clock.Now(), func(post domain.Post) error {
			if !post.CanEdit(domain.ByOwnRight(actor)) {
				return domain.ErrNotFound
			}
			return nil
		}, func(post domain.Post) error {
			if !post.VisibleTo(actor.User.ID) {
				return domain.ErrNotFound
			}
			if !post.CanEdit(domain.ByOwnRight(actor)) {
				return domain.ErrForbidden
			}
			return nil
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("purge post %d: %w", id, err)
	}
	p.removeFile(ctx, image)
	return nil
}

// purgePost deletes post id for good in r's transaction, live or trashed,
// after mayTrashed (for a trashed post) or mayLive (for a live one) allows
// it and pre allows its version, records post.deleted and returns its
// image for the caller to delete after the commit. by is who the event
// names as the author when the post's own author is not found.
func purgePost(ctx context.Context, r ports.Repos, by domain.User, id int64, pre ports.Precondition, now time.Time,
	mayTrashed, mayLive func(domain.Post) error) (string, error) {
	post, err := r.Posts.Lock(ctx, id)
	var tags []domain.Tag
	switch {
	case err == nil:
		if err := mayLive(post); err != nil {
			return "", err
		}
		if !pre.Allows(post.UpdatedAt()) {
			return "", domain.ErrPreconditionFailed
		}
		if tags, err = tagsOf(ctx, r, id); err != nil {
			return "", err
		}
		if _, err := r.Trash.PurgeCommentsOf(ctx, id); err != nil {
			return "", err
		}
		if err := r.Posts.Delete(ctx, id); err != nil {
			return "", err
		}
	case errors.Is(err, domain.ErrNotFound):
		trashed, err := r.Trash.Post(ctx, id)
		if err != nil {
			return "", err
		}
		post = trashed.Post
		if err := mayTrashed(post); err != nil {
			return "", err
		}
		if !pre.Allows(post.UpdatedAt()) {
			return "", domain.ErrPreconditionFailed
		}
		if tags, err = tagsByIDs(ctx, r, trashed.TagIDs); err != nil {
			return "", err
		}
		if err := r.Trash.PurgePost(ctx, id); err != nil {
			return "", err
		}
	default:
		return "", err
	}
	author, err := authorOr(ctx, r, post.AuthorID(), by)
	if err != nil {
		return "", err
	}
	return post.ImagePath(), record(ctx, r, domain.NewPostEvent(domain.PostDeleted, post, author, tags, now))
}

// authorOr reads user id, which is by itself when by is that user.
func authorOr(ctx context.Context, r ports.Repos, id int64, by domain.User) (domain.User, error) {
	if by.ID == id {
		return by, nil
	}
	return r.Users.ByID(ctx, id)
}

// tagsByIDs returns the tags among ids that still exist, in TagOrder.
func tagsByIDs(ctx context.Context, r ports.Repos, ids []int64) ([]domain.Tag, error) {
	if len(ids) == 0 {
		return []domain.Tag{}, nil
	}
	tags, err := r.Tags.ByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(tags, ports.TagOrder)
	if tags == nil {
		tags = []domain.Tag{}
	}
	return tags, nil
}

// Restore implements ports.Posts.
func (p *Posts) Restore(ctx context.Context, actor domain.Actor, id int64) (ports.PostView, error) {
	if err := checkPostWriter(domain.ByOwnRight(actor)); err != nil {
		return ports.PostView{}, err
	}
	var image string
	if err := p.store.InTx(ctx, func(r ports.Repos) error {
		trashed, err := r.Trash.Post(ctx, id)
		if err != nil {
			return err
		}
		if trashed.Post.AuthorID() != actor.User.ID {
			return domain.ErrNotFound
		}
		if _, err = restorePost(ctx, r, p.files, trashed, actor.User, p.clock.Now()); err == nil {
			image = trashed.Post.ImagePath()
		}
		return err
	}); err != nil {
		if image != "" {
			// The commit failed after the image came back: the post is
			// still in the trash, and so goes its image.
			_ = p.files.MoveToTrash(context.WithoutCancel(ctx), image)
		}
		return ports.PostView{}, fmt.Errorf("restore post %d: %w", id, err)
	}
	return p.Show(ctx, actor, id, true)
}

// restorePost moves trashed back in r's transaction under its slug, or
// under a free suffix of its title's when a live post took the slug
// meanwhile, brings its image back to where it is served and records
// post.restored, last, so that only the commit can fail after the image
// moved: the caller then moves it back to the trash.
func restorePost(ctx context.Context, r ports.Repos, files ports.FileStore, trashed ports.TrashedPost, author domain.User, now time.Time) (domain.Post, error) {
	post := trashed.Post
	taken, err := r.Trash.SlugTaken(ctx, post.Slug())
	if err != nil {
		return domain.Post{}, err
	}
	if taken {
		n, err := r.Posts.LastSlugSuffix(ctx, domain.Slugify(post.Title()))
		if err != nil {
			return domain.Post{}, err
		}
		post = post.WithSlugSuffix(max(n, 1) + 1)
	}
	if err := r.Trash.RestorePost(ctx, post.ID(), post.Slug()); err != nil {
		return domain.Post{}, err
	}
	tags, err := tagsOf(ctx, r, post.ID())
	if err != nil {
		return domain.Post{}, err
	}
	if err := record(ctx, r, domain.NewPostEvent(domain.PostRestored, post, author, tags, now)); err != nil {
		return domain.Post{}, err
	}
	if image := post.ImagePath(); image != "" {
		if err := files.MoveFromTrash(ctx, image); err != nil {
			return domain.Post{}, err
		}
	}
	return post, nil
}

// Trashed implements ports.Posts.
func (p *Posts) Trashed(ctx context.Context, actor domain.Actor, page ports.Page) ([]ports.PostView, int, error) {
	if err := checkTrashRead(actor, page); err != nil {
		return nil, 0, err
	}
	r := p.store.Repos()
	trashed, total, err := r.Trash.Posts(ctx, actor.User.ID, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list trashed posts: %w", err)
	}
	views, err := trashedViews(ctx, r, trashed, actor.User)
	if err != nil {
		return nil, 0, fmt.Errorf("list trashed posts: %w", err)
	}
	return views, total, nil
}

// checkTrashRead checks that actor, signed in, may read posts, its trash
// among them, a page of page's size at a time.
func checkTrashRead(actor domain.Actor, page ports.Page) error {
	if err := actor.CheckPostRead(); err != nil {
		return err
	}
	if actor.User.ID == 0 {
		return domain.ErrUnauthenticated
	}
	return domain.CheckPageSize(page.Limit)
}

// trashedViews presents trashed posts as the post routes show posts, with
// their tags that still exist, read in one look-up for all of them, and
// when they were trashed; each post's author is found among authors.
func trashedViews(ctx context.Context, r ports.Repos, trashed []ports.TrashedPost, authors ...domain.User) ([]ports.PostView, error) {
	byAuthor := make(map[int64]domain.Author, len(authors))
	for _, u := range authors {
		byAuthor[u.ID] = u.Author()
	}
	var ids []int64
	for _, t := range trashed {
		ids = append(ids, t.TagIDs...)
	}
	byID := map[int64]domain.Tag{}
	if len(ids) > 0 {
		tags, err := r.Tags.ByIDs(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, t := range tags {
			byID[t.ID] = t
		}
	}
	views := make([]ports.PostView, len(trashed))
	for i, t := range trashed {
		tags := []domain.Tag{}
		for _, id := range t.TagIDs {
			if tag, ok := byID[id]; ok {
				tags = append(tags, tag)
			}
		}
		slices.SortFunc(tags, ports.TagOrder)
		at := t.DeletedAt
		views[i] = ports.PostView{Post: t.Post, Author: byAuthor[t.Post.AuthorID()], Tags: tags, DeletedAt: &at}
	}
	return views, nil
}

// ListWithTrashed implements ports.Posts. The actor's whole trash is read
// and filtered here (the retention keeps it short), then merged with the
// first page.Offset + page.Limit posts of the live list.
func (p *Posts) ListWithTrashed(ctx context.Context, actor domain.Actor, f ports.PostFilter, page ports.Page) ([]ports.PostView, int, error) {
	if err := checkTrashRead(actor, page); err != nil {
		return nil, 0, err
	}
	if err := checkSearch("search", f.Search); err != nil {
		return nil, 0, err
	}
	reach := max(page.Offset, 0) + page.Limit
	if reach > ports.MaxWithTrashedReach {
		return nil, 0, domain.InvalidFields(domain.Violation{Field: "page",
			Rule: domain.RuleN(domain.RuleMaxValue, int64(ports.MaxWithTrashedReach/page.Limit))})
	}
	f.Viewer = actor.User.ID
	r := p.store.Repos()
	live, total, err := r.PostViews.ListViews(ctx, f, ports.Page{Limit: reach})
	if err != nil {
		return nil, 0, fmt.Errorf("list posts with trashed: %w", err)
	}
	var mine []ports.TrashedPost
	if f.AuthorID == 0 || f.AuthorID == actor.User.ID {
		if mine, _, err = r.Trash.Posts(ctx, actor.User.ID, ports.Page{}); err != nil {
			return nil, 0, fmt.Errorf("list posts with trashed: %w", err)
		}
	}
	trashed, err := trashedViews(ctx, r, mine, actor.User)
	if err != nil {
		return nil, 0, fmt.Errorf("list posts with trashed: %w", err)
	}
	trashed = slices.DeleteFunc(trashed, func(v ports.PostView) bool { return !matches(f, v) })
	all := append(live, trashed...)
	slices.SortFunc(all, func(a, b ports.PostView) int {
		return cmp.Or(b.Post.CreatedAt().Compare(a.Post.CreatedAt()), cmp.Compare(b.Post.ID(), a.Post.ID()))
	})
	from := min(max(page.Offset, 0), len(all))
	to := min(from+page.Limit, len(all))
	return all[from:to], total + len(trashed), nil
}

// matches reports whether f keeps the trashed post of v, as the stores'
// lists would keep it were it live (ports.PostFilter).
func matches(f ports.PostFilter, v ports.PostView) bool {
	post := v.Post
	switch {
	case f.Status != "" && post.Status() != f.Status:
		return false
	case f.Search != "" && !strings.Contains(strings.ToLower(post.Title()), strings.ToLower(f.Search)):
		return false
	case f.TagSlug != "" && !slices.ContainsFunc(v.Tags, func(t domain.Tag) bool { return t.Slug == f.TagSlug }):
		return false
	}
	return true
}

// Purge implements ports.Comments.
func (c *Comments) Purge(ctx context.Context, actor domain.Actor, id int64, pre ports.Precondition) error {
	if err := actor.CheckAbility(domain.WriteComments); err != nil {
		return err
	}
	if err := actor.CheckWrite(); err != nil {
		return err
	}
	err := c.store.InTx(ctx, func(r ports.Repos) error {
		comment, post, err := lockedComment(ctx, r, actor, id)
		live := err == nil
		switch {
		case live:
			if !comment.CanDelete(domain.ByOwnRight(actor), post) {
				return domain.ErrForbidden
			}
		case errors.Is(err, domain.ErrNotFound):
			if comment, post, err = trashedComment(ctx, r, actor, id); err != nil {
				return err
			}
		default:
			return err
		}
		if !pre.Allows(comment.UpdatedAt) {
			return domain.ErrPreconditionFailed
		}
		author, err := authorOr(ctx, r, comment.UserID, actor.User)
		if err != nil {
			return err
		}
		if live {
			err = r.Comments.Delete(ctx, id)
		} else {
			err = r.Trash.PurgeComment(ctx, id)
		}
		if err != nil {
			return err
		}
		return record(ctx, r, domain.NewCommentEvent(domain.CommentDeleted, comment, author, post, c.clock.Now()))
	})
	if err != nil {
		return fmt.Errorf("purge comment %d: %w", id, err)
	}
	return nil
}

// trashedComment returns trashed comment id and its post, live or
// trashed, when the actor could have deleted it; domain.ErrNotFound
// otherwise, since the trash is nobody else's business.
func trashedComment(ctx context.Context, r ports.Repos, actor domain.Actor, id int64) (domain.Comment, domain.Post, error) {
	t, err := r.Trash.Comment(ctx, id)
	if err != nil {
		return domain.Comment{}, domain.Post{}, err
	}
	post, err := anyPost(ctx, r, t.Comment.PostID)
	if err != nil {
		return domain.Comment{}, domain.Post{}, err
	}
	if actor.User.ID == 0 || !t.Comment.CanDelete(domain.ByOwnRight(actor), post) {
		return domain.Comment{}, domain.Post{}, domain.ErrNotFound
	}
	return t.Comment, post, nil
}

// anyPost returns post id, live or trashed.
func anyPost(ctx context.Context, r ports.Repos, id int64) (domain.Post, error) {
	post, err := r.Posts.Get(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		t, err := r.Trash.Post(ctx, id)
		return t.Post, err
	}
	return post, err
}

// Restore implements ports.Comments.
func (c *Comments) Restore(ctx context.Context, actor domain.Actor, id int64) (ports.CommentView, error) {
	if err := actor.CheckAbility(domain.WriteComments); err != nil {
		return ports.CommentView{}, err
	}
	if err := actor.CheckWrite(); err != nil {
		return ports.CommentView{}, err
	}
	var view ports.CommentView
	err := c.store.InTx(ctx, func(r ports.Repos) error {
		comment, post, err := trashedComment(ctx, r, actor, id)
		if err != nil {
			return err
		}
		if err := r.Trash.RestoreComment(ctx, id); err != nil {
			return err
		}
		author, err := authorOr(ctx, r, comment.UserID, actor.User)
		if err != nil {
			return err
		}
		view = ports.CommentView{Comment: comment, Author: author.Author()}
		return record(ctx, r, domain.NewCommentEvent(domain.CommentRestored, comment, author, post, c.clock.Now()))
	})
	if err != nil {
		return ports.CommentView{}, fmt.Errorf("restore comment %d: %w", id, err)
	}
	return view, nil
}
