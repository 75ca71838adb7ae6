package ports

import "time"

// Clock tells the time. The production clock returns UTC truncated to
// microseconds, the precision PostgreSQL keeps, so a value read back from any
// store equals the value written.
type Clock interface {
	Now() time.Time
}

// PasswordHasher hashes and checks passwords.
type PasswordHasher interface {
	// Hash returns the stored form of password.
	Hash(password string) (string, error)
	// Check reports whether password matches hash. A malformed hash is an
	// error, a mismatch is not.
	Check(hash, password string) (bool, error)
	// NeedsRehash reports whether hash was made with other parameters than
	// the current ones, so that a successful login should store a new hash.
	NeedsRehash(hash string) bool
}

// SecretGenerator makes the random part of new tokens.
type SecretGenerator interface {
	// TokenEntropy returns 40 random characters from [A-Za-z0-9].
	TokenEntropy() string
	// Key returns n random bytes, for keys such as webhook secrets.
	Key(n int) []byte
}
