package httpapi

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The cookies and header of browser sessions, named as Laravel names them
// (the session cookie after the application). XSRF-TOKEN is readable by
// scripts, which echo it in X-XSRF-TOKEN, as axios does by itself; the
// session cookie is not.
const (
	sessionCookie = "inkwell_session"
	xsrfCookie    = "XSRF-TOKEN"
	xsrfHeader    = "X-XSRF-TOKEN"
	// localSession holds the cookie of the session that authenticated a
	// request, so that a logout can end it.
	localSession = "inkwell.session"
)

// authenticator finds who sends a request: the user of a signed-in browser
// session when the request comes from a stateful domain, else the owner of
// the bearer token, as Sanctum's guard does.
type authenticator struct {
	accounts ports.Accounts
	sessions ports.Sessions // nil: no browser sessions
	stateful map[string]bool
}

func newAuthenticator(accounts ports.Accounts, sessions ports.Sessions, domains []string) *authenticator {
	a := &authenticator{accounts: accounts, sessions: sessions, stateful: map[string]bool{}}
	for _, d := range domains {
		if d = statefulHost(d); d != "" {
			a.stateful[d] = true
		}
	}
	return a
}

// actor returns the request's actor; ok is false when the request carries
// no credentials at all. A session that has no user, or has ended, is no
// credential, and the bearer token is tried instead.
func (a *authenticator) actor(c *fiber.Ctx) (domain.Actor, bool, error) {
	actor, ok, err := a.sessionActor(c)
	if err != nil || ok {
		return actor, ok, err
	}
	token := bearer(c)
	if token == "" {
		return domain.Actor{}, false, nil
	}
	actor, err = a.bearerActor(c, token)
	if err != nil {
		return domain.Actor{}, false, err
	}
	return actor, true, nil
}

// bearerOutcome is what authenticating a request's bearer token gave.
type bearerOutcome struct {
	actor domain.Actor
	err   error
}

// bearerActor authenticates token once per request: the rate limit needs
// the token before the route's own guard does, and the answer is the same.
func (a *authenticator) bearerActor(c *fiber.Ctx, token string) (domain.Actor, error) {
	if o, ok := c.Locals(localBearer).(bearerOutcome); ok {
		return o.actor, o.err
	}
	actor, err := a.accounts.Authenticate(c.UserContext(), token)
	c.Locals(localBearer, bearerOutcome{actor: actor, err: err})
	return actor, err
}

// sessionActor authenticates a request from a stateful domain by its
// session cookie. A state-changing request must then also echo the
// session's CSRF token, since the browser sends the cookie with requests
// that other sites make it send.
func (a *authenticator) sessionActor(c *fiber.Ctx) (domain.Actor, bool, error) {
	cookie := c.Cookies(sessionCookie)
	if a.sessions == nil || cookie == "" || !a.fromStatefulDomain(c) {
		return domain.Actor{}, false, nil
	}
	ctx := c.UserContext()
	sess, err := a.sessions.Find(ctx, cookie)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Actor{}, false, nil
	}
	if err != nil {
		return domain.Actor{}, false, err
	}
	actor, err := a.sessions.Actor(ctx, sess)
	if errors.Is(err, domain.ErrUnauthenticated) {
		return domain.Actor{}, false, nil
	}
	if err != nil {
		return domain.Actor{}, false, err
	}
	if !safeMethod(c.Method()) && !csrfMatches(c, sess) {
		return domain.Actor{}, false, domain.ErrCSRFMismatch
	}
	c.Locals(localSession, cookie)
	return actor, true, nil
}

// fromStatefulDomain reports whether the request's Origin, or else its
// Referer, names a host of STATEFUL_DOMAINS. A request with neither is not
// a browser's first-party request and gets no cookie authentication.
func (a *authenticator) fromStatefulDomain(c *fiber.Ctx) bool {
	source := c.Get(fiber.HeaderOrigin)
	if source == "" {
		source = c.Get(fiber.HeaderReferer)
	}
	u, err := url.Parse(source)
	if err != nil || u.Host == "" {
		return false
	}
	return a.stateful[statefulHost(u.Host)]
}

// statefulHost brings a configured domain or a request's host to one form:
// lower case, host[:port], without a scheme, a path or the brackets of an
// IPv6 address that has no port ("::1" as STATEFUL_DOMAINS writes it).
func statefulHost(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
	}
	s, _, _ = strings.Cut(s, "/")
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = s[1 : len(s)-1]
	}
	return s
}

// safeMethod reports whether method only reads, so needs no CSRF token.
func safeMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return false
}

