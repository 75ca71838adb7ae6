package domain

import (
	"strings"
	"time"
)

// EventType names what happened: a topic's singular, a dot and a verb.
type EventType string

// The event types. A post that becomes published or a draft is published or
// unpublished rather than updated, so that a reader who may not see drafts
// learns that the post left its view. A deletion moves a post or a comment
// to the trash (trashed), a restore brings it back (restored), and deleted
// is the purge, after which nothing can bring it back.
const (
	PostCreated     EventType = "post.created"
	PostUpdated     EventType = "post.updated"
	PostPublished   EventType = "post.published"
	PostUnpublished EventType = "post.unpublished"
	PostDeleted     EventType = "post.deleted"
	PostTrashed     EventType = "post.trashed"
	PostRestored    EventType = "post.restored"
	CommentCreated  EventType = "comment.created"
	CommentUpdated  EventType = "comment.updated"
	CommentDeleted  EventType = "comment.deleted"
	CommentTrashed  EventType = "comment.trashed"
	CommentRestored EventType = "comment.restored"
	PersonCreated   EventType = "user.created"
	PersonUpdated   EventType = "user.updated"
	PersonDeleted   EventType = "user.deleted"
	ProductCreated  EventType = "product.created"
	ProductUpdated  EventType = "product.updated"
	ProductDeleted  EventType = "product.deleted"
)

// EventTypes lists every event type, in the order above.
var EventTypes = []EventType{
	PostCreated, PostUpdated, PostPublished, PostUnpublished, PostDeleted, PostTrashed, PostRestored,
	CommentCreated, CommentUpdated, CommentDeleted, CommentTrashed, CommentRestored,
	PersonCreated, PersonUpdated, PersonDeleted,
	ProductCreated, ProductUpdated, ProductDeleted,
}

// The topics events are grouped in; a reader asks for topics by these names.
const (
	TopicPosts    = "posts"
	TopicComments = "comments"
	TopicUsers    = "users"
	TopicProducts = "products"
)

// Topics lists every topic.
var Topics = []string{TopicPosts, TopicComments, TopicUsers, TopicProducts}

// Topic returns the topic of t: "post.created" belongs to "posts".
func (t EventType) Topic() string {
	noun, _, _ := strings.Cut(string(t), ".")
	return noun + "s"
}

// Known reports whether t is one of EventTypes.
func (t EventType) Known() bool {
	for _, k := range EventTypes {
		if t == k {
			return true
		}
	}
	return false
}

// Event is one change recorded in the outbox in the transaction that made
// it. Payload is a snapshot of the resource after the change (before it,
// for a deletion) in a shape of the domain's own, which each reader presents
// as it represents the resource. PostID, PostAuthorID, CommentAuthorID and
// Draft are the facts that decide who may see the event; they are zero for
// area B's records, which everybody may read.
type Event struct {
	ID        int64
	Type      EventType
	CreatedAt time.Time

	// PostID is the post a post or comment event is about.
	PostID int64
	// PostAuthorID is that post's author.
	PostAuthorID int64
	// CommentAuthorID is the comment's author, for comment events.
	CommentAuthorID int64
	// Draft tells that the post was a draft after the change.
	Draft bool

	Payload EventPayload
}

// EventPayload is the snapshot an event carries; exactly one of Post,
// Comment, Person, Product and Revocation is set. Author is the post's or
// the comment's author; Tags are the post's.
type EventPayload struct {
	Post       *PostState
	Tags       []Tag
	Comment    *Comment
	Author     *Author
	Person     *Person
	Product    *Product
	Revocation *Revocation
}

func authorOf(u User) *Author {
	a := u.Author()
	return &a
}

// NewPostEvent records a change of post p, written by author, which carries
// tags.
func NewPostEvent(t EventType, p Post, author User, tags []Tag, now time.Time) Event {
	state := p.State()
	return Event{
		Type: t, CreatedAt: now,
		PostID: p.ID(), PostAuthorID: p.AuthorID(), Draft: !p.IsPublished(),
		Payload: EventPayload{Post: &state, Tags: tags, Author: authorOf(author)},
	}
}

// NewCommentEvent records a change of comment c, written by author, on
// post.
func NewCommentEvent(t EventType, c Comment, author User, post Post, now time.Time) Event {
	return Event{
		Type: t, CreatedAt: now,
		PostID: post.ID(), PostAuthorID: post.AuthorID(), CommentAuthorID: c.UserID, Draft: !post.IsPublished(),
		Payload: EventPayload{Comment: &c, Author: authorOf(author)},
	}
}

// NewPersonEvent records a change of area B's record p.
func NewPersonEvent(t EventType, p Person, now time.Time) Event {
	return Event{Type: t, CreatedAt: now, Payload: EventPayload{Person: &p}}
}

// NewProductEvent records a change of area B's product p.
func NewProductEvent(t EventType, p Product, now time.Time) Event {
	return Event{Type: t, CreatedAt: now, Payload: EventPayload{Product: &p}}
}

// PostEventType is the type of the change of a post from before to after:
// a change of status publishes or unpublishes it, anything else updates it.
func PostEventType(before, after Post) EventType {
	switch {
	case !before.IsPublished() && after.IsPublished():
		return PostPublished
	case before.IsPublished() && !after.IsPublished():
		return PostUnpublished
	}
	return PostUpdated
}

// EventView is how much of an event a reader may see.
type EventView int

const (
	// EventHidden: the reader may not learn of the event.
	EventHidden EventView = iota
	// EventWhole: the reader sees the event with its snapshot.
	EventWhole
	// EventBare: the reader learns that the post left their view, and its
	// id, but nothing of what the draft now holds.
	EventBare
)

// ViewOf says how much of e the user viewer (0: anonymous) may see: as
// much as the API would show them. A draft's events and the comments on it
// go to the draft's author alone, except that a post that becomes a draft
// is announced, bare, to everybody who could read it until then. Nobody
// sees an internal record.
func (e Event) ViewOf(viewer int64) EventView {
	switch {
	case e.Internal():
		return EventHidden
	case !e.Draft || e.PostID == 0:
		return EventWhole
	case viewer != 0 && viewer == e.PostAuthorID:
		return EventWhole
	case e.Type == PostUnpublished:
		return EventBare
	}
	return EventHidden
}

// Concerns reports whether e is about user's own posts, the comments on
// them or the comments user wrote: what a webhook of user's receives.
func (e Event) Concerns(user int64) bool {
	return user != 0 && !e.Internal() && (e.PostAuthorID == user || e.CommentAuthorID == user)
}
