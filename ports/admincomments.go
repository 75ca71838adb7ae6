package ports

import (
	"slices"

	"github.com/inkwell/inkwell/domain"
)

// AdminCommentQuery selects a page of the comments of every post, newest
// first (id descending) unless Sort says otherwise. PostID, when above
// zero, keeps one post's comments; PostIDs, when not empty, the comments
// of those posts (both together, the comments of PostID if it is among
// PostIDs); UserID, when above zero, one author's. AuthorEmail, when set,
// keeps the comments of the account with that address (domain.EmailKey
// compares them), as UserID would, and PostTitle, when set, the comments
// on posts whose title holds it (compared as AdminPostQuery.Search
// compares titles), as PostIDs would: the use case resolves each through
// an index, asking the store with ids, so no repository sees either.
//
// Sort is AdminSortNewest ("" is the same) or AdminSortOldest (id
// ascending), whatever the filters (AdminCommentSorts).
type AdminCommentQuery struct {
	PostID      int64
	PostIDs     []int64
	UserID      int64
	AuthorEmail string
	PostTitle   string
	Sort        AdminSort
	Page        Page
}

// AdminCommentSorts are the orders of the list of comments, the default
// first: every filter has an index in id order (or sorts the comments of
// the few posts it keeps), so each order costs what the other does.
var AdminCommentSorts = []AdminSort{AdminSortNewest, AdminSortOldest}

// Posts returns the posts whose comments q keeps, by PostID and PostIDs:
// nil for every post, an empty set when PostID is not among PostIDs (no
// comment matches).
func (q AdminCommentQuery) Posts() []int64 {
	switch {
	case q.PostID > 0 && len(q.PostIDs) > 0 && !slices.Contains(q.PostIDs, q.PostID):
		return []int64{}
	case q.PostID > 0:
		return []int64{q.PostID}
	case len(q.PostIDs) > 0:
		return q.PostIDs
	}
	return nil
}

// AdminComment is a comment as the console lists it: with its author's
// e-mail and its post's title.
type AdminComment struct {
	Comment     domain.Comment
	AuthorEmail string
	PostTitle   string
}

// AdminComments is a page of the console's list of comments, counted as
// Counted says. TitlePosts, when above zero, says that more posts than
// that have a title holding the query's PostTitle, and that the rows are
// the comments on the newest TitlePosts of them (in the order of the
// posts' search) only.
type AdminComments struct {
	Counted[AdminComment]
	TitlePosts int
}
