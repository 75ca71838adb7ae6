package ports

import "github.com/inkwell/inkwell/domain"

// AdminCommentQuery selects a page of the comments of every post, newest
// first (id descending). PostID, when above zero, keeps one post's
// comments; UserID, when above zero, one author's. AuthorEmail, when set,
// keeps the comments of the account with that address (domain.EmailKey
// compares them), as UserID would: the use case reads the account and
// asks the store with its id, so no repository sees it.
type AdminCommentQuery struct {
	PostID      int64
	UserID      int64
	AuthorEmail string
	Page        Page
}

// AdminComment is a comment as the console lists it: with its author's
// e-mail and its post's title.
type AdminComment struct {
	Comment     domain.Comment
	AuthorEmail string
	PostTitle   string
}
