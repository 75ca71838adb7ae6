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

// Rename gives the tag name at now, with the slug that follows it; the
// name obeys CheckTagName, as a new tag's does. A name that differs only
// in case from the tag's own is the same tag's name, not a clash.
func (t *Tag) Rename(name string, now time.Time) error {
	if rules := CheckTagName(name); rules != nil {
		return InvalidField("name", rules...)
	}
	t.Name, t.Slug, t.UpdatedAt = name, Slugify(name), now
	return nil
}

// CheckMerge returns what merging tag from into tag into breaks: a tag
// merges into another one, never into itself (the into field's exists
// rule, as the target names no other tag).
func CheckMerge(from, into Tag) error {
	if from.ID == into.ID {
		return InvalidField("into", RuleExists)
	}
	return nil
}

// CheckManageTags returns the error that keeps the actor from renaming,
// merging or deleting tags, nil when it may: an account with admin rights
// (User.IsAdmin, as stored now) acting through a browser session, or
// through a token that allows WriteTags. A token's "*" is not admin
// rights: the ability is checked first (ErrInvalidAbility, or
// ErrUnauthenticated for nobody), then the rights (ErrForbidden).
func (a Actor) CheckManageTags() error {
	if err := a.CheckAbility(WriteTags); err != nil {
		return err
	}
	if !a.User.IsAdmin {
		return ErrForbidden
	}
	return nil
}

// ErrTagTaken is the conflict of two tags with one name.
var ErrTagTaken = &Error{Kind: Conflict, Code: "tag_taken", Fields: []Violation{{"name", RuleUnique}}}
