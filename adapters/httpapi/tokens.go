package httpapi

import (
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The bounds of expires_in_minutes: domain.CheckTokenRequest's, which the
// use case checks again.
const (
	minTokenMinutes = int64(domain.MinTokenLifetime / time.Minute)
	maxTokenMinutes = int64(domain.MaxTokenLifetime / time.Minute)
)

func (s *Server) listTokens(c *fiber.Ctx) error {
	actor, _ := actorOf(c)
	tokens, err := s.tokens.List(c.UserContext(), actor)
	if err != nil {
		return err
	}
	data := make([]tokenJSON, len(tokens))
	for i, t := range tokens {
		data[i] = presentToken(t)
	}
	return sendJSON(c, http.StatusOK, fiber.Map{"data": data})
}

func (s *Server) createToken(c *fiber.Ctx) error {
	body, err := jsonBody(c)
	if err != nil {
		return err
	}
	v := validate.New(body)
	in := ports.TokenInput{
		Name:      v.String("name", validate.Required, validate.Max(domain.MaxTokenNameLength)),
		Abilities: v.Strings("abilities", validate.MaxItems(domain.MaxTokenAbilities), validate.Max(domain.MaxAbilityLength), validate.In(domain.Abilities...)),
	}
	if minutes := v.Int("expires_in_minutes", validate.Min(minTokenMinutes), validate.Max(maxTokenMinutes)); minutes != nil {
		in.ExpiresIn = time.Duration(*minutes) * time.Minute
	}
	if err := v.Err(); err != nil {
		return err
	}
	actor, _ := actorOf(c)
	token, plain, err := s.tokens.Create(c.UserContext(), actor, in)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusCreated, fiber.Map{"token": plain.String(), "data": presentToken(token)})
}

func (s *Server) deleteToken(c *fiber.Ctx) error {
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	if err := s.tokens.Delete(c.UserContext(), domain.ByOwnRight(actor), id); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, message{"Token revoked."})
}
