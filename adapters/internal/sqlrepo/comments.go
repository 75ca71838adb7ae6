package sqlrepo

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// CommentQueries are a store's statements on comments.
type CommentQueries interface {
	// CreateComment inserts c; a missing post or user violates a foreign
	// key, which the store's Border turns into domain.ErrNotFound.
	CreateComment(ctx context.Context, c domain.Comment) (int64, error)
	GetComment(ctx context.Context, id int64) (domain.Comment, error)
	// LockComment reads the comment and holds it until the transaction
	// ends.
	LockComment(ctx context.Context, id int64) (domain.Comment, error)
	UpdateComment(ctx context.Context, c domain.Comment) (int64, error)
	DeleteComment(ctx context.Context, id int64) (int64, error)
	// ListCommentsByPost reads a page of the post's comments with their
	// authors and, on every row, the post's total: with no row, a total of
	// 0.
	ListCommentsByPost(ctx context.Context, postID int64, page ports.Page) ([]ports.CommentView, int64, error)
	CountCommentsByPost(ctx context.Context, postID int64) (int64, error)
}

// Comments is ports.CommentRepository.
type Comments struct {
	Q CommentQueries
	B Border
}

var _ ports.CommentRepository = Comments{}

func (r Comments) Create(ctx context.Context, c *domain.Comment) error {
	id, err := r.Q.CreateComment(ctx, *c)
	if err != nil {
		return r.B.Err(fmt.Sprintf("create comment on post %d", c.PostID), err)
	}
	c.ID = id
	return nil
}

func (r Comments) Get(ctx context.Context, id int64) (domain.Comment, error) {
	c, err := r.Q.GetComment(ctx, id)
	if err != nil {
		return domain.Comment{}, r.B.Err(fmt.Sprintf("get comment %d", id), err)
	}
	return c, nil
}

func (r Comments) Lock(ctx context.Context, id int64) (domain.Comment, error) {
	c, err := r.Q.LockComment(ctx, id)
	if err != nil {
		return domain.Comment{}, r.B.Err(fmt.Sprintf("lock comment %d", id), err)
	}
	return c, nil
}

func (r Comments) Update(ctx context.Context, c domain.Comment) error {
	n, err := r.Q.UpdateComment(ctx, c)
	return r.B.Affected(fmt.Sprintf("update comment %d", c.ID), n, err)
}

func (r Comments) Delete(ctx context.Context, id int64) error {
	n, err := r.Q.DeleteComment(ctx, id)
	return r.B.Affected(fmt.Sprintf("delete comment %d", id), n, err)
}

// ListByPost reads the page, its authors and the post's total with one
// statement; only a page past the end, which has no row to carry the
// total, costs a second.
func (r Comments) ListByPost(ctx context.Context, postID int64, page ports.Page) ([]ports.CommentView, int, error) {
	op := fmt.Sprintf("list comments of post %d", postID)
	list, total, err := r.Q.ListCommentsByPost(ctx, postID, page)
	if err != nil {
		return nil, 0, r.B.Err(op, err)
	}
	if len(list) == 0 && page.Offset > 0 {
		if total, err = r.Q.CountCommentsByPost(ctx, postID); err != nil {
			return nil, 0, r.B.Err(op, err)
		}
	}
	return list, int(total), nil
}
