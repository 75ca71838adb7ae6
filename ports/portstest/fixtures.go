package portstest

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// base is the suite's reference instant. It carries microseconds, the
// precision every store keeps, so a store that drops them fails the round
// trips.
var base = time.Date(2026, 11, 20, 10, 0, 0, 123456000, time.UTC)

// at is base moved by d.
func at(d time.Duration) time.Time { return base.Add(d) }

func ptr[T any](v T) *T { return &v }

// missingID is an id no fixture ever reaches.
const missingID int64 = 987654321

// secrets makes every token secret in a test binary distinct, since the
// stores keep token digests unique.
var secrets atomic.Int64

func newSecretHash() string {
	return domain.HashSecret(fmt.Sprintf("suite-secret-%d", secrets.Add(1)))
}

func newUser(name, email string) domain.User {
	return domain.User{
		Name:         name,
		Email:        email,
		PasswordHash: "$2y$04$" + name,
		CreatedAt:    base,
		UpdatedAt:    base,
	}
}

func newToken(userID int64, name string, created time.Time) domain.Token {
	return domain.Token{
		UserID:    userID,
		Name:      name,
		Hash:      newSecretHash(),
		Abilities: []string{domain.AbilityPostsRead},
		CreatedAt: created,
		UpdatedAt: created,
	}
}

func newPerson(name, email string) domain.Person {
	return domain.Person{Name: name, Email: email, CreatedAt: base, UpdatedAt: base}
}

func newProduct(name string, sku *string) domain.Product {
	return domain.Product{Name: name, PriceCents: 1000, SKU: sku, CreatedAt: base, UpdatedAt: base}
}

func createUser(t *testing.T, r ports.Repos, u domain.User) domain.User {
	t.Helper()
	must(t, fmt.Sprintf("Users.Create(%q)", u.Email), r.Users.Create(t.Context(), &u))
	return u
}

func createToken(t *testing.T, r ports.Repos, tok domain.Token) domain.Token {
	t.Helper()
	must(t, fmt.Sprintf("Tokens.Create(%q)", tok.Name), r.Tokens.Create(t.Context(), &tok))
	return tok
}

func createPerson(t *testing.T, r ports.Repos, p domain.Person) domain.Person {
	t.Helper()
	must(t, fmt.Sprintf("People.Create(%q)", p.Email), r.People.Create(t.Context(), &p))
	return p
}

func createProduct(t *testing.T, r ports.Repos, p domain.Product) domain.Product {
	t.Helper()
	must(t, fmt.Sprintf("Products.Create(%q)", p.Name), r.Products.Create(t.Context(), &p))
	return p
}

// newSession starts an API session of userID (0 for one no login has
// bound yet) last active at lastActivity. Its digest and CSRF token come
// from the same counter as token secrets, so they are distinct in a test
// binary.
func newSession(userID int64, lastActivity time.Time) domain.Session {
	n := secrets.Add(1)
	return domain.Session{
		IDHash:       domain.HashSecret(fmt.Sprintf("suite-session-%d", n)),
		Kind:         domain.SessionAPI,
		UserID:       userID,
		CSRFToken:    fmt.Sprintf("suite-csrf-%d", n),
		LastActivity: lastActivity,
		CreatedAt:    base,
	}
}

func createSession(t *testing.T, r ports.Repos, s domain.Session) domain.Session {
	t.Helper()
	must(t, fmt.Sprintf("Sessions.Create(%q)", s.CSRFToken), r.Sessions.Create(t.Context(), s))
	return s
}

// where names the two places a repository method can run: on the store's own
// repositories and on those of a transaction, whose error InTx must hand
// back. The errors a method names are the same in both places.
type where struct {
	name string
	run  func(ctx context.Context, st ports.Store, call func(r ports.Repos) error) error
}

var bothPlaces = []where{
	{"outside a transaction", func(_ context.Context, st ports.Store, call func(r ports.Repos) error) error {
		return call(st.Repos())
	}},
	{"inside a transaction", func(ctx context.Context, st ports.Store, call func(r ports.Repos) error) error {
		return st.InTx(ctx, call)
	}},
}

// newPost starts a post by authorID through the domain constructor, as the
// use cases do: the slug follows the title and a published post is stamped
// published at created.
func newPost(t *testing.T, authorID int64, title string, status domain.PostStatus, created time.Time) domain.Post {
	t.Helper()
	p, err := domain.NewPost(authorID, title, "<p>Body of "+title+"</p>", status, created)
	must(t, fmt.Sprintf("domain.NewPost(%q)", title), err)
	return p
}

