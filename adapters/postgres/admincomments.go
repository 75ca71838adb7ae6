package postgres

import (
	"context"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// Comments implements ports.AdminRepository with one of four statements,
// so that each filter walks its own index (admin_comments.sql). The count
// stops at countTo + 1 rows.
func (r admin) Comments(ctx context.Context, q ports.AdminCommentQuery, countTo int) ([]ports.AdminComment, int, error) {
	l, o := pageOf(q.Page)
	lim, off := int64(l), int64(o)
	upTo := int64(max(countTo, 0)) + 1
	var (
		rows  []db.AdminListCommentsRow
		total int64
		err   error
	)
	switch {
	case q.PostID > 0 && q.UserID > 0:
		var rs []db.AdminListPostUserCommentsRow
		rs, err = r.q.AdminListPostUserComments(ctx, db.AdminListPostUserCommentsParams{PostID: q.PostID, UserID: q.UserID, Lim: lim, Off: off})
		for _, row := range rs {
			rows = append(rows, db.AdminListCommentsRow(row))
		}
		if err == nil {
			total, err = r.q.AdminCountPostUserComments(ctx, db.AdminCountPostUserCommentsParams{PostID: q.PostID, UserID: q.UserID, Lim: upTo})
		}
	case q.PostID > 0:
		var rs []db.AdminListPostCommentsRow
		rs, err = r.q.AdminListPostComments(ctx, db.AdminListPostCommentsParams{PostID: q.PostID, Lim: lim, Off: off})
		for _, row := range rs {
			rows = append(rows, db.AdminListCommentsRow(row))
		}
		if err == nil {
			total, err = r.q.AdminCountPostComments(ctx, db.AdminCountPostCommentsParams{PostID: q.PostID, Lim: upTo})
		}
	case q.UserID > 0:
		var rs []db.AdminListUserCommentsRow
		rs, err = r.q.AdminListUserComments(ctx, db.AdminListUserCommentsParams{UserID: q.UserID, Lim: lim, Off: off})
		for _, row := range rs {
			rows = append(rows, db.AdminListCommentsRow(row))
		}
		if err == nil {
			total, err = r.q.AdminCountUserComments(ctx, db.AdminCountUserCommentsParams{UserID: q.UserID, Lim: upTo})
		}
	default:
		if rows, err = r.q.AdminListComments(ctx, db.AdminListCommentsParams{Lim: lim, Off: off}); err == nil {
			total, err = r.q.AdminCountComments(ctx, upTo)
		}
	}
	if err != nil {
		return nil, 0, storeError("list comments", err)
	}
	out := make([]ports.AdminComment, len(rows))
	for i, row := range rows {
		out[i] = ports.AdminComment{Comment: commentOf(row.Comment), AuthorEmail: row.AuthorEmail, PostTitle: row.PostTitle}
	}
	return out, int(total), nil
}
