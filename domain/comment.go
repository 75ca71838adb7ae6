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

// MaxCommentLength bounds a comment's body, in characters.
const MaxCommentLength = 5000

// NewComment prepares a comment by userID on postID at now. The body is
// required and at most MaxCommentLength characters.
func NewComment(postID, userID int64, body string, now time.Time) (Comment, error) {
	if rules := CheckCommentBody(body); rules != nil {
		return Comment{}, InvalidField("body", rules...)
	}
	return Comment{PostID: postID, UserID: userID, Body: body, CreatedAt: now, UpdatedAt: now}, nil
}

// Edit changes the body at now; a body that breaks CheckCommentBody's rules
// changes nothing.
func (c *Comment) Edit(body string, now time.Time) error {
	if rules := CheckCommentBody(body); rules != nil {
		return InvalidField("body", rules...)
	}
	c.Body, c.UpdatedAt = body, now
	return nil
}

// CheckCommentBody returns the rules a comment body breaks: required, and at
// most MaxCommentLength characters.
func CheckCommentBody(body string) []Rule {
	return checkText(body, MaxCommentLength)
}

// CanEdit is the comment update policy: only its author may.
func (c Comment) CanEdit(user int64) bool {
	return user != 0 && user == c.UserID
}

// CanDelete is the comment delete policy: its author, the author of the
// post it is on, or an admin acting by admin right.
func (c Comment) CanDelete(actor Acting, post Post) bool {
	return actor.MayChange(c.UserID) || post.CanEdit(actor)
}