func createPost(t *testing.T, r ports.Repos, p domain.Post) domain.Post {
	t.Helper()
	must(t, fmt.Sprintf("Posts.Create(%q)", p.Slug()), r.Posts.Create(t.Context(), &p))
	return p
}

func createTag(t *testing.T, r ports.Repos, name string, created time.Time) domain.Tag {
	t.Helper()
	tag := newTag(t, name, created)
	must(t, fmt.Sprintf("Tags.Create(%q)", name), r.Tags.Create(t.Context(), &tag))
	return tag
}

// newTag prepares a tag whose name the test knows to be valid.
func newTag(t *testing.T, name string, created time.Time) domain.Tag {
	t.Helper()
	tag, err := domain.NewTag(name, created)
	must(t, fmt.Sprintf("domain.NewTag(%q)", name), err)
	return tag
}

func newComment(postID, userID int64, body string, created time.Time) domain.Comment {
	return domain.Comment{PostID: postID, UserID: userID, Body: body, CreatedAt: created, UpdatedAt: created}
}

func createComment(t *testing.T, r ports.Repos, c domain.Comment) domain.Comment {
	t.Helper()
	must(t, fmt.Sprintf("Comments.Create(%q)", c.Body), r.Comments.Create(t.Context(), &c))
	return c
}

// withAuthors pairs each comment with its author, found among users, as
// Comments.ListByPost returns them.
func withAuthors(t *testing.T, comments []domain.Comment, users ...domain.User) []ports.CommentView {
	t.Helper()
	out := make([]ports.CommentView, len(comments))
	for i, c := range comments {
		k := slices.IndexFunc(users, func(u domain.User) bool { return u.ID == c.UserID })
		if k < 0 {
			t.Fatalf("withAuthors: the author %d of comment %q is not among the users given", c.UserID, c.Body)
		}
		out[i] = ports.CommentView{Comment: c, Author: users[k].Author()}
	}
	return out
}

// commentsOf drops the authors of views.
func commentsOf(views []ports.CommentView) []domain.Comment {
	out := make([]domain.Comment, len(views))
	for i, v := range views {
		out[i] = v.Comment
	}
	return out
}

func setTags(t *testing.T, r ports.Repos, post domain.Post, tags ...domain.Tag) {
	t.Helper()
	ids := make([]int64, len(tags))
	for i, tag := range tags {
		ids[i] = tag.ID
	}
	must(t, fmt.Sprintf("Posts.SetTags(%q)", post.Slug()), r.Posts.SetTags(t.Context(), post.ID(), ids))
}

// checkPosts compares a list of posts by title first, which says more than
// a field diff when the order is wrong, and then every stored field.
// domain.Post keeps its fields unexported, so the comparison goes through
// State.
func checkPosts(t *testing.T, what string, got, want []domain.Post) bool {
	t.Helper()
	if g, w := postTitles(got), postTitles(want); !slices.Equal(g, w) {
		t.Errorf("%s: got %q, want %q", what, g, w)
		return false
	}
	ok := true
	for i := range got {
		ok = check(t, fmt.Sprintf("%s: item %d", what, i), got[i].State(), want[i].State()) && ok
	}
	return ok
}

func postTitles(posts []domain.Post) []string {
	out := make([]string, len(posts))
	for i, p := range posts {
		out[i] = p.Title()
	}
	return out
}

// checkTagMap compares the result of Tags.OfPosts with want, post by post.
func checkTagMap(t *testing.T, what string, got, want map[int64][]domain.Tag) {
	t.Helper()
	for id, tags := range want {
		g, ok := got[id]
		if !ok {
			t.Errorf("%s: post %d absent, want tags %q", what, id, tagNames(tags))
			continue
		}
		check(t, fmt.Sprintf("%s: tags of post %d", what, id), g, tags)
	}
	for id, tags := range got {
		if _, ok := want[id]; !ok {
			t.Errorf("%s: post %d has tags %q, want it absent", what, id, tagNames(tags))
		}
	}
}

func tagNames(tags []domain.Tag) []string {
	out := make([]string, len(tags))
	for i, tag := range tags {
		out[i] = tag.Name
	}
	return out
}
