package sqlite

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// comments is ports.CommentRepository.
type comments struct{ c conns }

var _ ports.CommentRepository = comments{}

// Create stores c. A missing post or user violates a foreign key, which
// storeError turns into domain.ErrNotFound.
func (r comments) Create(ctx context.Context, c *domain.Comment) error {
	id, err := r.c.write.CreateComment(ctx, db.CreateCommentParams{
		PostID:    c.PostID,
		UserID:    c.UserID,
		Body:      c.Body,
		CreatedAt: dbTime(c.CreatedAt),
		UpdatedAt: dbTime(c.UpdatedAt),
	})
	if err != nil {
		return storeError(fmt.Sprintf("create comment on post %d", c.PostID), err)
	}
	c.ID = id
	return nil
}

func (r comments) Get(ctx context.Context, id int64) (domain.Comment, error) {
	row, err := r.c.read.GetComment(ctx, id)
	if err != nil {
		return domain.Comment{}, storeError(fmt.Sprintf("get comment %d", id), err)
	}
	return commentOf(row), nil
}

// Lock reads the comment. Inside InTx no more is needed: the transaction
// began IMMEDIATE and holds SQLite's single write lock.
func (r comments) Lock(ctx context.Context, id int64) (domain.Comment, error) {
	return r.Get(ctx, id)
}

func (r comments) Update(ctx context.Context, c domain.Comment) error {
	op := fmt.Sprintf("update comment %d", c.ID)
	n, err := r.c.write.UpdateComment(ctx, db.UpdateCommentParams{Body: c.Body, UpdatedAt: dbTime(c.UpdatedAt), ID: c.ID})
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
	n, err := r.c.write.DeleteComment(ctx, id)
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

// ListByPost reads the page, its authors and the post's total with one
// statement; only a page past the end, which has no row to carry the total,
// costs a second.
func (r comments) ListByPost(ctx context.Context, postID int64, page ports.Page) ([]ports.CommentView, int, error) {
	op := fmt.Sprintf("list comments of post %d", postID)
	limit, offset := pageBounds(page)
	rows, err := r.c.read.ListCommentsByPost(ctx, db.ListCommentsByPostParams{PostID: postID, RowLimit: limit, RowOffset: offset})
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
		if total, err = r.c.read.CountCommentsByPost(ctx, postID); err != nil {
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
