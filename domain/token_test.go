package domain

import (
	"strings"
	"testing"
	"time"
)

func TestParsePlainToken(t *testing.T) {
	for _, tc := range []struct {
		in     string
		want   PlainToken
		wantOK bool
	}{
		{"12|abc", PlainToken{ID: 12, Secret: "abc"}, true},
		{"abc", PlainToken{Secret: "abc"}, true},
		{"12|", PlainToken{}, false},
		{"|abc", PlainToken{}, false},
		{"0|abc", PlainToken{}, false},
		{"-3|abc", PlainToken{}, false},
		{"x|abc", PlainToken{}, false},
		{"99999999999999999999|abc", PlainToken{}, false},
		{"", PlainToken{}, false},
		{"1|" + strings.Repeat("a", 513), PlainToken{}, false},
	} {
		got, ok := ParsePlainToken(tc.in)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("ParsePlainToken(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestSecretFormat(t *testing.T) {
	// The CRC32 (IEEE, as PHP's crc32b; checked with zlib.crc32) follows
	// the entropy in hex.
	entropy := strings.Repeat("a", 40)
	if got, want := NewSecret(entropy), entropy+"c95b8a25"; got != want {
		t.Errorf("NewSecret: got %q, want %q", got, want)
	}
	if got := (PlainToken{ID: 7, Secret: "s"}).String(); got != "7|s" {
		t.Errorf("String: got %q, want 7|s", got)
	}
	tok := Token{Hash: HashSecret("s3cret")}
	if !tok.MatchesSecret("s3cret") || tok.MatchesSecret("s3cres") || tok.MatchesSecret("") {
		t.Error("MatchesSecret accepts only the secret whose digest is stored")
	}
}

func TestAbilities(t *testing.T) {
	reader := Token{Abilities: []string{AbilityPostsRead}}
	all := Token{Abilities: []string{AbilityAll}}
	none := Token{Abilities: []string{}}
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"reader can read", reader.Can(AbilityPostsRead), true},
		{"reader can't write", reader.Can(AbilityPostsWrite), false},
		{"* can anything", all.Can("anything"), true},
		{"none can't read", none.Can(AbilityPostsRead), false},
		{"CanAll needs every one", reader.CanAll(AbilityPostsRead, AbilityPostsWrite), false},
		{"CanAll of none", reader.CanAll(), true},
		{"CanAny needs one", reader.CanAny(AbilityPostsWrite, AbilityPostsRead), true},
		{"CanAny of none", reader.CanAny(), false},
		{"reader grants read", reader.Grants([]string{AbilityPostsRead}), true},
		{"reader grants nothing", reader.Grants([]string{}), true},
		{"reader can't grant write", reader.Grants([]string{AbilityPostsWrite}), false},
		{"reader can't grant *", reader.Grants([]string{AbilityAll}), false},
		{"* grants *", all.Grants([]string{AbilityAll}), true},
		{"a session acts with every ability", Actor{}.CanAll(AbilityPostsWrite, "x"), true},
		{"an actor with a token is bound by it", Actor{Token: &reader}.Can(AbilityPostsWrite), false},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestTokenLifetime(t *testing.T) {
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	tok := NewToken(1, "t", "h", nil, now, time.Hour)
	if tok.Abilities == nil || len(tok.Abilities) != 0 {
		t.Errorf("abilities: got %#v, want an empty list", tok.Abilities)
	}
	if tok.Expired(now.Add(time.Hour-time.Nanosecond)) || !tok.Expired(now.Add(time.Hour)) {
		t.Error("a token expires exactly at the end of its lifetime")
	}
	if forever := NewToken(1, "t", "h", nil, now, 0); forever.ExpiresAt != nil || forever.Expired(now.Add(1e6*time.Hour)) {
		t.Error("a zero lifetime never expires")
	}
	if !tok.NeedsTouch(now) {
		t.Error("a token never used needs a touch")
	}
	used := now
	tok.LastUsedAt = &used
	if tok.NeedsTouch(now.Add(TouchInterval-time.Microsecond)) || !tok.NeedsTouch(now.Add(TouchInterval)) {
		t.Error("last_used_at is written again once TouchInterval has passed")
	}
}

// TestPostReadsFailClosed: an actor whose transport set nothing reads posts
// only as a signed-in holder of posts:read or posts:write, and so does one
// carrying a PostReads value no constant names; only PostReadsOpen opens
// reads. Writing posts asks one ability, whatever PostReads says.
func TestPostReadsFailClosed(t *testing.T) {
	profile := Token{Abilities: []string{AbilityProfileUpdate}}
	reader := Token{Abilities: []string{AbilityPostsRead}}
	writer := Token{Abilities: []string{AbilityPostsWrite}}
	ann := User{ID: 7}
	for _, tc := range []struct {
		name  string
		actor Actor
		want  error
	}{
		{"nobody, zero value", Actor{}, ErrUnauthenticated},
		{"a token without a read ability, zero value", Actor{User: ann, Token: &profile}, ErrInvalidAbility},
		{"a token with no ability, zero value", Actor{User: ann, Token: &Token{}}, ErrInvalidAbility},
		{"a token holding posts:read, zero value", Actor{User: ann, Token: &reader}, nil},
		{"a token holding posts:write, zero value", Actor{User: ann, Token: &writer}, nil},
		{"a browser session, zero value", Actor{User: ann}, nil},
		{"nobody, a value no constant names", Actor{PostReads: PostReadsOpen + 1}, ErrUnauthenticated},
		{"nobody, PostReadsNeedAbility", Actor{PostReads: PostReadsNeedAbility}, ErrUnauthenticated},
		{"nobody, PostReadsOpen", Actor{PostReads: PostReadsOpen}, nil},
		{"a token without a read ability, PostReadsOpen", Actor{User: ann, Token: &profile, PostReads: PostReadsOpen}, nil},
	} {
		if got := tc.actor.CheckPostRead(); got != tc.want {
			t.Errorf("CheckPostRead by %s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	if PostReadsNeedAbility != PostReads(0) {
		t.Errorf("the zero PostReads is %d, want PostReadsNeedAbility", PostReadsNeedAbility)
	}
	for _, reads := range []PostReads{PostReadsNeedAbility, PostReadsOpen} {
		for _, tc := range []struct {
			name  string
			actor Actor
			want  error
		}{
			{"nobody", Actor{PostReads: reads}, ErrUnauthenticated},
			{"posts:read", Actor{User: ann, Token: &reader, PostReads: reads}, ErrInvalidAbility},
			{"posts:write", Actor{User: ann, Token: &writer, PostReads: reads}, nil},
		} {
			if got := tc.actor.CheckAbility(WritePosts); got != tc.want {
				t.Errorf("CheckAbility(WritePosts) by %s with PostReads %d: got %v, want %v", tc.name, reads, got, tc.want)
			}
		}
	}
}
