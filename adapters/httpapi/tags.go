package httpapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
)

// listTags answers every tag, ordered by name. The caller is identified,
// although the route is public, so that a reader who could have written
// reads the primary.
func (s *Server) listTags(c *fiber.Ctx) error {
	tags, err := s.tags.List(c.UserContext(), callerOf(c))
	if err != nil {
		return err
	}
	respcache.Tag(c, domain.TagTags)
	for _, t := range tags {
		respcache.Tag(c, domain.TagTag(t.ID))
	}
	return sendJSON(c, http.StatusOK, fiber.Map{"data": presentTags(tags)})
}

func (s *Server) createTag(c *fiber.Ctx) error {
	body, err := jsonBody(c)
	if err != nil {
		return err
	}
	v := validate.New(body)
	name := v.String("name", validate.Required, validate.Check(domain.CheckTagName))
	if err := v.Err(); err != nil {
		return err
	}
	actor, _ := actorOf(c)
	tag, err := s.tags.Create(c.UserContext(), actor, name)
	if err != nil {
		return err
	}
	s.evict(domain.TagTags)
	return sendJSON(c, http.StatusCreated, fiber.Map{"data": presentTag(tag)})
}
