package domain

import (
	"reflect"
	"strings"
	"testing"
)

func TestIsEmail(t *testing.T) {
	accept := []string{
		"a@b.co",
		"user@example.com",
		"first.last@example.com",
		"user+tag@example.com",
		"o'brien@example.ie",
		"x!#$%&'*+-/=?^_`{|}~@example.com",
		"USER@EXAMPLE.COM",
		"josé@example.com",
		"用户@例子.广告",
		"user@bücher.de",
		"user@sub.domain-with-hyphen.example.co.uk",
		"user@123.example.com",
		"1@2.x9",
		strings.Repeat("a", 64) + "@example.com",
		"a@" + strings.Repeat(strings.Repeat("b", 63)+".", 3) + strings.Repeat("c", 60),
	}
	reject := []string{
		"plainaddress",
		"@example.com",
		"user@",
		"user@@example.com",
		"a@b@example.com",
		"user@localhost",
		"user@example",
		"user name@example.com",
		"user@exam ple.com",
		"user\t@example.com",
		"user\u00a0name@example.com",
		"user\u200b@example.com",
		".user@example.com",
		"user.@example.com",
		"us..er@example.com",
		`"user name"@example.com`,
		"<user@example.com>",
		"user@example.com>",
		"User <user@example.com>",
		"user(comment)@example.com",
		"user,other@example.com",
		"user;@example.com",
		"user@[127.0.0.1]",
		"user@127.0.0.1",
		"user@-example.com",
		"user@example-.com",
		"user@exa_mple.com",
		"user@.example.com",
		"user@example..com",
		"user@example.com.",
		"user@example.c-m-",
		"user@example.123",
		"user@exa$mple.com",
		"user\x00@example.com",
		"user@example.com\n",
		strings.Repeat("a", 65) + "@example.com",
		"a@" + strings.Repeat("b", 64) + ".com",
		"a@" + strings.Repeat(strings.Repeat("b", 63)+".", 3) + strings.Repeat("c", 61),
		"javascript:alert(1)",
		"user@exam\xffple.com",
	}
	for _, a := range accept {
		if !IsEmail(a) {
			t.Errorf("IsEmail(%q): got false, want true", a)
		}
	}
	for _, a := range reject {
		if IsEmail(a) {
			t.Errorf("IsEmail(%q): got true, want false", a)
		}
	}
}

func TestCheckEmail(t *testing.T) {
	// long is 254 bytes, the longest address IsEmail accepts.
	long := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 57) + ".com"
	for _, tc := range []struct {
		email string
		want  []Rule
	}{
		{"ann@example.com", nil},
		{long, nil},
		{"", []Rule{"required"}},
		{" ", []Rule{"required"}},
		{"ann", []Rule{"email"}},
		{long + "x", []Rule{"email"}},
		{long + "xx", []Rule{"email", "max:255"}},
		{strings.Repeat("x", 300), []Rule{"email", "max:255"}},
	} {
		if got := CheckEmail(tc.email); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("CheckEmail(%q): got %v, want %v", tc.email, got, tc.want)
		}
	}
}
