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

// MaxTagNameLength bounds a tag's name, in characters.
const MaxTagNameLength = 50

// NewTag prepares a tag named name at now. The name is required and at most
// MaxTagNameLength characters.
func NewTag(name string, now time.Time) (Tag, error) {
	if rules := CheckTagName(name); rules != nil {
		return Tag{}, InvalidField("name", rules...)
	}
	return Tag{Name: name, Slug: Slugify(name), CreatedAt: now, UpdatedAt: now}, nil
}

// CheckTagName returns the rules a tag name breaks: required, and at most
// MaxTagNameLength characters.
func CheckTagName(name string) []Rule {
	return checkText(name, MaxTagNameLength)
}

// ErrTagTaken is the conflict of two tags with one name.
var ErrTagTaken = &Error{Kind: Conflict, Code: "tag_taken", Fields: []Violation{{"name", RuleUnique}}}
