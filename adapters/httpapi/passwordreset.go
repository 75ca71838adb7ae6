package httpapi

import (
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The answers of the forgotten-password flow. The first is the same for
// every well-formed address, known or not.
const (
	resetLinkSent = "If an account uses that address, a password reset link is on its way."
	passwordReset = "Your password has been reset."
)

func (s *Server) forgotPassword(c *fiber.Ctx) error {
	if err := s.requestReset(c); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, message{resetLinkSent})
}

func (s *Server) resetPassword(c *fiber.Ctx) error {
	if err := s.reset(c); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, message{passwordReset})
}

// requestReset decodes a request for a reset link and makes the link.
func (s *Server) requestReset(c *fiber.Ctx) error {
	body, err := jsonBody(c)
	if err != nil {
		return err
	}
	v := validate.New(body)
	email := v.String("email", validate.Required, validate.Check(domain.CheckEmail))
	if err := v.Err(); err != nil {
		return err
	}
	return s.resets.Request(c.UserContext(), email, s.frontendURL(c))
}

// reset decodes a new password with the mailed token and sets it.
func (s *Server) reset(c *fiber.Ctx) error {
	body, err := jsonBody(c)
	if err != nil {
		return err
	}
	v := validate.New(body)
	in := ports.ResetPasswordInput{
		Token:    v.String("token", validate.Required, validate.NoTrim),
		Email:    v.String("email", validate.Required, validate.Check(domain.CheckEmail)),
		Password: v.String("password", validate.Required, validate.NoTrim, validate.Check(domain.CheckPassword), validate.Confirmed),
	}
	if err := v.Err(); err != nil {
		return err
	}
	return s.resets.Reset(c.UserContext(), in)
}

// frontendURL is where the links of mails to people point: FRONTEND_URL,
// else APP_URL, else the request's own base.
func (s *Server) frontendURL(c *fiber.Ctx) string {
	if s.cfg.FrontendURL != "" {
		return strings.TrimRight(s.cfg.FrontendURL, "/")
	}
	return s.baseURL(c)
}
