package httpapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// authResponse answers register and login.
type authResponse struct {
	Message string   `json:"message"`
	User    userJSON `json:"user"`
	Token   string   `json:"token"`
}

func (s *Server) register(c *fiber.Ctx) error {
	in, err := s.registerInput(c)
	if err != nil {
		return err
	}
	u, token, err := s.accounts.Register(c.UserContext(), in)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusCreated, authResponse{"User registered successfully.", s.presentUser(c, u), token.String()})
}

func (s *Server) login(c *fiber.Ctx) error {
	in, err := s.loginInput(c, false)
	if err != nil {
		return err
	}
	u, token, err := s.accounts.Login(c.UserContext(), in)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, authResponse{"Logged in successfully.", s.presentUser(c, u), token.String()})
}

// registerInput validates the body of a registration, by token or by
// session. The verification link it mails points at the API.
func (s *Server) registerInput(c *fiber.Ctx) (ports.RegisterInput, error) {
	body, err := jsonBody(c)
	if err != nil {
		return ports.RegisterInput{}, err
	}
	v := validate.New(body)
	in := ports.RegisterInput{
		Name:     v.String("name", validate.Required, validate.Check(domain.CheckUserName)),
		Email:    v.String("email", validate.Required, validate.Check(domain.CheckEmail)),
		Password: v.String("password", validate.Required, validate.NoTrim, validate.Check(domain.CheckPassword), validate.Confirmed),
		LinkBase: s.baseURL(c),
	}
	return in, v.Err()
}

// loginInput validates the body of a login, by token or by session, and
// names the client address the throttle counts attempts by. A session
// login also reads "remember", a boolean as Laravel's.
func (s *Server) loginInput(c *fiber.Ctx, session bool) (ports.LoginInput, error) {
	body, err := jsonBody(c)
	if err != nil {
		return ports.LoginInput{}, err
	}
	v := validate.New(body)
	in := ports.LoginInput{
		Email:    v.String("email", validate.Required, validate.Email),
		Password: v.String("password", validate.Required, validate.NoTrim),
		IP:       s.proxies.ClientIP(c),
	}
	if session {
		in.Remember = ptrValue(v.Bool("remember"))
	}
	return in, v.Err()
}

// logout ends what authenticated the request: the presented token, or the
// browser session.
func (s *Server) logout(c *fiber.Ctx) error {
	actor, _ := actorOf(c)
	if err := s.accounts.Logout(c.UserContext(), actor); err != nil {
		return err
	}
	if err := s.endSession(c); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, message{"Logged out successfully."})
}

func (s *Server) me(c *fiber.Ctx) error {
	actor, _ := actorOf(c)
	conditional.Version(c, actor.User.UpdatedAt)
	return sendJSON(c, http.StatusOK, s.presentUser(c, actor.User))
}

// ptrValue is *p, or the zero value for nil.
func ptrValue[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
