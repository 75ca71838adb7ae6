// Package passwords hashes passwords with bcrypt.
package passwords

import (
	"errors"
	"fmt"

	"golang.org/x/crypto/bcrypt"
)

// Bcrypt implements ports.PasswordHasher with a fixed cost.
type Bcrypt struct {
	cost int
}

// Config holds the hashing parameters.
type Config struct {
	// Cost is bcrypt's work factor, within bcrypt.MinCost..bcrypt.MaxCost;
	// configuration checks that before it gets here.
	Cost int
}

// NewBcrypt returns a hasher that hashes at cfg.Cost.
func NewBcrypt(cfg Config) *Bcrypt {
	return &Bcrypt{cost: cfg.Cost}
}

// Hash implements ports.PasswordHasher. bcrypt reads at most 72 bytes;
// longer passwords are refused by validation rather than silently cut.
func (b *Bcrypt) Hash(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), b.cost)
	if err != nil {
		return "", fmt.Errorf("bcrypt: hash: %w", err)
	}
	return string(h), nil
}

// Check implements ports.PasswordHasher.
func (b *Bcrypt) Check(hash, password string) (bool, error) {
	err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(password))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, bcrypt.ErrMismatchedHashAndPassword), errors.Is(err, bcrypt.ErrPasswordTooLong):
		return false, nil
	default:
		return false, fmt.Errorf("bcrypt: check: %w", err)
	}
}

// NeedsRehash implements ports.PasswordHasher: a hash made at another cost
// is replaced at the next successful login.
func (b *Bcrypt) NeedsRehash(hash string) bool {
	cost, err := bcrypt.Cost([]byte(hash))
	return err != nil || cost != b.cost
}
