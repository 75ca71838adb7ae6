package httpapi

import (
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// postJSON is the post representation of the specification: attributes,
// relationships present only when loaded, and a link to the single read.
type postJSON struct {
	ID            int64             `json:"id"`
	Type          string            `json:"type"`
	Attributes    postAttributes    `json:"attributes"`
	Relationships postRelationships `json:"relationships"`
	Links         selfLink          `json:"links"`
}

type postAttributes struct {
	Title       string  `json:"title"`
	Slug        string  `json:"slug"`
	Excerpt     string  `json:"excerpt"`
	Body        *string `json:"body,omitempty"`
	Status      string  `json:"status"`
	ImageURL    *string `json:"image_url"`
	PublishedAt *string `json:"published_at"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
	// DeletedAt is when a trashed post went to the trash; absent for a
	// live post.
	DeletedAt *string `json:"deleted_at,omitempty"`
}

type postRelationships struct {
	Author   *authorJSON   `json:"author,omitempty"`
	Tags     []tagJSON     `json:"tags"`
	Comments []commentJSON `json:"comments,omitzero"` // [] on the single read, absent in lists
}

type selfLink struct {
	Self string `json:"self"`
}

// authorJSON is the user representation inside posts and comments. It has no
// e-mail: public lists must not leak addresses.
type authorJSON struct {
	ID         int64            `json:"id"`
	Type       string           `json:"type"`
	Attributes authorAttributes `json:"attributes"`
}

type authorAttributes struct {
	Name      string  `json:"name"`
	AvatarURL *string `json:"avatar_url"`
}

type tagJSON struct {
	ID         int64         `json:"id"`
	Type       string        `json:"type"`
	Attributes tagAttributes `json:"attributes"`
}

type tagAttributes struct {
	Name string `json:"name"`
	Slug string `json:"slug"`
}

type commentJSON struct {
	ID            int64                `json:"id"`
	Type          string               `json:"type"`
	Attributes    commentAttributes    `json:"attributes"`
	Relationships commentRelationships `json:"relationships"`
	Links         selfLink             `json:"links"`
}

type commentAttributes struct {
	Body      string `json:"body"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

type commentRelationships struct {
	Author *authorJSON `json:"author"`
	// Post names the post the comment is on, so that an event or a
	// webhook body about the comment says where it belongs.
	Post postRef `json:"post"`
}

// postRef is a post named by a relationship: its id and type, as posts
// name their author.
type postRef struct {
	ID   int64  `json:"id"`
	Type string `json:"type"`
}

// postDetail says how much of a post a representation shows.
type postDetail int

const (
	postInList       postDetail = iota // no body, no comments
	postSingle                         // body, no comments (create, update)
	postWithComments                   // body and comments (the single read)
)

// presentPost renders v for the API version whose path prefix is apiPrefix
// ("/api/v1" or "/api/v2").
func (s *Server) presentPost(c *fiber.Ctx, apiPrefix string, v ports.PostView, detail postDetail) postJSON {
	return postOf(s.linksOf(c), apiPrefix, v, detail)
}

// postOf is presentPost with the links given, for
// representations made outside a request's handler (events).
func postOf(l links, apiPrefix string, v ports.PostView, detail postDetail) postJSON {
	p := v.Post
	out := postJSON{
		ID:   p.ID(),
		Type: "post",
		Attributes: postAttributes{
			Title:       p.Title(),
			Slug:        p.Slug(),
			Excerpt:     p.Excerpt(),
			Status:      string(p.Status()),
			ImageURL:    storageURLOf(l, p.ImagePath()),
			PublishedAt: formatTimePtr(p.PublishedAt()),
			CreatedAt:   formatTime(p.CreatedAt()),
			UpdatedAt:   formatTime(p.UpdatedAt()),
			DeletedAt:   formatTimePtr(v.DeletedAt),
		},
		Relationships: postRelationships{Author: authorOf(l, v.Author), Tags: presentTags(v.Tags)},
		Links:         selfLink{Self: l.base + apiPrefix + "/posts/" + strconv.FormatInt(p.ID(), 10)},
	}
	if detail >= postSingle {
		body := p.Body()
		out.Attributes.Body = &body
	}
	if detail == postWithComments {
		out.Relationships.Comments = make([]commentJSON, len(v.Comments))
		for i, cv := range v.Comments {
			out.Relationships.Comments[i] = commentOf(l, cv)
		}
	}
	return out
}

func authorOf(l links, u domain.Author) *authorJSON {
	return &authorJSON{ID: u.ID, Type: "user", Attributes: authorAttributes{Name: u.Name, AvatarURL: storageURLOf(l, u.AvatarPath)}}
}

func presentTag(t domain.Tag) tagJSON {
	return tagJSON{ID: t.ID, Type: "tag", Attributes: tagAttributes{Name: t.Name, Slug: t.Slug}}
}

func presentTags(tags []domain.Tag) []tagJSON {
	out := make([]tagJSON, len(tags))
	for i, t := range tags {
		out[i] = presentTag(t)
	}
	return out
}

// sendPost answers 200 with the post at detail under prefix and its
// version.
func (s *Server) sendPost(c *fiber.Ctx, prefix string, view ports.PostView, detail postDetail) error {
	conditional.Version(c, view.Post.UpdatedAt())
	return sendJSON(c, http.StatusOK, fiber.Map{"data": s.presentPost(c, prefix, view, detail)})
}

// sendComment answers 200 with the comment and its version.
func (s *Server) sendComment(c *fiber.Ctx, view ports.CommentView) error {
	conditional.Version(c, view.Comment.UpdatedAt)
	return sendJSON(c, http.StatusOK, fiber.Map{"data": s.presentComment(c, view)})
}

func (s *Server) presentComment(c *fiber.Ctx, v ports.CommentView) commentJSON {
	return commentOf(s.linksOf(c), v)
}

// commentPresenter is presentComment for the comments of one answer to c,
// with the links worked out once.
func (s *Server) commentPresenter(c *fiber.Ctx) func(ports.CommentView) commentJSON {
	l := s.linksOf(c)
	return func(v ports.CommentView) commentJSON { return commentOf(l, v) }
}

// commentOf is presentComment with the links given.
func commentOf(l links, v ports.CommentView) commentJSON {
	cm := v.Comment
	return commentJSON{
		ID:   cm.ID,
		Type: "comment",
		Attributes: commentAttributes{
			Body:      cm.Body,
			CreatedAt: formatTime(cm.CreatedAt),
			UpdatedAt: formatTime(cm.UpdatedAt),
		},
		Relationships: commentRelationships{Author: authorOf(l, v.Author), Post: postRef{ID: cm.PostID, Type: "post"}},
		Links:         selfLink{Self: l.base + "/api/v1/comments/" + strconv.FormatInt(cm.ID, 10)},
	}
}
