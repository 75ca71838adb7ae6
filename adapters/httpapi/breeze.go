package httpapi

import (
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/domain"
)

// Laravel Breeze's front ends (Next.js, React, Vue) sign in with a browser
// session and call root-level routes, Breeze's API stack's. They are served
// here as a thin front over the use cases the /api/v1 routes call, with
// Breeze's status codes and keys: Breeze's pages show "status" and pass it
// through btoa, so it is plain ASCII, and a "message" beside it keeps area
// A's shape. Errors stay area A's (422 with errors, as Laravel's).

// errNotStateful refuses a session sign-in from a page whose session could
// not authenticate anything afterwards: without it the login would answer
// 200 and every call after it 401.
var errNotStateful = fiber.NewError(http.StatusForbidden,
	"Session login refused: the request's Origin (or Referer) is not in STATEFUL_DOMAINS, so the session could not authenticate. "+
		"Add the front end's host to STATEFUL_DOMAINS, or use a bearer token from POST /api/v1/login.")

// verificationSent is the answer Breeze's verify-email page waits for.
const verificationSent = "verification-link-sent"

// statusBody is the answer of Breeze's password routes.
type statusBody struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// verificationStatus is the answer of Breeze's resend, exactly as Breeze's
// controller gives it.
type verificationStatus struct {
	Status string `json:"status"`
}

func (s *Server) breezeRoutes() {
	auth := requireAuth(s.auth)
	s.app.Post("/register", s.sessionRegister)
	s.app.Post("/forgot-password", s.breezeForgotPassword)
	s.app.Post("/reset-password", s.breezeResetPassword)
	s.app.Get("/verify-email/:id/:hash", s.breezeVerifyEmail)
	s.app.Post("/email/verification-notification", auth, allow(domain.WriteProfile), s.breezeSendVerification)
	// Laravel's default /api/user route: the user object itself.
	s.app.Get("/api/user", auth, conditional.Tag, s.me)
}

// requireStateful refuses a session sign-in whose page is not first-party
// (see errNotStateful). A request with neither Origin nor Referer is no
// browser page: its session could not authenticate either, and it gets the
// same refusal; such clients use bearer tokens.
func (s *Server) requireStateful(c *fiber.Ctx) error {
	if !s.auth.fromStatefulDomain(c) {
		return errNotStateful
	}
	return nil
}

// sessionRegister makes an account and signs the session in, as Breeze's
// RegisteredUserController does: 204, and the session cookie is the
// credential.
func (s *Server) sessionRegister(c *fiber.Ctx) error {
	if err := s.requireStateful(c); err != nil {
		return err
	}
	cookie, err := s.verifiedSession(c)
	if err != nil {
		return err
	}
	in, err := s.registerInput(c)
	if err != nil {
		return err
	}
	login, err := s.sessions.Register(c.UserContext(), cookie, in)
	if err != nil {
		return err
	}
	s.setSessionCookies(c, login.Cookie, login.Session.CSRFToken)
	return c.SendStatus(http.StatusNoContent)
}

// breezeForgotPassword is POST /api/v1/forgot-password for a session's
// page: the same one answer for every well-formed address.
func (s *Server) breezeForgotPassword(c *fiber.Ctx) error {
	if _, err := s.verifiedSession(c); err != nil {
		return err
	}
	if err := s.requestReset(c); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, statusBody{resetLinkSent, resetLinkSent})
}

// breezeResetPassword is POST /api/v1/reset-password for a session's page.
func (s *Server) breezeResetPassword(c *fiber.Ctx) error {
	if _, err := s.verifiedSession(c); err != nil {
		return err
	}
	if err := s.reset(c); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, statusBody{passwordReset, passwordReset})
}

// breezeVerifyEmail is Breeze's verification route. Its links are the
// API's, signed over /api/v1/verify-email/{id}/{hash}: this route is that
// link under Breeze's path, and proves nothing more.
func (s *Server) breezeVerifyEmail(c *fiber.Ctx) error {
	return s.verifySignedPath(c, "/api/v1"+string(c.Request().URI().PathOriginal()))
}

// breezeSendVerification mails the actor a new verification link and
// answers as Breeze's controller does; an address verified already gets
// the API's answer, since Breeze's redirect means nothing to a script.
func (s *Server) breezeSendVerification(c *fiber.Ctx) error {
	return s.sendVerificationAs(c, http.StatusOK, verificationStatus{verificationSent})
}
