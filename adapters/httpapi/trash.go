package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The values of the post list's trashed parameter, Laravel's words: only
// the caller's trashed posts, or the list with them.
const (
	trashedOnly = "only"
	trashedWith = "with"
)

// trashedParam reads the post list's trashed parameter: "" (live posts
// only), trashedOnly or trashedWith.
func trashedParam(c *fiber.Ctx) (string, error) {
	q := c.Query("trashed")
	if q == "" {
		return "", nil
	}
	v := validate.New(map[string]any{"trashed": q})
	return v.String("trashed", validate.In(trashedOnly, trashedWith)), v.Err()
}

// forceParam reads a DELETE's force parameter: true purges at once,
// false or absent moves to the trash.
func forceParam(c *fiber.Ctx) (bool, error) {
	q := c.Query("force")
	if q == "" {
		return false, nil
	}
	v := validate.New(map[string]any{"force": q})
	force := v.Bool("force")
	if err := v.Err(); err != nil {
		return false, err
	}
	return force != nil && *force, nil
}

// removePost trashes the post, or purges it with force=true; v1 and v2
// answer it each in their own way.
func (s *Server) removePost(c *fiber.Ctx) error {
	return trashOrPurge(c, "post", s.posts.Delete, s.posts.Purge)
}

// trashOrPurge moves the caller's record that the path parameter param
// names to the trash, or purges it with force=true, through its use
// case's Delete (trash) and Purge (purge), at the version If-Match names.
func trashOrPurge(c *fiber.Ctx, param string,
	trash func(context.Context, domain.Acting, int64, ports.Precondition) error,
	purge func(context.Context, domain.Actor, int64, ports.Precondition) error,
) error {
	id, err := pathID(c, param)
	if err != nil {
		return err
	}
	force, err := forceParam(c)
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	if force {
		return purge(c.UserContext(), actor, id, conditional.IfMatch(c))
	}
	return trash(c.UserContext(), domain.ByOwnRight(actor), id, conditional.IfMatch(c))
}

func (s *Server) restorePost(c *fiber.Ctx) error {
	return s.restorePostAs(c, apiV1, postWithComments)
}

func (s *Server) restorePostV2(c *fiber.Ctx) error {
	return s.restorePostAs(c, apiV2, postSingle)
}

// restorePostAs brings the caller's post back and answers it as the
// version's single read does.
func (s *Server) restorePostAs(c *fiber.Ctx, prefix string, detail postDetail) error {
	id, err := pathID(c, "post")
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	view, err := s.posts.Restore(c.UserContext(), actor, id)
	if err != nil {
		return err
	}
	return s.sendPost(c, prefix, view, detail)
}

func (s *Server) restoreComment(c *fiber.Ctx) error {
	id, err := pathID(c, "comment")
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	view, err := s.comments.Restore(c.UserContext(), actor, id)
	if err != nil {
		return err
	}
	return s.sendComment(c, view)
}
