package postgres

import (
	"context"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// commentQueries are sqlrepo.CommentQueries.
type commentQueries struct{ q *db.Queries }

var _ sqlrepo.CommentQueries = commentQueries{}

func (r commentQueries) CreateComment(ctx context.Context, c domain.Comment) (int64, error) {
	return r.q.CreateComment(ctx, db.CreateCommentParams{
		PostID:    c.PostID,
		UserID:    c.UserID,
		Body:      c.Body,
		CreatedAt: dbTime(c.CreatedAt),
		UpdatedAt: dbTime(c.UpdatedAt),
	})
}

func (r commentQueries) GetComment(ctx context.Context, id int64) (domain.Comment, error) {
	row, err := r.q.GetComment(ctx, id)
	return commentOf(row), err
}

func (r commentQueries) LockComment(ctx context.Context, id int64) (domain.Comment, error) {
	row, err := r.q.LockComment(ctx, id)
	return commentOf(row), err
}

func (r commentQueries) UpdateComment(ctx context.Context, c domain.Comment) (int64, error) {
	return r.q.UpdateComment(ctx, db.UpdateCommentParams{ID: c.ID, Body: c.Body, UpdatedAt: dbTime(c.UpdatedAt)})
}

func (r commentQueries) DeleteComment(ctx context.Context, id int64) (int64, error) {
	return r.q.DeleteComment(ctx, id)
}

func (r commentQueries) ListCommentsByPost(ctx context.Context, postID int64, page ports.Page) ([]ports.CommentView, int64, error) {
	limit, offset := pageBounds(page)
	rows, err := r.q.ListCommentsByPost(ctx, db.ListCommentsByPostParams{PostID: postID, RowLimit: limit, RowOffset: offset})
	var total int64
	for _, row := range rows {
		total = row.Total
	}
	return sqlrepo.Rows(rows, commentViewOf), total, err
}

func (r commentQueries) CountCommentsByPost(ctx context.Context, postID int64) (int64, error) {
	return r.q.CountCommentsByPost(ctx, postID)
}

func commentViewOf(row db.ListCommentsByPostRow) ports.CommentView {
	c := commentOf(row.Comment)
	return ports.CommentView{Comment: c, Author: domain.Author{ID: c.UserID, Name: row.AuthorName, AvatarPath: row.AuthorAvatarPath}}
}

func commentOf(row db.Comment) domain.Comment {
	return sqlrepo.CommentOf(values, row)
}
