package httpapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
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
	name, err := tagName(c)
	if err != nil {
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

// tagManager reads the id of the tag an admin's request names, and its
// caller: the actor with the client address its audit row records, once
// the actor's rights as authenticated allow managing tags. The use case
// checks them again on the account as stored now; this early check only
// puts a refusal before the body's.
func (s *Server) tagManager(c *fiber.Ctx) (int64, ports.AdminCaller, error) {
	id, err := pathID(c, "tag")
	if err != nil {
		return 0, ports.AdminCaller{}, err
	}
	actor, _ := actorOf(c)
	if err := actor.CheckManageTags(); err != nil {
		return 0, ports.AdminCaller{}, err
	}
	return id, ports.AdminCaller{Actor: actor, Address: s.proxies.ClientIP(c)}, nil
}

// renameTag gives a tag a new name, for admins. A name another tag holds
// is refused as creation refuses it; joining two tags is Tags.Merge's,
// which the API does not offer.
func (s *Server) renameTag(c *fiber.Ctx) error {
	id, caller, err := s.tagManager(c)
	if err != nil {
		return err
	}
	name, err := tagName(c)
	if err != nil {
		return err
	}
	tag, err := s.tags.Rename(c.UserContext(), caller, id, name)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, fiber.Map{"data": presentTag(tag)})
}

// deleteTag deletes a tag, which leaves every post that carried it, for
// admins.
func (s *Server) deleteTag(c *fiber.Ctx) error {
	id, caller, err := s.tagManager(c)
	if err != nil {
		return err
	}
	if err := s.tags.Delete(c.UserContext(), caller, id); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, message{"Tag deleted."})
}

// tagName decodes the body of a tag's create or rename: its name.
func tagName(c *fiber.Ctx) (string, error) {
	body, err := jsonBody(c)
	if err != nil {
		return "", err
	}
	v := validate.New(body)
	name := v.String("name", validate.Required, validate.Check(domain.CheckTagName))
	return name, v.Err()
}
