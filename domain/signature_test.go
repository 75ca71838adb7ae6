package domain

import (
	"strings"
	"testing"
	"time"
)

func TestEmailHash(t *testing.T) {
	if got, want := EmailHash("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d"; got != want {
		t.Errorf("EmailHash(abc) = %s, want %s", got, want)
	}
	if got, want := VerificationPath(42, "abc"), "/api/v1/verify-email/42/a9993e364706816aba3e25717850c26c9cd0d89d"; got != want {
		t.Errorf("VerificationPath = %s, want %s", got, want)
	}
}

func TestSignedPath(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	now := time.Unix(1_800_000_000, 0)
	link := SignPath(key, "/api/v1/verify-email/7/abc", now.Add(time.Hour))
	path, query, _ := strings.Cut(link, "?")
	if want := "expires=1800003600&signature="; !strings.HasPrefix(query, want) {
		t.Fatalf("query %q, want it to start with %q", query, want)
	}
	sig := query[strings.Index(query, "signature=")+len("signature="):]
	if len(sig) != 64 {
		t.Errorf("signature %q, want 64 hex digits", sig)
	}
	for _, tc := range []struct {
		name        string
		key         []byte
		path, query string
		at          time.Time
		ok          bool
	}{
		{"as signed", key, path, query, now, true},
		{"a second before expiry", key, path, query, now.Add(time.Hour - time.Second), true},
		{"parameters in another order", key, path, "signature=" + sig + "&expires=1800003600", now, true},
		{"at expiry", key, path, query, now.Add(time.Hour), false},
		{"another key", []byte(strings.Repeat("x", 32)), path, query, now, false},
		{"another id", key, "/api/v1/verify-email/8/abc", query, now, false},
		{"another hash", key, "/api/v1/verify-email/7/abd", query, now, false},
		{"path case changed", key, "/API/v1/verify-email/7/abc", query, now, false},
		{"expiry moved", key, path, "expires=1900000000&signature=" + sig, now, false},
		{"parameter added", key, path, query + "&x=1", now, false},
		{"no signature", key, path, "expires=1800003600", now, false},
		{"two signatures", key, path, query + "&signature=" + sig, now, false},
		{"no expiry", key, path, "signature=" + sig, now, false},
		{"signature upper case", key, path, "expires=1800003600&signature=" + strings.ToUpper(sig), now, false},
		{"signature cut", key, path, "expires=1800003600&signature=" + sig[:63], now, false},
		{"empty query", key, path, "", now, false},
		{"NUL in the path", key, path + "\x00", query, now, false},
		{"huge query", key, path, query + "&" + strings.Repeat("a", 4096), now, false},
	} {
		err := CheckSignedPath(tc.key, tc.path, tc.query, tc.at)
		if got := err == nil; got != tc.ok || (err != nil && err != ErrInvalidSignature) {
			t.Errorf("%s: CheckSignedPath = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

func TestRememberCookie(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	token := strings.Repeat("r", RememberTokenLength)
	v := RememberCookie(key, 12, token)
	if id, tok, ok := ParseRememberCookie(key, v); !ok || id != 12 || tok != token {
		t.Fatalf("ParseRememberCookie(RememberCookie) = %d, %q, %v", id, tok, ok)
	}
	other := RememberCookie(key, 13, token)
	mac := v[strings.LastIndexByte(v, '|')+1:]
	for _, bad := range []string{
		"", "|", "12|" + token, "12|" + token + "|", v + "0", v[:len(v)-1],
		strings.Replace(v, "12|", "13|", 1),
		"13|" + token + "|" + mac,
		RememberCookie([]byte(strings.Repeat("x", 32)), 12, token),
		RememberCookie(key, 0, token), RememberCookie(key, -1, token), RememberCookie(key, 12, ""),
		v + strings.Repeat("a", 300),
	} {
		if id, _, ok := ParseRememberCookie(key, bad); ok {
			t.Errorf("ParseRememberCookie(%q) = %d, ok; want refused", bad, id)
		}
	}
	if id, _, ok := ParseRememberCookie(key, other); !ok || id != 13 {
		t.Errorf("another user's cookie parses as %d, %v; want 13", id, ok)
	}
}

func TestActorCheckWrite(t *testing.T) {
	verified := time.Unix(1, 0)
	for _, tc := range []struct {
		actor Actor
		want  error
	}{
		{Actor{}, nil},
		{Actor{User: User{EmailVerifiedAt: &verified}}, nil},
		{Actor{VerifiedEmailRequired: true, User: User{EmailVerifiedAt: &verified}}, nil},
		{Actor{VerifiedEmailRequired: true}, ErrEmailNotVerified},
	} {
		if got := tc.actor.CheckWrite(); got != tc.want {
			t.Errorf("%+v.CheckWrite() = %v, want %v", tc.actor, got, tc.want)
		}
	}
}
