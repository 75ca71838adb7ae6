package postgres

import (
	"context"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// Comments implements ports.AdminRepository with one of four statements
// for each order (adminComments). The count stops at countTo + 1 rows.
func (r admin) Comments(ctx context.Context, q ports.AdminCommentQuery, countTo int) ([]ports.AdminComment, int, error) {
	return adminComments.List(ctx, r.q, q, countTo)
}

// adminComments are the statements of admin_comments.sql; a set of posts
// goes to them as an array.
var adminComments = sqlrepo.AdminComments[*db.Queries, []int64]{
	PostSet: func(posts []int64) ([]int64, error) { return posts, nil },
	Page: func(p ports.Page) (int64, int64) {
		lim, off := pageOf(p)
		return int64(lim), int64(off)
	},
	B: border,
	All: sqlrepo.CommentStatements[*db.Queries, []int64]{
		Newest: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) ([]ports.AdminComment, error) {
			return adminCommentsOf(rd.AdminListComments(ctx, db.AdminListCommentsParams{Lim: f.Lim, Off: f.Off}))
		},
		Oldest: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) ([]ports.AdminComment, error) {
			return adminCommentsOf(rd.AdminListCommentsOldest(ctx, db.AdminListCommentsOldestParams{Lim: f.Lim, Off: f.Off}))
		},
		Count: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) (int64, error) {
			return rd.AdminCountComments(ctx, f.UpTo)
		},
	},
	Posts: sqlrepo.CommentStatements[*db.Queries, []int64]{
		Newest: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) ([]ports.AdminComment, error) {
			return adminCommentsOf(rd.AdminListPostComments(ctx, db.AdminListPostCommentsParams{PostIds: f.Posts, Lim: f.Lim, Off: f.Off}))
		},
		Oldest: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) ([]ports.AdminComment, error) {
			return adminCommentsOf(rd.AdminListPostCommentsOldest(ctx, db.AdminListPostCommentsOldestParams{PostIds: f.Posts, Lim: f.Lim, Off: f.Off}))
		},
		Count: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) (int64, error) {
			return rd.AdminCountPostComments(ctx, db.AdminCountPostCommentsParams{PostIds: f.Posts, Lim: f.UpTo})
		},
	},
	User: sqlrepo.CommentStatements[*db.Queries, []int64]{
		Newest: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) ([]ports.AdminComment, error) {
			return adminCommentsOf(rd.AdminListUserComments(ctx, db.AdminListUserCommentsParams{UserID: f.UserID, Lim: f.Lim, Off: f.Off}))
		},
		Oldest: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) ([]ports.AdminComment, error) {
			return adminCommentsOf(rd.AdminListUserCommentsOldest(ctx, db.AdminListUserCommentsOldestParams{UserID: f.UserID, Lim: f.Lim, Off: f.Off}))
		},
		Count: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) (int64, error) {
			return rd.AdminCountUserComments(ctx, db.AdminCountUserCommentsParams{UserID: f.UserID, Lim: f.UpTo})
		},
	},
	PostsUser: sqlrepo.CommentStatements[*db.Queries, []int64]{
		Newest: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) ([]ports.AdminComment, error) {
			return adminCommentsOf(rd.AdminListPostUserComments(ctx, db.AdminListPostUserCommentsParams{PostIds: f.Posts, UserID: f.UserID, Lim: f.Lim, Off: f.Off}))
		},
		Oldest: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) ([]ports.AdminComment, error) {
			return adminCommentsOf(rd.AdminListPostUserCommentsOldest(ctx, db.AdminListPostUserCommentsOldestParams{PostIds: f.Posts, UserID: f.UserID, Lim: f.Lim, Off: f.Off}))
		},
		Count: func(ctx context.Context, rd *db.Queries, f sqlrepo.CommentFilter[[]int64]) (int64, error) {
			return rd.AdminCountPostUserComments(ctx, db.AdminCountPostUserCommentsParams{PostIds: f.Posts, UserID: f.UserID, Lim: f.UpTo})
		},
	},
}

// adminCommentsOf converts the rows of any of the statements of
// admin_comments.sql.
func adminCommentsOf[R sqlrepo.AdminCommentRow[db.Comment]](rows []R, err error) ([]ports.AdminComment, error) {
	return sqlrepo.AdminCommentsOf(rows, commentOf), err
}
