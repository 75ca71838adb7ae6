package httpapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
)

// commentWrite reads what a comment create or update names: the record
// of the path parameter param (the post, or the comment), then the body.
func commentWrite(c *fiber.Ctx, param string) (int64, string, error) {
	id, err := pathID(c, param)
	if err != nil {
		return 0, "", err
	}
	body, err := commentBody(c)
	return id, body, err
}

// commentBody decodes and validates the body of a comment create or
// update. Both require the body, the only field a comment has.
func commentBody(c *fiber.Ctx) (string, error) {
	raw, err := jsonBody(c)
	if err != nil {
		return "", err
	}
	v := validate.New(raw)
	body := v.String("body", validate.Required, validate.Check(domain.CheckCommentBody))
	return body, v.Err()
}

func (s *Server) listComments(c *fiber.Ctx) error {
	return sendPageUnder(s, c, "post", "", s.comments.List, s.commentPresenter(c))
}

func (s *Server) createComment(c *fiber.Ctx) error {
	post, body, err := commentWrite(c, "post")
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	view, err := s.comments.Create(c.UserContext(), actor, post, body)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusCreated, fiber.Map{"data": s.presentComment(c, view)})
}

func (s *Server) showComment(c *fiber.Ctx) error {
	id, err := pathID(c, "comment")
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	view, err := s.comments.Get(c.UserContext(), actor, id)
	if err != nil {
		return err
	}
	return s.sendComment(c, view)
}

func (s *Server) updateComment(c *fiber.Ctx) error {
	id, body, err := commentWrite(c, "comment")
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	view, err := s.comments.Update(c.UserContext(), actor, id, body, conditional.IfMatch(c))
	if err != nil {
		return err
	}
	return s.sendComment(c, view)
}

// deleteComment moves the comment to the trash, or purges it with
// force=true.
func (s *Server) deleteComment(c *fiber.Ctx) error {
	if err := trashOrPurge(c, "comment", s.comments.Delete, s.comments.Purge); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, message{"Comment deleted successfully."})
}
