package domain

import "time"

// CredentialsRevoked is the type of the outbox's record that credentials
// ended: a token deleted, a browser session ended, every credential of an
// account revoked. The use case that ends them appends it in the same
// transaction, so that every replica's event streams learn of it in commit
// order, in the same read as the events, and stop before sending anything
// committed after it. It belongs to the service's own readers: it is not
// in EventTypes, its topic is not in Topics, and no reader or webhook is
// ever shown it.
const CredentialsRevoked EventType = "credentials.revoked"

// TopicCredentials is the topic of CredentialsRevoked.
const TopicCredentials = "credentials"

// Revocation names credentials of one user that a change ended. TokenID
// ends one token, TokenName the tokens of that name, AllTokens every token
// the user held; SessionHash ends one browser session (its IDHash),
// AllSessions every session the user held.
type Revocation struct {
	UserID      int64
	TokenID     int64
	TokenName   string
	AllTokens   bool
	SessionHash string
	AllSessions bool
}

// Credential is what a reader of events authenticated with: one token or
// one browser session of a user. The zero Credential is an anonymous
// reader's, which nothing revokes.
type Credential struct {
	UserID      int64
	TokenID     int64
	TokenName   string
	SessionHash string
}

// Ends reports whether r ends c.
func (r Revocation) Ends(c Credential) bool {
	if c.UserID == 0 || r.UserID != c.UserID {
		return false
	}
	switch {
	case c.TokenID != 0:
		return r.AllTokens || r.TokenID == c.TokenID || (r.TokenName != "" && r.TokenName == c.TokenName)
	case c.SessionHash != "":
		return r.AllSessions || r.SessionHash == c.SessionHash
	}
	return false
}

// NewRevocationEvent records that r's credentials ended at now.
func NewRevocationEvent(r Revocation, now time.Time) Event {
	return Event{Type: CredentialsRevoked, CreatedAt: now, Payload: EventPayload{Revocation: &r}}
}

// TagsChanged is the type of the outbox's record that tags were renamed,
// merged or deleted: every answer showing them, a post's among them, is
// stale on every replica. Like CredentialsRevoked it is internal: readers
// and webhooks never see it (a tag has no topic of theirs), and it serves
// the caches of answers (Event.CacheTags). Payload.Tags holds the tags
// changed as they are after the change (as they were, for one deleted).
const TagsChanged EventType = "tag.changed"

// NewTagsEvent records that tags changed at now.
func NewTagsEvent(tags []Tag, now time.Time) Event {
	return Event{Type: TagsChanged, CreatedAt: now, Payload: EventPayload{Tags: tags}}
}

// Internal reports whether e is a record for the service's own readers,
// which no stream, webhook or other reader is ever shown.
func (e Event) Internal() bool { return e.Type == CredentialsRevoked || e.Type == TagsChanged }

// Ends reports whether e records the end of credential c.
func (e Event) Ends(c Credential) bool {
	return e.Internal() && e.Payload.Revocation != nil && e.Payload.Revocation.Ends(c)
}

// ErrTooManyStreams refuses an event stream past the caps of streams per
// credential or per client address.
var ErrTooManyStreams = &Error{Kind: TooManyRequests, Code: "too_many_streams"}
