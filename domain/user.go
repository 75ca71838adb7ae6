package domain

import (
	"strings"
	"time"
	"unicode/utf8"
)

// User is an area A account. PasswordHash and RememberToken never leave the
// service: the HTTP representations do not carry them.
type User struct {
	ID              int64
	Name            string
	Email           string
	PasswordHash    string
	RememberToken   string
	EmailVerifiedAt *time.Time
	AvatarPath      string
	// IsAdmin gives the account admin rights in the console. Only the
	// command line (inkwell admin grant|revoke) changes it.
	IsAdmin   bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Author is what a post or a comment shows of the account that wrote it:
// its id, name and avatar, and nothing an account keeps to itself. Views of
// posts and comments, and the events that carry them, hold an Author rather
// than the User, so that no page the API serves its readers reads an e-mail
// or a password hash.
type Author struct {
	ID         int64
	Name       string
	AvatarPath string
}

// Author returns what u's posts and comments show of u.
func (u User) Author() Author {
	return Author{ID: u.ID, Name: u.Name, AvatarPath: u.AvatarPath}
}

// AuthorsOf returns the Author of each of users.
func AuthorsOf(users []User) []Author {
	out := make([]Author, len(users))
	for i, u := range users {
		out[i] = u.Author()
	}
	return out
}

// EmailKey is the form in which e-mail addresses are compared: uniqueness and
// look-ups ignore case, in every store alike, while the address is kept as typed.
func EmailKey(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}

// Bounds of an account's fields. A password is counted in characters for
// people and in bytes for the hasher: bcrypt reads no more than 72 bytes, so
// a longer password would be cut without a word.
const (
	MaxUserNameLength = 255
	MinPasswordLength = 8
	MaxPasswordBytes  = 72
)

// CheckUserName returns the rules an account's name breaks: required, and
// at most MaxUserNameLength characters.
func CheckUserName(name string) []Rule {
	return checkText(name, MaxUserNameLength)
}

// CheckPassword returns the rules a new password breaks: required, at least
// MinPasswordLength characters and at most MaxPasswordBytes bytes. Its white
// space counts like any other character.
func CheckPassword(password string) []Rule {
	switch {
	case strings.TrimSpace(password) == "":
		return []Rule{RuleRequired}
	case utf8.RuneCountInString(password) < MinPasswordLength:
		return []Rule{RuleN(RuleMin, MinPasswordLength)}
	case len(password) > MaxPasswordBytes:
		return []Rule{RuleN(RuleMaxBytes, MaxPasswordBytes)}
	}
	return nil
}

// CheckAccount returns an Invalid error listing every rule that a new
// account's name, e-mail and password break, in that order, or nil.
func CheckAccount(name, email, password string) error {
	var vs Violations
	vs.Add("name", CheckUserName(name))
	vs.Add("email", CheckEmail(email))
	vs.Add("password", CheckPassword(password))
	return vs.Err()
}
