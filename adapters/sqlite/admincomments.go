package sqlite

import (
	"context"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// Comments implements ports.AdminRepository with one of four statements,
// so that each filter walks its own index (admin_comments.sql). The count
// stops at countTo + 1 rows.
func (r admin) Comments(ctx context.Context, q ports.AdminCommentQuery, countTo int) ([]ports.AdminComment, int, error) {
	lim, off := pageOf(q.Page)
	upTo := int64(max(countTo, 0)) + 1
	var (
		rows  []db.AdminListCommentsRow
		total int64
		err   error
	)
	switch {
	case q.PostID > 0 && q.UserID > 0:
		var rs []db.AdminListPostUserCommentsRow
		rs, err = r.c.read.AdminListPostUserComments(ctx, db.AdminListPostUserCommentsParams{PostID: q.PostID, UserID: q.UserID, Lim: lim, Off: off})
		for _, row := range rs {
			rows = append(rows, db.AdminListCommentsRow(row))
		}
		if err == nil {
			total, err = r.c.read.AdminCountPostUserComments(ctx, db.AdminCountPostUserCommentsParams{PostID: q.PostID, UserID: q.UserID, Lim: upTo})
		}
	case q.PostID > 0:
		var rs []db.AdminListPostCommentsRow
		rs, err = r.c.read.AdminListPostComments(ctx, db.AdminListPostCommentsParams{PostID: q.PostID, Lim: lim, Off: off})
		for _, row := range rs {
			rows = append(rows, db.AdminListCommentsRow(row))
		}
		if err == nil {
			total, err = r.c.read.AdminCountPostComments(ctx, db.AdminCountPostCommentsParams{PostID: q.PostID, Lim: upTo})
		}
	case q.UserID > 0:
		var rs []db.AdminListUserCommentsRow
		rs, err = r.c.read.AdminListUserComments(ctx, db.AdminListUserCommentsParams{UserID: q.UserID, Lim: lim, Off: off})
		for _, row := range rs {
			rows = append(rows, db.AdminListCommentsRow(row))
		}
		if err == nil {
			total, err = r.c.read.AdminCountUserComments(ctx, db.AdminCountUserCommentsParams{UserID: q.UserID, Lim: upTo})
		}
	default:
		if rows, err = r.c.read.AdminListComments(ctx, db.AdminListCommentsParams{Lim: lim, Off: off}); err == nil {
			total, err = r.c.read.AdminCountComments(ctx, upTo)
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
