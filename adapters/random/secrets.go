// Package random makes token secrets from the operating system's CSPRNG.
package random

import (
	"crypto/rand"
	"math/big"
)

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// Secrets implements ports.SecretGenerator.
type Secrets struct{}

// NewSecrets returns the generator.
func NewSecrets() Secrets { return Secrets{} }

// TokenEntropy returns 40 characters drawn uniformly from [A-Za-z0-9]
// (about 238 bits). rand.Int avoids the bias of a byte modulo 62.
func (Secrets) TokenEntropy() string {
	b := make([]byte, 40)
	max := big.NewInt(int64(len(alphabet)))
	for i := range b {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			// crypto/rand never fails on supported platforms; a failure
			// here means no secret can be made safely.
			panic("random: reading the system CSPRNG: " + err.Error())
		}
		b[i] = alphabet[n.Int64()]
	}
	return string(b)
}

// Key returns n bytes from the system CSPRNG.
func (Secrets) Key(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("random: reading the system CSPRNG: " + err.Error())
	}
	return b
}
