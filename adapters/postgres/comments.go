package postgres

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// comments implements ports.CommentRepository.
type comments struct{ q *db.Queries }

var _ ports.CommentRepository = comments{}

func (r comments) Create(ctx context.Context, c *domain.Comment) error {
	id, err := r.q.CreateComment(ctx, db.CreateCommentParams{
		PostID:    c.PostID,
		UserID:    c.UserID,
		Body:      c.Body,
		CreatedAt: dbTime(c.CreatedAt),
		UpdatedAt: dbTime(c.UpdatedAt),
	})
	if err != nil {
		// A missing post or user is a foreign-key violation:
		// domain.ErrNotFound.
		return storeError(fmt.Sprintf("create comment on post %d", c.PostID), err)
	}
	c.ID = id
	return nil
}

func (r comments) Get(ctx context.Context, id int64) (domain.Comment, error) {
	row, err := r.q.GetComment(ctx, id)
	if err != nil {
		return domain.Comment{}, storeError(fmt.Sprintf("get comment %d", id), err)
	}
	return commentOf(row), nil
}

func (r comments) Lock(ctx context.Context, id int64) (domain.Comment, error) {
	row, err := r.q.LockComment(ctx, id)
	if err != nil {
		return domain.Comment{}, storeError(fmt.Sprintf("lock comment %d", id), err)
	}
	return commentOf(row), nil
}

func (r comments) Update(ctx context.Context, c domain.Comment) error {
	op := fmt.Sprintf("update comment %d", c.ID)
	n, err := r.q.UpdateComment(ctx, db.UpdateCommentParams{ID: c.ID, Body: c.Body, UpdatedAt: dbTime(c.UpdatedAt)})
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func (r comments) Delete(ctx context.Context, id int64) error {
	op := fmt.Sprintf("delete comment %d", id)
	n, err := r.q.DeleteComment(ctx, id)
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func (r comments) ListByPost(ctx context.Context, postID int64, page ports.Page) ([]ports.CommentView, int, error) {
	op := fmt.Sprintf("list comments of post %d", postID)
	limit, offset := pageBounds(page)
	rows, err := r.q.ListCommentsByPost(ctx, db.ListCommentsByPostParams{PostID: postID, RowLimit: limit, RowOffset: offset})
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	list := make([]ports.CommentView, len(rows))
	var total int64
	for i, row := range rows {
		total = row.Total
		list[i] = ports.CommentView{Comment: commentOf(row.Comment), Author: userOf(row.User)}
	}
	if len(rows) == 0 && offset > 0 {
		// A page past the end carries no total; count apart.
		if total, err = r.q.CountCommentsByPost(ctx, postID); err != nil {
			return nil, 0, storeError(op, err)
		}
	}
	return list, int(total), nil
}

func commentOf(row db.Comment) domain.Comment {
	return domain.Comment{
		ID:        row.ID,
		PostID:    row.PostID,
		UserID:    row.UserID,
		Body:      row.Body,
		CreatedAt: timeOf(row.CreatedAt),
		UpdatedAt: timeOf(row.UpdatedAt),
	}
}
