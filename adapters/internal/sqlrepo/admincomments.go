package sqlrepo

import (
	"context"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// CommentFilter is what the statements of admin_comments.sql take: the
// posts whose comments they read, as the engine passes a set of ids (S),
// the user whose comments they read, the page of a list and the row a
// count stops at.
type CommentFilter[S any] struct {
	Posts    S
	UserID   int64
	Lim, Off int64
	UpTo     int64
}

// CommentStatements are the statements of admin_comments.sql for one
// filter, run on the store's reader Q: its list newest first and oldest
// first, and its count.
type CommentStatements[Q, S any] struct {
	Newest, Oldest func(ctx context.Context, q Q, f CommentFilter[S]) ([]ports.AdminComment, error)
	Count          func(ctx context.Context, q Q, f CommentFilter[S]) (int64, error)
}

// AdminComments are a store's statements of admin_comments.sql, one set
// for each filter, so that each filter walks its own index: every comment
// (All), those on a set of posts (Posts), one user's (User) and one user's
// on a set of posts (PostsUser).
type AdminComments[Q, S any] struct {
	// PostSet turns a set of post ids into the form the statements take.
	PostSet func(posts []int64) (S, error)
	// Page turns a page into the statements' LIMIT and OFFSET.
	Page                        func(ports.Page) (lim, off int64)
	All, Posts, User, PostsUser CommentStatements[Q, S]
	B                           Border
}

// List is ports.AdminRepository's Comments, run on rd: the filter's
// statements in q's order, and its count, which stops at countTo + 1 rows.
func (s AdminComments[Q, S]) List(ctx context.Context, rd Q, q ports.AdminCommentQuery, countTo int) ([]ports.AdminComment, int, error) {
	posts := q.Posts()
	if posts != nil && len(posts) == 0 {
		return []ports.AdminComment{}, 0, nil
	}
	set, err := s.PostSet(posts)
	if err != nil {
		return nil, 0, err
	}
	f := CommentFilter[S]{Posts: set, UserID: q.UserID, UpTo: int64(max(countTo, 0)) + 1}
	f.Lim, f.Off = s.Page(q.Page)
	st := s.All
	switch {
	case posts != nil && q.UserID > 0:
		st = s.PostsUser
	case posts != nil:
		st = s.Posts
	case q.UserID > 0:
		st = s.User
	}
	list := st.Newest
	if q.Sort == ports.AdminSortOldest {
		list = st.Oldest
	}
	rows, err := list(ctx, rd, f)
	var total int64
	if err == nil {
		total, err = st.Count(ctx, rd, f)
	}
	if err != nil {
		return nil, 0, s.B.Err("list comments", err)
	}
	return rows, int(total), nil
}

// AdminCommentRow is a row of any of the statements of admin_comments.sql,
// which select the same columns: a comment, in the engine's row type C,
// its author's e-mail and its post's title.
type AdminCommentRow[C any] interface{ ~adminCommentRow[C] }

type adminCommentRow[C any] = struct {
	Comment     C
	AuthorEmail string
	PostTitle   string
}

// AdminCommentsOf converts rows of admin_comments.sql, their comments with
// commentOf.
func AdminCommentsOf[R AdminCommentRow[C], C any](rows []R, commentOf func(C) domain.Comment) []ports.AdminComment {
	return Rows(rows, func(row R) ports.AdminComment {
		c := adminCommentRow[C](row)
		return ports.AdminComment{Comment: commentOf(c.Comment), AuthorEmail: c.AuthorEmail, PostTitle: c.PostTitle}
	})
}
