package domain

import (
	"crypto/subtle"
	"encoding/base64"
	"time"
)

// ResetTokenBytes is the randomness of a password reset token: 32 bytes,
// written as 43 characters of unpadded URL-safe base64.
const ResetTokenBytes = 32

// ResetTokenOf writes key as a reset token.
func ResetTokenOf(key []byte) string { return base64.RawURLEncoding.EncodeToString(key) }

// PasswordReset is an account's one live password reset: the digest of the
// mailed token, and when it stops working. A new request replaces it; a
// reset deletes it.
type PasswordReset struct {
	UserID    int64
	TokenHash string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// NewPasswordReset starts the reset of user's password with token, valid
// for lifetime from now.
func NewPasswordReset(userID int64, token string, now time.Time, lifetime time.Duration) PasswordReset {
	return PasswordReset{UserID: userID, TokenHash: HashSecret(token), CreatedAt: now, ExpiresAt: now.Add(lifetime)}
}

// Accepts reports whether token is this reset's and still valid at now;
// the digests are compared in constant time.
func (r PasswordReset) Accepts(token string, now time.Time) bool {
	same := subtle.ConstantTimeCompare([]byte(HashSecret(token)), []byte(r.TokenHash)) == 1
	return same && now.Before(r.ExpiresAt)
}

// ErrResetToken refuses a reset token that is wrong, used, expired or
// another account's: the transport reports it on the e-mail field.
var ErrResetToken = &Error{Kind: Invalid, Code: "reset_token", Fields: []Violation{{"email", RuleResetToken}}}
