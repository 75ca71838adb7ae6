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

// AdminListCounted is how many rows past the start of a page the console's
// lists that no store keeps a count of (comments, the audit log) count.
// Counting every one of millions of comments, or of a log that only grows,
// on each page would cost a scan of the whole table (100,000 audit rows
// cost PostgreSQL 60 ms a page under 10 admins), so the total stops a fixed
// way past where the page starts: the count then costs no more than the
// page's own OFFSET, and still tells whether a next page exists.
const AdminListCounted = 1000

// AdminListCountBound is where the count of such a list's page stops: a
// total above it means "more than" it.
func AdminListCountBound(p Page) int {
	return max(p.Offset, 0) + AdminListCounted
}
