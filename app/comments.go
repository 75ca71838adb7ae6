package app

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Comments implements ports.Comments.
type Comments struct {
	store ports.Store
	clock ports.Clock
}

// NewComments returns the comment use cases.
func NewComments(store ports.Store, clock ports.Clock) *Comments {
	return &Comments{store: store, clock: clock}
}

var _ ports.Comments = (*Comments)(nil)

// List implements ports.Comments.
func (c *Comments) List(ctx context.Context, actor domain.Actor, postID int64, page ports.Page) ([]ports.CommentView, int, error) {
	if err := domain.CheckPageSize(page.Limit); err != nil {
		return nil, 0, err
	}
	repos := c.store.Repos()
	if _, err := visiblePost(ctx, repos, actor, postID); err != nil {
		return nil, 0, fmt.Errorf("list comments of post %d: %w", postID, err)
	}
	views, total, err := repos.Comments.ListByPost(ctx, postID, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list comments of post %d: %w", postID, err)
	}
	return views, total, nil
}

// Create implements ports.Comments.
func (c *Comments) Create(ctx context.Context, actor domain.Actor, postID int64, body string) (ports.CommentView, error) {
	if err := actor.CheckAbility(domain.WriteComments); err != nil {
		return ports.CommentView{}, err
	}
	if err := actor.CheckWrite(); err != nil {
		return ports.CommentView{}, err
	}
	now := c.clock.Now()
	comment, err := domain.NewComment(postID, actor.User.ID, body, now)
	if err != nil {
		return ports.CommentView{}, err
	}
	err = c.store.InTx(ctx, func(r ports.Repos) error {
		post, err := visiblePost(ctx, r, actor, postID)
		if err != nil {
			return err
		}
		if err := r.Comments.Create(ctx, &comment); err != nil {
			return err
		}
		return record(ctx, r, domain.NewCommentEvent(domain.CommentCreated, comment, actor.User, post, now))
	})
	if err != nil {
		return ports.CommentView{}, fmt.Errorf("comment on post %d: %w", postID, err)
	}
	return ports.CommentView{Comment: comment, Author: actor.User.Author()}, nil
}

// Get implements ports.Comments.
func (c *Comments) Get(ctx context.Context, actor domain.Actor, id int64) (ports.CommentView, error) {
	repos := c.store.Repos()
	comment, _, err := visibleComment(ctx, repos, actor, id)
	if err != nil {
		return ports.CommentView{}, fmt.Errorf("get comment %d: %w", id, err)
	}
	author, err := repos.Users.ByID(ctx, comment.UserID)
	if err != nil {
		return ports.CommentView{}, fmt.Errorf("get comment %d: %w", id, err)
	}
	return ports.CommentView{Comment: comment, Author: author.Author()}, nil
}

// Update implements ports.Comments.
func (c *Comments) Update(ctx context.Context, actor domain.Actor, id int64, body string, pre ports.Precondition) (ports.CommentView, error) {
	if err := actor.CheckAbility(domain.WriteComments); err != nil {
		return ports.CommentView{}, err
	}
	if err := actor.CheckWrite(); err != nil {
		return ports.CommentView{}, err
	}
	var comment domain.Comment
	err := c.store.InTx(ctx, func(r ports.Repos) error {
		var post domain.Post
		var err error
		if comment, post, err = lockedComment(ctx, r, actor, id); err != nil {
			return err
		}
		if !comment.CanEdit(actor.User.ID) {
			return domain.ErrForbidden
		}
		if !pre.Allows(comment.UpdatedAt) {
			return domain.ErrPreconditionFailed
		}
		if err := comment.Edit(body, c.clock.Now()); err != nil {
			return err
		}
		if err := r.Comments.Update(ctx, comment); err != nil {
			return err
		}
		return record(ctx, r, domain.NewCommentEvent(domain.CommentUpdated, comment, actor.User, post, comment.UpdatedAt))
	})
	if err != nil {
		return ports.CommentView{}, fmt.Errorf("update comment %d: %w", id, err)
	}
	return ports.CommentView{Comment: comment, Author: actor.User.Author()}, nil
}

// Delete implements ports.Comments: the comment goes to the trash alone.
// A deletion by admin right is audited as comment.delete.
func (c *Comments) Delete(ctx context.Context, actor domain.Acting, id int64, pre ports.Precondition) error {
	if err := actor.CheckAbility(domain.WriteComments); err != nil {
		return err
	}
	if err := actor.CheckWrite(); err != nil {
		return err
	}
	err := c.store.InTx(ctx, func(r ports.Repos) error {
		actor, err := rightful(ctx, r, actor)
		if err != nil {
			return err
		}
		comment, err := r.Comments.Lock(ctx, id)
		if err != nil {
			return err
		}
		post, err := r.Posts.Get(ctx, comment.PostID)
		if err != nil {
			return err
		}
		if !actor.Sees(post) {
			return domain.ErrNotFound
		}
		if !comment.CanDelete(actor, post) {
			return domain.ErrForbidden
		}
		if !pre.Allows(comment.UpdatedAt) {
			return domain.ErrPreconditionFailed
		}
		// The post's author or an admin may delete another's comment,
		// whose author the event shows.
		author, err := authorOr(ctx, r, comment.UserID, actor.User)
		if err != nil {
			return err
		}
		now := c.clock.Now()
		if err := r.Trash.TrashComment(ctx, id, now); err != nil {
			return err
		}
		if err := audit(ctx, r, actor, domain.AuditCommentDelete, domain.SubjectComment, id, now); err != nil {
			return err
		}
		return record(ctx, r, domain.NewCommentEvent(domain.CommentTrashed, comment, author, post, now))
	})
	if err != nil {
		return fmt.Errorf("delete comment %d: %w", id, err)
	}
	return nil
}

// visiblePost returns the post if the actor may see it; a draft of somebody
// else is not found, comments included.
func visiblePost(ctx context.Context, r ports.Repos, actor domain.Actor, id int64) (domain.Post, error) {
	post, err := r.Posts.Get(ctx, id)
	if err != nil {
		return domain.Post{}, err
	}
	if !post.VisibleTo(actor.User.ID) {
		return domain.Post{}, domain.ErrNotFound
	}
	return post, nil
}

// visibleComment returns the comment and its post if the actor may see them.
func visibleComment(ctx context.Context, r ports.Repos, actor domain.Actor, id int64) (domain.Comment, domain.Post, error) {
	comment, err := r.Comments.Get(ctx, id)
	if err != nil {
		return domain.Comment{}, domain.Post{}, err
	}
	return commentOnVisiblePost(ctx, r, actor, comment)
}

// lockedComment is visibleComment for a change: the comment stays locked
// until the transaction ends, so that the version a precondition checks is
// the one replaced.
func lockedComment(ctx context.Context, r ports.Repos, actor domain.Actor, id int64) (domain.Comment, domain.Post, error) {
	comment, err := r.Comments.Lock(ctx, id)
	if err != nil {
		return domain.Comment{}, domain.Post{}, err
	}
	return commentOnVisiblePost(ctx, r, actor, comment)
}

// commentOnVisiblePost returns comment and its post if the actor may see
// the post.
func commentOnVisiblePost(ctx context.Context, r ports.Repos, actor domain.Actor, comment domain.Comment) (domain.Comment, domain.Post, error) {
	post, err := visiblePost(ctx, r, actor, comment.PostID)
	if err != nil {
		return domain.Comment{}, domain.Post{}, err
	}
	return comment, post, nil
}
