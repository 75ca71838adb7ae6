package sqlite

import (
	"context"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// commentQueries are sqlrepo.CommentQueries.
type commentQueries struct{ c conns }

var _ sqlrepo.CommentQueries = commentQueries{}

func (q commentQueries) CreateComment(ctx context.Context, c domain.Comment) (int64, error) {
	return q.c.write.CreateComment(ctx, db.CreateCommentParams{
		PostID:    c.PostID,
		UserID:    c.UserID,
		Body:      c.Body,
		CreatedAt: dbTime(c.CreatedAt),
		UpdatedAt: dbTime(c.UpdatedAt),
	})
}

func (q commentQueries) GetComment(ctx context.Context, id int64) (domain.Comment, error) {
	row, err := q.c.read.GetComment(ctx, id)
	return commentOf(row), err
}

// LockComment reads the comment. Inside InTx no more is needed: the
// transaction began IMMEDIATE and holds SQLite's single write lock.
func (q commentQueries) LockComment(ctx context.Context, id int64) (domain.Comment, error) {
	return q.GetComment(ctx, id)
}

func (q commentQueries) UpdateComment(ctx context.Context, c domain.Comment) (int64, error) {
	return q.c.write.UpdateComment(ctx, db.UpdateCommentParams{Body: c.Body, UpdatedAt: dbTime(c.UpdatedAt), ID: c.ID})
}

func (q commentQueries) DeleteComment(ctx context.Context, id int64) (int64, error) {
	return q.c.write.DeleteComment(ctx, id)
}

func (q commentQueries) ListCommentsByPost(ctx context.Context, postID int64, page ports.Page) ([]ports.CommentView, int64, error) {
	limit, offset := pageBounds(page)
	rows, err := q.c.read.ListCommentsByPost(ctx, db.ListCommentsByPostParams{PostID: postID, RowLimit: limit, RowOffset: offset})
	var total int64
	for _, row := range rows {
		total = row.Total
	}
	return sqlrepo.Rows(rows, commentViewOf), total, err
}

func (q commentQueries) CountCommentsByPost(ctx context.Context, postID int64) (int64, error) {
	return q.c.read.CountCommentsByPost(ctx, postID)
}

func commentViewOf(row db.ListCommentsByPostRow) ports.CommentView {
	c := commentOf(row.Comment)
	return ports.CommentView{Comment: c, Author: domain.Author{ID: c.UserID, Name: row.AuthorName, AvatarPath: row.AuthorAvatarPath}}
}

func commentOf(row db.Comment) domain.Comment {
	return sqlrepo.CommentOf(values, row)
}
