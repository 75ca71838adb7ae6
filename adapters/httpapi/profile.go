package httpapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// profileResponse answers a profile or avatar update. Token is the fresh
// token a password change issues, since it revokes every other.
type profileResponse struct {
	Message string   `json:"message"`
	User    userJSON `json:"user"`
	Token   string   `json:"token,omitempty"`
}

// updateProfile ends the browser session after a password change: the use
// case has deleted it with the user's others, so its cookies are dead.
func (s *Server) updateProfile(c *fiber.Ctx) error {
	actor, _ := actorOf(c)
	in, err := profileInput(c, actor.User)
	if err != nil {
		return err
	}
	in.LinkBase = s.baseURL(c)
	u, token, err := s.profile.Update(c.UserContext(), actor, in, conditional.IfMatch(c))
	if err != nil {
		return err
	}
	s.evict(domain.AccountTag(u.ID))
	conditional.Version(c, u.UpdatedAt)
	out := profileResponse{Message: "Profile updated successfully.", User: s.presentUser(c, u)}
	if token != nil {
		out.Token = token.String()
		if err := s.endSession(c); err != nil {
			return err
		}
	}
	return sendJSON(c, http.StatusOK, out)
}

func (s *Server) updateAvatar(c *fiber.Ctx) error {
	body, err := formBody(c)
	if err != nil {
		return err
	}
	v := validate.New(body)
	img, err := imageField(v, body, avatarImage)
	if err != nil {
		return err
	}
	if err := v.Err(); err != nil {
		return err
	}
	actor, _ := actorOf(c)
	u, err := s.profile.SetAvatar(c.UserContext(), actor, *img)
	if err != nil {
		return err
	}
	s.evict(domain.AccountTag(u.ID))
	return sendJSON(c, http.StatusOK, profileResponse{Message: "Avatar updated successfully.", User: s.presentUser(c, u)})
}

func (s *Server) deleteAccount(c *fiber.Ctx) error {
	body, err := jsonBody(c)
	if err != nil {
		return err
	}
	v := validate.New(body)
	password := v.String("current_password", validate.Required, validate.NoTrim)
	if err := v.Err(); err != nil {
		return err
	}
	actor, _ := actorOf(c)
	if err := s.profile.Delete(c.UserContext(), actor, password, conditional.IfMatch(c)); err != nil {
		return err
	}
	if err := s.endSession(c); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, message{"Account deleted successfully."})
}

// profileInput validates a profile update as Laravel's rules
// "sometimes|required|string|max:255" (name), "sometimes|required|email|max:255"
// (email) and "sometimes|required|string|min:8|confirmed" (password) would:
// each field is checked and changed only when present. The current password
// is required when the password is sent, or an e-mail other than the
// user's; whether it is right is the use case's check.
func profileInput(c *fiber.Ctx, u domain.User) (ports.ProfileInput, error) {
	body, err := jsonBody(c)
	if err != nil {
		return ports.ProfileInput{}, err
	}
	v := validate.New(body)
	var in ports.ProfileInput
	if v.Has("name") {
		in.Name = ports.Some(v.String("name", validate.Required, validate.Check(domain.CheckUserName)))
	}
	if v.Has("email") {
		in.Email = ports.Some(v.String("email", validate.Required, validate.Check(domain.CheckEmail)))
	}
	if v.Has("password") {
		in.Password = ports.Some(v.String("password", validate.Required, validate.NoTrim, validate.Check(domain.CheckPassword), validate.Confirmed))
	}
	if in.Password.Set || (in.Email.Set && in.Email.Value != u.Email) {
		in.CurrentPassword = v.String("current_password", validate.Required, validate.NoTrim)
	}
	return in, v.Err()
}
