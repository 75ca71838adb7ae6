package domain

import "time"

// Tag labels posts. Names are unique ignoring case; the slug follows the name.
type Tag struct {
	ID        int64
	Name      string
	Slug      string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NewTag prepares a tag named name at now.
func NewTag(name string, now time.Time) Tag {
	return Tag{Name: name, Slug: Slugify(name), CreatedAt: now, UpdatedAt: now}
}

// ErrTagTaken is the conflict of two tags with one name.
var ErrTagTaken = &Error{Kind: Conflict, Code: "tag_taken", Fields: []Violation{{"name", RuleUnique}}}
