package domain

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"
	"time"
)

// TouchInterval is how stale last_used_at may grow before a request writes it
// again: writing on every request would make each authenticated read a write.
const TouchInterval = time.Minute

// Token is a personal access token. Only the SHA-256 digest of its secret is
// kept; the plain text exists once, when it is issued.
type Token struct {
	ID         int64
	UserID     int64
	Name       string
	Hash       string // hex SHA-256 of the secret part of the plain text
	Abilities  []string
	LastUsedAt *time.Time
	ExpiresAt  *time.Time // nil: never expires
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// NewToken prepares a token for userID, issued at now and living for
// lifetime (zero: forever). The store assigns the ID.
func NewToken(userID int64, name, hash string, abilities []string, now time.Time, lifetime time.Duration) Token {
	t := Token{
		UserID:    userID,
		Name:      name,
		Hash:      hash,
		Abilities: slices.Clone(abilities),
		CreatedAt: now,
		UpdatedAt: now,
	}
	if t.Abilities == nil {
		t.Abilities = []string{}
	}
	if lifetime > 0 {
		exp := now.Add(lifetime)
		t.ExpiresAt = &exp
	}
	return t
}

// Can reports whether the token grants ability.
func (t Token) Can(ability string) bool {
	return slices.Contains(t.Abilities, AbilityAll) || slices.Contains(t.Abilities, ability)
}

// CanAll reports whether the token grants every one of abilities.
func (t Token) CanAll(abilities ...string) bool {
	for _, a := range abilities {
		if !t.Can(a) {
			return false
		}
	}
	return true
}

// CanAny reports whether the token grants at least one of abilities.
func (t Token) CanAny(abilities ...string) bool {
	return slices.ContainsFunc(abilities, t.Can)
}

// Expired reports whether the token's lifetime has run out at now.
func (t Token) Expired(now time.Time) bool {
	return t.ExpiresAt != nil && !now.Before(*t.ExpiresAt)
}

// NeedsTouch reports whether last_used_at is stale enough to be written at now.
func (t Token) NeedsTouch(now time.Time) bool {
	return t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) >= TouchInterval
}

// Grants reports whether a token holding t's abilities may issue a token with
// the requested ones: nobody hands out more than they hold, and only a token
// holding "*" may issue "*".
func (t Token) Grants(requested []string) bool {
	if slices.Contains(t.Abilities, AbilityAll) {
		return true
	}
	for _, a := range requested {
		if a == AbilityAll || !slices.Contains(t.Abilities, a) {
			return false
		}
	}
	return true
}

// PlainToken is the text a client presents: "{id}|{secret}", where the secret
// is 40 random letters and digits followed by the CRC32 (hex) of those 40, the
// format of Laravel Sanctum 4.
type PlainToken struct {
	ID     int64 // 0 when the text carried no "id|" prefix
	Secret string
}

// String renders the token as a client presents it.
func (p PlainToken) String() string {
	return strconv.FormatInt(p.ID, 10) + "|" + p.Secret
}

// NewSecret appends the CRC32 checksum to 40 random characters.
func NewSecret(entropy string) string {
	return entropy + fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(entropy)))
}

// ParsePlainToken splits a presented token. A text without "|" is taken whole
// as the secret, as Sanctum does. Anything else malformed is refused.
func ParsePlainToken(s string) (PlainToken, bool) {
	idPart, secret, found := strings.Cut(s, "|")
	if !found {
		secret, idPart = s, ""
	}
	if secret == "" || len(secret) > 512 {
		return PlainToken{}, false
	}
	var id int64
	if found {
		n, err := strconv.ParseInt(idPart, 10, 64)
		if err != nil || n <= 0 {
			return PlainToken{}, false
		}
		id = n
	}
	return PlainToken{ID: id, Secret: secret}, true
}

// HashSecret is the digest kept in place of the secret.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// MatchesSecret compares secret with the token's digest in constant time.
func (t Token) MatchesSecret(secret string) bool {
	return subtle.ConstantTimeCompare([]byte(HashSecret(secret)), []byte(t.Hash)) == 1
}

// Actor is who performs a request: a user and the token presented, or no token
// for a browser session, which acts with every ability as Sanctum's does.
type Actor struct {
	User  User
	Token *Token
	// VerifiedEmailRequired is set at authentication when the service
	// lets only accounts that proved their address write
	// (REQUIRE_VERIFIED_EMAIL).
	VerifiedEmailRequired bool
	// PostReads is what reading posts asks of the actor. Its zero value
	// asks the most; the transport that authenticated the actor may open
	// reads (PostReadsOpen). The post use cases check it (CheckPostRead).
	PostReads PostReads
}