// csrfMatches compares the X-XSRF-TOKEN header with the session's token in
// constant time.
func csrfMatches(c *fiber.Ctx, sess domain.Session) bool {
	return subtle.ConstantTimeCompare([]byte(c.Get(xsrfHeader)), []byte(sess.CSRFToken)) == 1
}

// csrfCookie is Sanctum's /sanctum/csrf-cookie: it opens a session, or goes
// on with the live one the cookie names, and hands its CSRF token to the
// page's scripts.
func (s *Server) csrfCookie(c *fiber.Ctx) error {
	ctx := c.UserContext()
	cookie := c.Cookies(sessionCookie)
	sess, err := s.sessions.Find(ctx, cookie)
	if errors.Is(err, domain.ErrNotFound) {
		cookie, sess, err = s.sessions.Start(ctx)
	}
	if err != nil {
		return err
	}
	s.setSessionCookies(c, cookie, sess.CSRFToken)
	return c.SendStatus(http.StatusNoContent)
}

// sessionResponse answers a session login: the user, and no token, since
// the cookie is the credential.
type sessionResponse struct {
	Message string   `json:"message"`
	User    userJSON `json:"user"`
}

func (s *Server) sessionLogin(c *fiber.Ctx) error {
	cookie, err := s.verifiedSession(c)
	if err != nil {
		return err
	}
	in, err := s.loginInput(c)
	if err != nil {
		return err
	}
	cookie, sess, u, err := s.sessions.Login(c.UserContext(), cookie, in)
	if err != nil {
		return err
	}
	s.setSessionCookies(c, cookie, sess.CSRFToken)
	return sendJSON(c, http.StatusOK, sessionResponse{"Logged in successfully.", s.presentUser(c, u)})
}

func (s *Server) sessionLogout(c *fiber.Ctx) error {
	cookie, err := s.verifiedSession(c)
	if err != nil {
		return err
	}
	if err := s.sessions.Logout(c.UserContext(), cookie); err != nil {
		return err
	}
	s.expireSessionCookies(c)
	return c.SendStatus(http.StatusNoContent)
}

// verifiedSession returns the cookie of the request's live session when the
// request echoes its CSRF token, as Laravel's VerifyCsrfToken demands of
// every state-changing request of its web routes; no session, or another
// token, is a CSRF mismatch.
func (s *Server) verifiedSession(c *fiber.Ctx) (string, error) {
	cookie := c.Cookies(sessionCookie)
	sess, err := s.sessions.Find(c.UserContext(), cookie)
	if errors.Is(err, domain.ErrNotFound) {
		return "", domain.ErrCSRFMismatch
	}
	if err != nil {
		return "", err
	}
	if !csrfMatches(c, sess) {
		return "", domain.ErrCSRFMismatch
	}
	return cookie, nil
}

// endSession ends the browser session that authenticated the request, if
// one did, and tells the browser to drop its cookies.
func (s *Server) endSession(c *fiber.Ctx) error {
	cookie, ok := c.Locals(localSession).(string)
	if !ok {
		return nil
	}
	if err := s.sessions.Logout(c.UserContext(), cookie); err != nil {
		return err
	}
	s.expireSessionCookies(c)
	return nil
}

// setSessionCookies hands the browser the session id and the CSRF token.
// Neither has an expiry of its own: they last as long as the browser
// session, and the server ends the session sooner when it has been idle.
func (s *Server) setSessionCookies(c *fiber.Ctx, cookie, csrfToken string) {
	c.Cookie(s.sessionCookie(sessionCookie, cookie, time.Time{}))
	c.Cookie(s.sessionCookie(xsrfCookie, csrfToken, time.Time{}))
}

func (s *Server) expireSessionCookies(c *fiber.Ctx) {
	c.Cookie(s.sessionCookie(sessionCookie, "", time.Unix(0, 0)))
	c.Cookie(s.sessionCookie(xsrfCookie, "", time.Unix(0, 0)))
}

// sessionCookie builds one of the two cookies: on every path, not sent with
// other sites' subrequests (Lax), secure when the service is public over
// HTTPS, and hidden from scripts unless it is the CSRF token.
func (s *Server) sessionCookie(name, value string, expires time.Time) *fiber.Cookie {
	return &fiber.Cookie{
		Name:     name,
		Value:    value,
		Path:     "/",
		Expires:  expires,
		Secure:   strings.HasPrefix(strings.ToLower(s.cfg.AppURL), "https://"),
		HTTPOnly: name == sessionCookie,
		SameSite: fiber.CookieSameSiteLaxMode,
	}
}
