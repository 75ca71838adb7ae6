package domain

// MaxIdempotencyKey is the longest Idempotency-Key taken. A key is visible
// ASCII, so this counts characters and bytes alike.
const MaxIdempotencyKey = 255

// Refusals of an Idempotency-Key.
var (
	ErrIdempotencyKeyTooLong   = &Error{Kind: Invalid, Code: "idempotency_key_too_long"}
	ErrIdempotencyKeyMalformed = &Error{Kind: Invalid, Code: "idempotency_key_malformed"}
)

// CheckIdempotencyKey returns ErrIdempotencyKeyMalformed when key has a byte
// outside visible ASCII (0x21 to 0x7E: no space, control, DEL or byte of a
// multibyte character), and ErrIdempotencyKeyTooLong when it is longer than
// MaxIdempotencyKey. Such keys could not be stored alike by every store
// (PostgreSQL's text refuses NUL and invalid UTF-8), and no client needs
// them: the IETF draft's keys are UUIDs and similar tokens. A key need not
// be quoted as a Structured Field string; the quotes, when sent, are part of
// the key.
func CheckIdempotencyKey(key string) error {
	for i := 0; i < len(key); i++ {
		if key[i] < 0x21 || key[i] > 0x7e {
			return ErrIdempotencyKeyMalformed
		}
	}
	if len(key) > MaxIdempotencyKey {
		return ErrIdempotencyKeyTooLong
	}
	return nil
}
