package app

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// TrashedPosts implements ports.Admin.
func (a *Admin) TrashedPosts(ctx context.Context, c ports.AdminCaller, page ports.Page) (ports.Counted[ports.AdminPost], error) {
	var none ports.Counted[ports.AdminPost]
	r, err := a.reads(ctx, c)
	if err != nil {
		return none, err
	}
	trashed, total, err := r.Trash.Posts(ctx, 0, capped(page))
	if err != nil {
		return none, fmt.Errorf("admin trashed posts: %w", err)
	}
	authors := make([]int64, len(trashed))
	for i, t := range trashed {
		authors[i] = t.Post.AuthorID()
	}
	users, err := r.Users.ByIDs(ctx, authors)
	if err != nil {
		return none, fmt.Errorf("admin trashed posts: %w", err)
	}
	emails := make(map[int64]string, len(users))
	for _, u := range users {
		emails[u.ID] = u.Email
	}
	views, err := trashedViews(ctx, r, trashed, users...)
	if err != nil {
		return none, fmt.Errorf("admin trashed posts: %w", err)
	}
	out := make([]ports.AdminPost, len(views))
	for i, v := range views {
		out[i] = ports.AdminPost{PostView: v, AuthorEmail: emails[v.Post.AuthorID()]}
	}
	return ports.Exact(out, total), nil
}

// TrashedComments implements ports.Admin.
func (a *Admin) TrashedComments(ctx context.Context, c ports.AdminCaller, page ports.Page) (ports.Counted[ports.AdminTrashedComment], error) {
	var none ports.Counted[ports.AdminTrashedComment]
	r, err := a.reads(ctx, c)
	if err != nil {
		return none, err
	}
	trashed, total, err := r.Trash.Comments(ctx, 0, capped(page))
	if err != nil {
		return none, fmt.Errorf("admin trashed comments: %w", err)
	}
	ids := make([]int64, len(trashed))
	for i, t := range trashed {
		ids[i] = t.Comment.UserID
	}
	users, err := r.Users.ByIDs(ctx, ids)
	if err != nil {
		return none, fmt.Errorf("admin trashed comments: %w", err)
	}
	byID := make(map[int64]domain.User, len(users))
	for _, u := range users {
		byID[u.ID] = u
	}
	out := make([]ports.AdminTrashedComment, len(trashed))
	for i, t := range trashed {
		out[i] = ports.AdminTrashedComment{Comment: t.Comment, Author: byID[t.Comment.UserID], DeletedAt: t.DeletedAt}
	}
	return ports.Exact(out, total), nil
}

// RestorePost implements ports.Admin with the author's restore.
func (a *Admin) RestorePost(ctx context.Context, c ports.AdminCaller, id int64) error {
	var image string
	err := a.act(ctx, c, domain.AuditPostRestore, domain.SubjectPost, id, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		trashed, err := r.Trash.Post(ctx, id)
		if err != nil {
			return nil, err
		}
		author, err := r.Users.ByID(ctx, trashed.Post.AuthorID())
		if err != nil {
			return nil, err
		}
		if _, err := restorePost(ctx, r, a.files, trashed, author, now); err != nil {
			return nil, err
		}
		image = trashed.Post.ImagePath()
		return nil, nil
	})
	if err != nil && image != "" {
		_ = a.files.MoveToTrash(context.WithoutCancel(ctx), image)
	}
	return err
}

// PurgePost implements ports.Admin.
func (a *Admin) PurgePost(ctx context.Context, c ports.AdminCaller, id int64) error {
	var image string
	err := a.act(ctx, c, domain.AuditPostPurge, domain.SubjectPost, id, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		var err error
		image, err = purgePost(ctx, r, domain.User{}, id, ports.Precondition{}, now, allow, allow)
		return nil, err
	})
	if err != nil {
		return err
	}
	removeFiles(ctx, a.files, image)
	return nil
}

// RestoreComment implements ports.Admin.
func (a *Admin) RestoreComment(ctx context.Context, c ports.AdminCaller, id int64) error {
	return a.act(ctx, c, domain.AuditCommentRestore, domain.SubjectComment, id, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		trashed, err := r.Trash.Comment(ctx, id)
		if err != nil {
			return nil, err
		}
		post, err := r.Posts.Get(ctx, trashed.Comment.PostID)
		if err != nil {
			return nil, err
		}
		author, err := r.Users.ByID(ctx, trashed.Comment.UserID)
		if err != nil {
			return nil, err
		}
		if err := r.Trash.RestoreComment(ctx, id); err != nil {
			return nil, err
		}
		return []domain.Event{domain.NewCommentEvent(domain.CommentRestored, trashed.Comment, author, post, now)}, nil
	})
}

// PurgeComment implements ports.Admin.
func (a *Admin) PurgeComment(ctx context.Context, c ports.AdminCaller, id int64) error {
	return a.act(ctx, c, domain.AuditCommentPurge, domain.SubjectComment, id, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		trashed, err := r.Trash.Comment(ctx, id)
		if err != nil {
			return nil, err
		}
		return nil, purgeTrashedComment(ctx, r, trashed.Comment, now)
	})
}
