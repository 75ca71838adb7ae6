package ports

import "github.com/inkwell/inkwell/domain"

// AdminCommentQuery selects a page of the comments of every post, newest
// first (id descending). PostID, when above zero, keeps one post's
// comments; UserID, when above zero, one author's.
type AdminCommentQuery struct {
	PostID int64
	UserID int64
	Page   Page
}

// AdminComment is a comment as the console lists it: with its author's
// e-mail and its post's title.
type AdminComment struct {
	Comment     domain.Comment
	AuthorEmail string
	PostTitle   string
}

// AdminCommentsCounted is how many comments past the start of a page the
// console's list counts. Counting every one of millions of comments on each
// page would cost PostgreSQL a scan of the whole table (it keeps no count
// of comments), so the total stops a fixed way past where the page starts:
// the count then costs no more than the page's own OFFSET, and still tells
// whether a next page exists.
const AdminCommentsCounted = 1000

// AdminCommentCountBound is where the count of a page of comments stops:
// a total above it means "more than" it.
func AdminCommentCountBound(p Page) int {
	return max(p.Offset, 0) + AdminCommentsCounted
}
