package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// AdminCommentTitlePosts is how many posts whose title holds the console's
// post title filter the list of comments reads, newest first: the store
// then sorts the comments of at most that many posts, found through
// comments_post_id, so that a page costs what the comments of a few
// dozen posts cost however many titles match. A title held by more posts
// keeps the comments of the newest of them, and the page says so
// (ports.AdminComments.TitlePosts). 100 is the longest page of the posts
// list (adminPageLimit): reading the matches costs what that page of the
// posts' search costs, through the same indexed search.
const AdminCommentTitlePosts = adminPageLimit

// Comments implements ports.Admin. The total is bounded (listBound) rather
// than exact: PostgreSQL keeps no count of comments, and an exact one
// would read every comment on every page. An author's e-mail is read
// through the accounts' unique key and becomes the author's id, so the
// store walks the same index as for a filter by author; a post title is
// read through the posts' search (AdminRepository.Posts, its indexes) and
// becomes the ids of at most AdminCommentTitlePosts posts.
func (a *Admin) Comments(ctx context.Context, c ports.AdminCaller, q ports.AdminCommentQuery) (ports.AdminComments, error) {
	var none ports.AdminComments
	r, err := a.reads(ctx, c)
	if err != nil {
		return none, err
	}
	if q.AuthorEmail != "" {
		if rules := domain.CheckEmail(q.AuthorEmail); rules != nil {
			return none, domain.InvalidField("email", rules...)
		}
	}
	if err := checkSearch("title", q.PostTitle); err != nil {
		return none, err
	}
	if q.Sort, err = checkSort(q.Sort, ports.AdminCommentSorts, ""); err != nil {
		return none, err
	}
	if q.AuthorEmail != "" {
		u, err := r.Users.ByEmail(ctx, q.AuthorEmail)
		if errors.Is(err, domain.ErrNotFound) || (err == nil && q.UserID > 0 && q.UserID != u.ID) {
			return none, nil
		}
		if err != nil {
			return none, fmt.Errorf("admin comments: %w", err)
		}
		q.UserID, q.AuthorEmail = u.ID, ""
	}
	var over int
	if q.PostTitle != "" {
		ids, more, err := titlePosts(ctx, r, q.PostTitle)
		if err != nil {
			return none, fmt.Errorf("admin comments: %w", err)
		}
		if len(ids) == 0 {
			return none, nil
		}
		if more {
			over = len(ids)
		}
		q.PostIDs, q.PostTitle = ids, ""
	}
	list, err := a.comments(ctx, r, q)
	return ports.AdminComments{Counted: list, TitlePosts: over}, err
}

// comments reads the page of q, whose filters are ids now, from the store.
func (a *Admin) comments(ctx context.Context, r ports.Repos, q ports.AdminCommentQuery) (ports.Counted[ports.AdminComment], error) {
	q.Page = capped(q.Page)
	bound := listBound(q.Page)
	comments, total, err := r.Admin.Comments(ctx, q, bound)
	if err != nil {
		return ports.Counted[ports.AdminComment]{}, fmt.Errorf("admin comments: %w", err)
	}
	return ports.CountedUpTo(comments, total, bound), nil
}

// titlePosts returns the ids of the newest AdminCommentTitlePosts posts,
// drafts included, whose title holds title, as the console's search of
// posts finds them, and whether more posts' titles hold it.
func titlePosts(ctx context.Context, r ports.Repos, title string) ([]int64, bool, error) {
	const n = AdminCommentTitlePosts
	posts, total, err := r.Admin.Posts(ctx, ports.AdminPostQuery{Search: title, Page: ports.Page{Limit: n}, CountUpTo: n})
	if err != nil {
		return nil, false, err
	}
	ids := make([]int64, len(posts))
	for i, p := range posts {
		ids[i] = p.ID()
	}
	return ids, total > n, nil
}