// PostReads says what a caller needs to read posts, beyond the visibility
// every read applies (a draft is its author's alone). It travels with the
// actor, so that the use case checks it whoever calls it, and its zero
// value is the strict one: a transport that sets nothing serves no
// anonymous read, and opening reads is a choice written where it is made.
type PostReads uint8

// What reading posts needs.
const (
	// PostReadsNeedAbility, the zero value: a signed-in actor holding
	// posts:read or posts:write (a browser session holds both). Sanctum's
	// ability middleware in front of version 2's reads asks the same.
	PostReadsNeedAbility PostReads = iota
	// PostReadsOpen: anyone reads the published posts, nobody included,
	// and a signed-in actor its own drafts too, whatever its token holds,
	// as the specification's version 1 has it.
	PostReadsOpen
)

// CheckTokenPresented returns ErrUnauthenticated unless the actor
// presented a personal access token: a browser session or nobody does not
// pass. It is the gate of area B's writes when the service requires a
// token for them (CRUD_AUTH=token).
func (a Actor) CheckTokenPresented() error {
	if a.Token == nil || a.User.ID == 0 {
		return ErrUnauthenticated
	}
	return nil
}

// CheckPostRead returns what the actor's PostReads refuses to a read of
// posts. PostReadsOpen refuses nothing; any other value, the zero one
// first, refuses nobody (ErrUnauthenticated) and a token holding neither
// posts:read nor posts:write (ErrInvalidAbility). Writes of posts check
// CheckAbility(WritePosts) alone, whatever PostReads says.
func (a Actor) CheckPostRead() error {
	if a.PostReads == PostReadsOpen {
		return nil
	}
	if a.User.ID == 0 {
		return ErrUnauthenticated
	}
	if !a.CanAny(AbilityPostsRead, AbilityPostsWrite) {
		return ErrInvalidAbility
	}
	return nil
}

// CheckWrite returns ErrEmailNotVerified when the actor may not write yet:
// the service requires a proven address and the actor's account has none.
// Every use case that creates, changes or deletes the actor's content or
// credentials calls it first.
func (a Actor) CheckWrite() error {
	if a.VerifiedEmailRequired && a.User.EmailVerifiedAt == nil {
		return ErrEmailNotVerified
	}
	return nil
}

// Can reports whether the actor holds ability.
func (a Actor) Can(ability string) bool {
	return a.Token == nil || a.Token.Can(ability)
}

// CanAll reports whether the actor holds every one of abilities.
func (a Actor) CanAll(abilities ...string) bool {
	return a.Token == nil || a.Token.CanAll(abilities...)
}

// CanAny reports whether the actor holds at least one of abilities.
func (a Actor) CanAny(abilities ...string) bool {
	return a.Token == nil || a.Token.CanAny(abilities...)
}

// Bounds of a token that a user asks for.
const (
	// MaxTokenNameLength bounds a token's name, in characters.
	MaxTokenNameLength = 255
	// MaxTokenAbilities bounds how many abilities one token lists, and
	// MaxAbilityLength how long each is, in characters.
	MaxTokenAbilities = 50
	MaxAbilityLength  = 255
	// MinTokenLifetime and MaxTokenLifetime bound the lifetime a user
	// chooses for a token: a minute to a year (525,600 minutes).
	MinTokenLifetime = time.Minute
	MaxTokenLifetime = 365 * 24 * time.Hour
)

// CheckTokenRequest reports every rule that a token a user asks for breaks:
// the name is required and at most MaxTokenNameLength characters, the
// abilities at most MaxTokenAbilities of at most MaxAbilityLength
// characters each, each one of Abilities, and a chosen lifetime (zero: the service's default)
// from MinTokenLifetime to MaxTokenLifetime, named in whole minutes as a
// request carries it (expires_in_minutes).
func CheckTokenRequest(name string, abilities []string, lifetime time.Duration) error {
	var vs Violations
	vs.Add("name", checkText(name, MaxTokenNameLength))
	if len(abilities) > MaxTokenAbilities {
		vs.Add("abilities", []Rule{RuleN(RuleMaxItems, MaxTokenAbilities)})
	}
	for i, a := range abilities {
		rules := checkLength(a, MaxAbilityLength)
		if !slices.Contains(Abilities, a) {
			rules = append(rules, RuleOf(RuleIn, Abilities...))
		}
		vs.Add("abilities."+strconv.Itoa(i), rules)
	}
	if lifetime != 0 {
		vs.Add("expires_in_minutes", checkRange(int64(lifetime/time.Minute), int64(MinTokenLifetime/time.Minute), int64(MaxTokenLifetime/time.Minute)))
	}
	return vs.Err()
}
