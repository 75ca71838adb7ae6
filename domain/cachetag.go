package domain

import "strconv"

// The tags a copy of an answer (the HTTP cache's, a CDN's) is filed under:
// each answer carries the tags of what it shows, and each change evicts
// the tags of what it changed (Event.CacheTags). A collection's tag
// (TagPosts) stands for every list of it, a member's (PostTag) for every
// answer that shows that member.
const (
	TagPosts    = "posts"
	TagTags     = "tags"
	TagPeople   = "people"
	TagProducts = "products"
)

// PostTag names the answers that show post id.
func PostTag(id int64) string { return "post:" + strconv.FormatInt(id, 10) }

// AccountTag names the answers that show account id, as a post's or a
// comment's author.
func AccountTag(id int64) string { return "user:" + strconv.FormatInt(id, 10) }

// TagTag names the answers that show tag id.
func TagTag(id int64) string { return "tag:" + strconv.FormatInt(id, 10) }

// PersonTag names the answers that show area B's record id.
func PersonTag(id int64) string { return "person:" + strconv.FormatInt(id, 10) }

// ProductTag names the answers that show area B's product id.
func ProductTag(id int64) string { return "product:" + strconv.FormatInt(id, 10) }

// collectionTags maps the topics whose collection tag is not the topic's
// own name: area B's users are people, apart from area A's accounts.
var collectionTags = map[string]string{TopicUsers: TagPeople}

// CacheTags names the answers e may have changed, from its type's noun
// and its subject rather than from a table of types, so that a new type
// is covered as it comes: its topic's collection; the post of a post's or
// a comment's event (PostID), with every list of posts; and the record
// the payload holds. A type whose subject it cannot tell evicts every
// list of posts as well, since that is what most answers show. Internal
// records change nothing a reader sees and evict nothing, except the one
// that ends every credential of an account, as its deletion does: the
// comments it wrote on others' posts go with it, so every answer showing
// the account goes too; and the one that tags changed, which evicts every
// answer showing them and every list (a list by tag, which may gain or
// lose posts, shows no tag when it is empty).
func (e Event) CacheTags() []string {
	if e.Type == TagsChanged {
		tags := []string{TagTags, TagPosts}
		for _, t := range e.Payload.Tags {
			tags = append(tags, TagTag(t.ID))
		}
		return dedupe(tags)
	}
	if e.Internal() {
		if r := e.Payload.Revocation; r != nil && r.AllTokens && r.AllSessions {
			return []string{AccountTag(r.UserID)}
		}
		return nil
	}
	topic := e.Type.Topic()
	tags := []string{topic}
	if c, ok := collectionTags[topic]; ok {
		tags[0] = c
	}
	known := false
	if e.PostID != 0 {
		tags, known = append(tags, PostTag(e.PostID), TagPosts), true
	}
	switch p := e.Payload; {
	case p.Post != nil:
		tags, known = append(tags, PostTag(p.Post.ID), TagPosts), true
	case p.Comment != nil:
		tags, known = append(tags, PostTag(p.Comment.PostID), TagPosts), true
	case p.Person != nil:
		tags, known = append(tags, PersonTag(p.Person.ID)), true
	case p.Product != nil:
		tags, known = append(tags, ProductTag(p.Product.ID)), true
	}
	if !known {
		tags = append(tags, TagPosts)
	}
	return dedupe(tags)
}

func dedupe(tags []string) []string {
	out := tags[:0]
	seen := make(map[string]bool, len(tags))
	for _, t := range tags {
		if t != "" && t != "post:0" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
