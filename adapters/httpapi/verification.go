package httpapi

import (
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/ports"
)

// verifyEmail checks a mailed verification link. It needs no token: the
// signature is the credential, so the link works on whatever device the
// mail is opened. The path and query go to the use case as the request line
// carried them, undecoded, since that is what was signed. A link used again
// answers "Email already verified.", or the same redirect.
func (s *Server) verifyEmail(c *fiber.Ctx) error {
	return s.verifySignedPath(c, string(c.Request().URI().PathOriginal()))
}

// verifySignedPath checks the link of c whose signed path is path: the
// path the request line carries, or for Breeze's root route the API's path
// it stands for.
func (s *Server) verifySignedPath(c *fiber.Ctx, path string) error {
	verified, err := s.verification.Verify(c.UserContext(), ports.VerifyInput{
		ID:       c.Params("id"),
		Hash:     c.Params("hash"),
		Path:     path,
		RawQuery: string(c.Request().URI().QueryString()),
	})
	if err != nil {
		return err
	}
	if s.cfg.FrontendURL != "" {
		return c.Redirect(strings.TrimRight(s.cfg.FrontendURL, "/")+"/dashboard?verified=1", http.StatusFound)
	}
	if !verified {
		return sendJSON(c, http.StatusOK, message{"Email already verified."})
	}
	return sendJSON(c, http.StatusOK, message{"Email verified."})
}

// sendVerification mails the actor a new verification link.
func (s *Server) sendVerification(c *fiber.Ctx) error {
	return s.sendVerificationAs(c, http.StatusAccepted, message{"Verification link sent."})
}

// sendVerificationAs mails the actor a new verification link and answers
// status and sent; an address verified already is answered as the API
// answers it, whichever route was asked.
func (s *Server) sendVerificationAs(c *fiber.Ctx, status int, sent any) error {
	actor, _ := actorOf(c)
	mailed, err := s.verification.Send(c.UserContext(), actor, s.baseURL(c))
	if err != nil {
		return err
	}
	if !mailed {
		return sendJSON(c, http.StatusOK, message{"Email already verified."})
	}
	return sendJSON(c, status, sent)
}
