package domain

import (
	"slices"
	"testing"
)

// TestCacheTags: the tags an event evicts follow from its noun and its
// subject, so that types this table never names (a post moved to the
// trash, a comment restored) evict what they change.
func TestCacheTags(t *testing.T) {
	post := &PostState{ID: 42, AuthorID: 3}
	cases := []struct {
		name string
		e    Event
		want []string
	}{
		{"post.updated", Event{Type: PostUpdated, PostID: 42, Payload: EventPayload{Post: post}}, []string{"posts", "post:42"}},
		{"post.trashed", Event{Type: "post.trashed", PostID: 42, Payload: EventPayload{Post: post}}, []string{"posts", "post:42"}},
		{"comment.trashed", Event{Type: "comment.trashed", PostID: 42, Payload: EventPayload{Comment: &Comment{ID: 7, PostID: 42}}}, []string{"comments", "post:42", "posts"}},
		{"user.updated", Event{Type: PersonUpdated, Payload: EventPayload{Person: &Person{ID: 5}}}, []string{"people", "person:5"}},
		{"product.deleted", Event{Type: ProductDeleted, Payload: EventPayload{Product: &Product{ID: 9}}}, []string{"products", "product:9"}},
		{"an unknown subject", Event{Type: "gallery.created"}, []string{"gallerys", "posts"}},
		{"a revocation", NewRevocationEvent(Revocation{UserID: 1, AllTokens: true}, Event{}.CreatedAt), nil},
		{"an account's end", NewRevocationEvent(Revocation{UserID: 1, AllTokens: true, AllSessions: true}, Event{}.CreatedAt), []string{"user:1"}},
		{"tags renamed or merged", NewTagsEvent([]Tag{{ID: 4}, {ID: 6}}, Event{}.CreatedAt), []string{"tags", "posts", "tag:4", "tag:6"}},
	}
	for _, c := range cases {
		if got := c.e.CacheTags(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
