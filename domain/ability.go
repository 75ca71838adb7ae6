package domain

import "slices"

// The abilities a token may hold. AbilityAll grants every one, as Sanctum's
// "*" does. The specification names posts:read, posts:write and
// profile:update; the others narrow what a token may write to one kind of
// resource (see writeAbilities).
const (
	AbilityAll           = "*"
	AbilityPostsRead     = "posts:read"
	AbilityPostsWrite    = "posts:write"
	AbilityProfileUpdate = "profile:update"
	AbilityCommentsWrite = "comments:write"
	AbilityTagsWrite     = "tags:write"
	AbilityWebhooksWrite = "webhooks:write"
	AbilityTokensWrite   = "tokens:write"
)

// Abilities are every ability a token may be issued with, AbilityAll
// first. A request for a token with any other is invalid
// (CheckTokenRequest), so that a misspelt ability is refused rather than
// granting nothing in silence.
var Abilities = []string{
	AbilityAll,
	AbilityPostsRead,
	AbilityPostsWrite,
	AbilityProfileUpdate,
	AbilityCommentsWrite,
	AbilityTagsWrite,
	AbilityWebhooksWrite,
	AbilityTokensWrite,
}

// Write is a kind of write that the actor's abilities must allow. Each use
// case that writes names its kind and checks it (Actor.CheckAbility)
// before anything else, so that a token allowed none of it changes nothing
// and learns nothing. The zero Write names nothing, and no token is
// allowed it.
type Write uint8

// The writes.
const (
	// WritePosts creates, updates and deletes posts, in either version.
	WritePosts Write = iota + 1
	// WriteProfile changes the account: its name, e-mail address (and
	// asks for a new verification mail), password and avatar, and deletes
	// it.
	WriteProfile
	// WriteComments creates, edits and deletes comments.
	WriteComments
	// WriteTags creates tags, and renames, merges and deletes them for an
	// admin (Actor.CheckManageTags).
	WriteTags
	// WriteWebhooks creates, replaces and deletes webhooks and retries
	// their deliveries, which send the owner's events, drafts included, to
	// a URL of the caller's choice.
	WriteWebhooks
	// WriteTokens issues and revokes personal tokens. What a new token may
	// hold is bounded by Token.Grants besides; a token revoking itself is
	// a logout, which needs no ability.
	WriteTokens
)

// writeAbilities is the one table of who may write what: the abilities
// that allow each write, any one of them. AbilityAll allows every write,
// and a browser session makes every write (Actor.MayWrite). posts:write
// allows every write a login token (posts:read and posts:write) could
// make before the table existed, as the specification has it: such a
// client "may create, update and delete posts, manage its own profile and
// log out"; so no login token lost a right. The narrower abilities allow
// one kind each. posts:read allows no write.
var writeAbilities = map[Write][]string{
	WritePosts:    {AbilityPostsWrite},
	WriteProfile:  {AbilityPostsWrite, AbilityProfileUpdate},
	WriteComments: {AbilityPostsWrite, AbilityCommentsWrite},
	WriteTags:     {AbilityPostsWrite, AbilityTagsWrite},
	WriteWebhooks: {AbilityPostsWrite, AbilityWebhooksWrite},
	WriteTokens:   {AbilityPostsWrite, AbilityTokensWrite},
}

// Writes are every write the table names, in their order.
func Writes() []Write {
	out := make([]Write, 0, len(writeAbilities))
	for w := range writeAbilities {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// Abilities returns the abilities that allow w, any one of them, besides
// AbilityAll; none for a write the table does not name.
func (w Write) Abilities() []string {
	return slices.Clone(writeAbilities[w])
}

// Allows reports whether a token holding abilities may make write w.
func (w Write) Allows(abilities []string) bool {
	allowed, named := writeAbilities[w]
	if !named {
		return false
	}
	return slices.Contains(abilities, AbilityAll) ||
		slices.ContainsFunc(allowed, func(a string) bool { return slices.Contains(abilities, a) })
}

// MayWrite reports whether the actor may make write w: a browser session
// (no token) makes every write, as Sanctum's does, and a token the writes
// its abilities allow (writeAbilities). Nobody (the zero actor) makes
// none.
func (a Actor) MayWrite(w Write) bool {
	if a.User.ID == 0 {
		return false
	}
	if _, named := writeAbilities[w]; !named {
		return false
	}
	return a.Token == nil || w.Allows(a.Token.Abilities)
}

// CheckAbility returns ErrUnauthenticated for nobody and ErrInvalidAbility
// for an actor whose token does not allow write w (MayWrite). Every use
// case that writes for an actor calls it first.
func (a Actor) CheckAbility(w Write) error {
	switch {
	case a.User.ID == 0:
		return ErrUnauthenticated
	case !a.MayWrite(w):
		return ErrInvalidAbility
	}
	return nil
}
