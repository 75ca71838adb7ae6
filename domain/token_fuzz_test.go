package domain

import (
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
	"testing"
)

// FuzzParsePlainToken checks that any presented text is split without a
// panic, that an accepted token names a positive id (or none) and a
// secret of at most 512 bytes, and that it renders back to the text
// presented, up to the spelling of the id, which ParseInt reads leniently
// ("+7", "007"), as the store's lookup of Sanctum's id does.
func FuzzParsePlainToken(f *testing.F) {
	secret := NewSecret(strings.Repeat("a", 40))
	for _, s := range []string{
		"12|" + secret, secret, "12|", "|abc", "0|abc", "-3|abc", "+7|abc", "007|abc", "1|a|b",
		"9223372036854775807|x", "9223372036854775808|x", "1|" + strings.Repeat("a", 513), "", "\xff|\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := ParsePlainToken(s)
		if !ok {
			if p != (PlainToken{}) {
				t.Fatalf("ParsePlainToken(%q) refused but returned %+v", s, p)
			}
			return
		}
		if p.Secret == "" || len(p.Secret) > 512 || p.ID < 0 {
			t.Fatalf("ParsePlainToken(%q) = %+v", s, p)
		}
		idText, secret, found := strings.Cut(s, "|")
		if !found {
			if p.ID != 0 || p.Secret != s {
				t.Fatalf("ParsePlainToken(%q) = %+v, want the whole text as the secret", s, p)
			}
			return
		}
		if p.ID == 0 || p.Secret != secret {
			t.Fatalf("ParsePlainToken(%q) = %+v", s, p)
		}
		canonical := p.String()
		if n, _ := strconv.ParseInt(idText, 10, 64); canonical != strconv.FormatInt(n, 10)+"|"+secret {
			t.Fatalf("ParsePlainToken(%q).String() = %q", s, canonical)
		}
		if strconv.FormatInt(p.ID, 10) == idText && canonical != s {
			t.Fatalf("ParsePlainToken(%q).String() = %q, want the text presented", s, canonical)
		}
		if again, ok := ParsePlainToken(canonical); !ok || again != p {
			t.Fatalf("ParsePlainToken(%q) = %+v, %v; want %+v", canonical, again, ok, p)
		}
	})
}

// FuzzNewSecret checks that every secret carries the CRC32 of its entropy
// in eight lower-case hex digits and is accepted as presented.
func FuzzNewSecret(f *testing.F) {
	f.Add(strings.Repeat("a", 40), int64(1))
	f.Add("", int64(7))
	f.Fuzz(func(t *testing.T, entropy string, id int64) {
		s := NewSecret(entropy)
		if !strings.HasPrefix(s, entropy) || len(s) != len(entropy)+8 {
			t.Fatalf("NewSecret(%q) = %q", entropy, s)
		}
		if want := fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(entropy))); s[len(entropy):] != want {
			t.Fatalf("NewSecret(%q) ends in %q, want %q", entropy, s[len(entropy):], want)
		}
		if id <= 0 || len(s) > 512 || strings.Contains(s, "|") {
			return
		}
		text := PlainToken{ID: id, Secret: s}.String()
		if p, ok := ParsePlainToken(text); !ok || p.ID != id || p.Secret != s || p.String() != text {
			t.Fatalf("ParsePlainToken(%q) = %+v, %v", text, p, ok)
		}
	})
}
