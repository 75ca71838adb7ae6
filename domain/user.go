package domain

import (
	"strings"
	"time"
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
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// EmailKey is the form in which e-mail addresses are compared: uniqueness and
// look-ups ignore case, in every store alike, while the address is kept as typed.
func EmailKey(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}
