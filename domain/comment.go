package domain

import "time"

// Comment is a user's remark on a post.
type Comment struct {
	ID        int64
	PostID    int64
	UserID    int64
	Body      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// CanEdit is the comment update policy: only its author may.
func (c Comment) CanEdit(user int64) bool {
	return user != 0 && user == c.UserID
}

// CanDelete is the comment delete policy: its author, or the author of the
// post it is on.
func (c Comment) CanDelete(user int64, post Post) bool {
	return c.CanEdit(user) || post.CanEdit(user)
}
