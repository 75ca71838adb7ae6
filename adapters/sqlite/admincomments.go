package sqlite

import (
	"context"
	"encoding/json"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/ports"
)

// Comments implements ports.AdminRepository with one of four statements
// for each order, so that each filter walks its own index
// (admin_comments.sql); a set of posts goes to them as a JSON array. The
// count stops at countTo + 1 rows.
func (r admin) Comments(ctx context.Context, q ports.AdminCommentQuery, countTo int) ([]ports.AdminComment, int, error) {
	posts := q.Posts()
	if posts != nil && len(posts) == 0 {
		return []ports.AdminComment{}, 0, nil
	}
	ids, err := json.Marshal(posts)
	if err != nil {
		return nil, 0, err
	}
	set := string(ids)
	lim, off := pageOf(q.Page)
	upTo := int64(max(countTo, 0)) + 1
	oldest := q.Sort == ports.AdminSortOldest
	rd := r.c.read
	var (
		rows  []db.AdminListCommentsRow
		total int64
	)
	switch {
	case posts != nil && q.UserID > 0:
		if oldest {
			rows, err = commentRows(rd.AdminListPostUserCommentsOldest(ctx, db.AdminListPostUserCommentsOldestParams{PostIds: set, UserID: q.UserID, Lim: lim, Off: off}))
		} else {
			rows, err = commentRows(rd.AdminListPostUserComments(ctx, db.AdminListPostUserCommentsParams{PostIds: set, UserID: q.UserID, Lim: lim, Off: off}))
		}
		if err == nil {
			total, err = rd.AdminCountPostUserComments(ctx, db.AdminCountPostUserCommentsParams{PostIds: set, UserID: q.UserID, Lim: upTo})
		}
	case posts != nil:
		if oldest {
			rows, err = commentRows(rd.AdminListPostCommentsOldest(ctx, db.AdminListPostCommentsOldestParams{PostIds: set, Lim: lim, Off: off}))
		} else {
			rows, err = commentRows(rd.AdminListPostComments(ctx, db.AdminListPostCommentsParams{PostIds: set, Lim: lim, Off: off}))
		}
		if err == nil {
			total, err = rd.AdminCountPostComments(ctx, db.AdminCountPostCommentsParams{PostIds: set, Lim: upTo})
		}
	case q.UserID > 0:
		if oldest {
			rows, err = commentRows(rd.AdminListUserCommentsOldest(ctx, db.AdminListUserCommentsOldestParams{UserID: q.UserID, Lim: lim, Off: off}))
		} else {
			rows, err = commentRows(rd.AdminListUserComments(ctx, db.AdminListUserCommentsParams{UserID: q.UserID, Lim: lim, Off: off}))
		}
		if err == nil {
			total, err = rd.AdminCountUserComments(ctx, db.AdminCountUserCommentsParams{UserID: q.UserID, Lim: upTo})
		}
	default:
		if oldest {
			rows, err = commentRows(rd.AdminListCommentsOldest(ctx, db.AdminListCommentsOldestParams{Lim: lim, Off: off}))
		} else {
			rows, err = rd.AdminListComments(ctx, db.AdminListCommentsParams{Lim: lim, Off: off})
		}
		if err == nil {
			total, err = rd.AdminCountComments(ctx, upTo)
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

// commentRow is a row of any of the statements of admin_comments.sql,
// which select the same columns.
type commentRow interface {
	~struct {
		Comment     db.Comment
		AuthorEmail string
		PostTitle   string
	}
}

// commentRows is what one of those statements returned, as the rows of
// the first.
func commentRows[R commentRow](rs []R, err error) ([]db.AdminListCommentsRow, error) {
	rows := make([]db.AdminListCommentsRow, len(rs))
	for i, row := range rs {
		rows[i] = db.AdminListCommentsRow(row)
	}
	return rows, err
}
