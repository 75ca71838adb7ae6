package domain

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// ErrInvalidSignature refuses a signed link whose signature does not match
// its path and query under the application key, that has expired, or that
// names an account whose address is no longer the one it was made for.
var ErrInvalidSignature = &Error{Kind: Forbidden, Code: "invalid_signature"}

// ErrEmailNotVerified refuses a write by an account that has not proven its
// e-mail address where the service requires it (REQUIRE_VERIFIED_EMAIL).
var ErrEmailNotVerified = &Error{Kind: Conflict, Code: "email_not_verified"}

// EmailHash is the {hash} of a verification link: the hex SHA-1 of the
// address as stored, as Laravel's. It names the address the link proves; it
// is no secret, the signature is.
func EmailHash(email string) string {
	sum := sha1.Sum([]byte(email))
	return hex.EncodeToString(sum[:])
}

// VerificationPath is the path of the link that proves user id's address
// email, before it is signed.
func VerificationPath(id int64, email string) string {
	return "/api/v1/verify-email/" + strconv.FormatInt(id, 10) + "/" + EmailHash(email)
}

// signatureParam and expiresParam are the query parameters of a signed
// link, Laravel's names.
const (
	signatureParam = "signature="
	expiresParam   = "expires="
)

// maxSignedQuery bounds the query a signed link is checked with: a real one
// is some 100 bytes, and nothing longer is hashed.
const maxSignedQuery = 512

// SignPath returns path with the query "expires=UNIX&signature=HEX", where
// the signature is the hex HMAC-SHA256 with key over path and
// "?expires=UNIX". It covers no scheme and no host, so that the link stays
// valid whatever proxy the request passes through.
func SignPath(key []byte, path string, expires time.Time) string {
	unsigned := path + "?" + expiresParam + strconv.FormatInt(expires.Unix(), 10)
	return unsigned + "&" + signatureParam + sign(key, unsigned)
}

// CheckSignedPath checks a signed link as it arrived: path and rawQuery as
// the request line carries them, undecoded. The signature is recomputed
// over path and the query without its signature parameter, in the order the
// parameters came, and compared in constant time; the link must carry one
// signature and one expiry, which must be later than now.
// ErrInvalidSignature otherwise.
func CheckSignedPath(key []byte, path, rawQuery string, now time.Time) error {
	if len(rawQuery) > maxSignedQuery {
		return ErrInvalidSignature
	}
	var kept []string
	var signature, expires string
	signatures, expiries := 0, 0
	for _, p := range strings.Split(rawQuery, "&") {
		switch {
		case strings.HasPrefix(p, signatureParam):
			signature = p[len(signatureParam):]
			signatures++
			continue
		case strings.HasPrefix(p, expiresParam):
			expires = p[len(expiresParam):]
			expiries++
		}
		if p != "" {
			kept = append(kept, p)
		}
	}
	if signatures != 1 || expiries != 1 {
		return ErrInvalidSignature
	}
	unsigned := path
	if len(kept) > 0 {
		unsigned += "?" + strings.Join(kept, "&")
	}
	want := sign(key, unsigned)
	if subtle.ConstantTimeCompare([]byte(signature), []byte(want)) != 1 {
		return ErrInvalidSignature
	}
	// Only a signed expiry is read, so a malformed one is a bug of the
	// signer; it is refused all the same.
	at, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || now.Unix() >= at {
		return ErrInvalidSignature
	}
	return nil
}

func sign(key []byte, s string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(s))
	return hex.EncodeToString(mac.Sum(nil))
}

// RememberTokenLength is the length of a remember_token, Laravel's 60.
const RememberTokenLength = 60

// maxRememberCookie bounds the remember cookie that is parsed at all.
const maxRememberCookie = 256

// RememberCookie is the value of the remember-me cookie of user id, whose
// remember_token is token: "ID|TOKEN|HEX", the last part the HMAC-SHA256
// with key over the first two, so that the browser can neither make one
// nor change one. It stops working when the token is rotated.
func RememberCookie(key []byte, id int64, token string) string {
	unsigned := strconv.FormatInt(id, 10) + "|" + token
	return unsigned + "|" + sign(key, "remember|"+unsigned)
}

// ParseRememberCookie returns the user id and remember_token a cookie made
// by RememberCookie holds; ok is false for anything else, a tampered or
// foreign value included. The token still has to match the user's.
func ParseRememberCookie(key []byte, value string) (id int64, token string, ok bool) {
	if len(value) > maxRememberCookie {
		return 0, "", false
	}
	i := strings.LastIndexByte(value, '|')
	if i < 0 {
		return 0, "", false
	}
	unsigned, mac := value[:i], value[i+1:]
	if subtle.ConstantTimeCompare([]byte(mac), []byte(sign(key, "remember|"+unsigned))) != 1 {
		return 0, "", false
	}
	idText, token, found := strings.Cut(unsigned, "|")
	id, err := strconv.ParseInt(idText, 10, 64)
	if !found || err != nil || id <= 0 || token == "" {
		return 0, "", false
	}
	return id, token, true
}
