package httpapi

import (
	"cmp"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
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
	// rememberCookie is Laravel's remember-me cookie of the web guard: the
	// user id and remember_token, signed with APP_KEY.
	rememberCookie = "remember_web"
	// defaultRememberLifetime is Laravel's: 400 days, the most browsers keep
	// a cookie.
	defaultRememberLifetime = 400 * 24 * time.Hour
)

// SanctumStatefulDomains is Sanctum's default list of the hosts whose pages
// may use cookie sessions: the usual addresses of a front end's
// development server.
var SanctumStatefulDomains = []string{"localhost", "localhost:3000", "127.0.0.1", "127.0.0.1:8000", "::1"}

// statefulDomains is STATEFUL_DOMAINS as cfg gives it or, when it names
// none, its default: Sanctum's list, APP_URL's host and port (as Sanctum
// adds the application's), and FRONTEND_URL's, so that a front end served
// there needs no setting of its own.
func statefulDomains(cfg Config) []string {
	if len(cfg.StatefulDomains) > 0 {
		return cfg.StatefulDomains
	}
	domains := slices.Clone(SanctumStatefulDomains)
	for _, base := range []string{cfg.AppURL, cfg.FrontendURL} {
		if u, err := url.Parse(base); err == nil && u.Host != "" {
			domains = append(domains, u.Host)
		}
	}
	return domains
}

// authenticator finds who sends a request: the user of a signed-in browser
// session when the request comes from a stateful domain, else the owner of
// the bearer token, as Sanctum's guard does.
type authenticator struct {
	accounts ports.Accounts
	sessions ports.Sessions // nil: no browser sessions
	stateful map[string]bool
	// ownOrigin, when APP_URL is not set, is the service's origin as a
	// request names it; its pages are first-party too (see
	// fromStatefulDomain). Nil when APP_URL is set: its host is listed.
	ownOrigin func(c *fiber.Ctx) string
	cookies   cookieJar
}

func newAuthenticator(accounts ports.Accounts, sessions ports.Sessions, domains []string, cookies cookieJar) *authenticator {
	a := &authenticator{accounts: accounts, sessions: sessions, stateful: map[string]bool{}, cookies: cookies}
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
// session cookie, which must name an API session: a console session's
// value sent as inkwell_session is an unknown cookie here. A state-changing request must then also echo the
// session's CSRF token, since the browser sends the cookie with requests
// that other sites make it send. Without a signed-in live session, a valid
// remember-me cookie opens a fresh one (see resume).
func (a *authenticator) sessionActor(c *fiber.Ctx) (domain.Actor, bool, error) {
	cookie := c.Cookies(sessionCookie)
	if a.sessions == nil || (cookie == "" && c.Cookies(rememberCookie) == "") || !a.fromStatefulDomain(c) {
		return domain.Actor{}, false, nil
	}
	ctx := c.UserContext()
	var sess domain.Session
	var err error
	if cookie != "" {
		sess, err = a.sessions.Find(ctx, domain.SessionAPI, cookie)
	} else {
		err = domain.ErrNotFound
	}
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return domain.Actor{}, false, err
	}
	var actor domain.Actor
	if err == nil {
		actor, err = a.sessions.Actor(ctx, sess)
		if err != nil && !errors.Is(err, domain.ErrUnauthenticated) {
			return domain.Actor{}, false, err
		}
	}
	if err != nil {
		// No signed-in live session: the remember-me cookie may open one.
		var ok bool
		if cookie, sess, ok, err = a.resume(c, cookie); err != nil || !ok {
			return domain.Actor{}, false, err
		}
		if actor, err = a.sessions.Actor(ctx, sess); err != nil {
			return domain.Actor{}, false, err
		}
	}
	if !web.SafeMethod(c.Method()) && !csrfMatches(c, sess) {
		return domain.Actor{}, false, domain.ErrCSRFMismatch
	}
	c.Locals(localSession, cookie)
	return actor, true, nil
}

// resume opens a fresh session from the request's remember-me cookie, in
// place of the session cookie names (if any), and hands the browser its
// cookies as a login does; ok is false when there is no such cookie or it
// is no longer good, and the browser is then told to drop it. A
// state-changing request that resumes still fails its CSRF check, since
// the page holds the old session's token, as Laravel's does: it retries
// with the fresh one.
func (a *authenticator) resume(c *fiber.Ctx, cookie string) (string, domain.Session, bool, error) {
	remember := c.Cookies(rememberCookie)
	if remember == "" {
		return "", domain.Session{}, false, nil
	}
	value, sess, err := a.sessions.Resume(c.UserContext(), cookie, remember)
	if errors.Is(err, domain.ErrUnauthenticated) {
		c.Cookie(a.cookies.remember("", time.Unix(0, 0)))
		return "", domain.Session{}, false, nil
	}
	if err != nil {
		return "", domain.Session{}, false, err
	}
	a.cookies.setSession(c, value, sess.CSRFToken)
	return value, sess, true, nil
}

// fromStatefulDomain reports whether the request's Origin, or else its
// Referer, names a host of STATEFUL_DOMAINS, or, when APP_URL is not set,
// the host the request itself was sent to: a page the service serves
// itself (such as /docs on http://127.0.0.1:3000) is first-party wherever
// it is reached. That adds no site: a browser sends a host's cookies only
// to that host. A request with neither header is not a browser's
// first-party request and gets no cookie authentication.
func (a *authenticator) fromStatefulDomain(c *fiber.Ctx) bool {
	source := c.Get(fiber.HeaderOrigin)
	if source == "" {
		source = c.Get(fiber.HeaderReferer)
	}
	u, err := url.Parse(source)
	if err != nil || u.Host == "" {
		return false
	}
	host := statefulHost(u.Host)
	if a.stateful[host] {
		return true
	}
	if a.ownOrigin == nil {
		return false
	}
	own, err := url.Parse(a.ownOrigin(c))
	return err == nil && own.Host != "" && statefulHost(own.Host) == host
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

// csrfMatches compares the X-XSRF-TOKEN header with the session's token in
// constant time.
func csrfMatches(c *fiber.Ctx, sess domain.Session) bool {
	return web.SameToken(c.Get(xsrfHeader), sess.CSRFToken)
}

// csrfCookie is Sanctum's /sanctum/csrf-cookie: it opens a session, or goes
// on with the live one the cookie names, and hands its CSRF token to the
// page's scripts.
func (s *Server) csrfCookie(c *fiber.Ctx) error {
	ctx := c.UserContext()
	cookie := c.Cookies(sessionCookie)
	sess, err := s.sessions.Find(ctx, domain.SessionAPI, cookie)
	if errors.Is(err, domain.ErrNotFound) {
		cookie, sess, err = s.sessions.Start(ctx, domain.SessionAPI)
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
	if err := s.requireStateful(c); err != nil {
		return err
	}
	cookie, err := s.verifiedSession(c)
	if err != nil {
		return err
	}
	in, err := s.loginInput(c, true)
	if err != nil {
		return err
	}
	login, err := s.sessions.Login(c.UserContext(), domain.SessionAPI, cookie, in)
	if err != nil {
		return err
	}
	s.setSessionCookies(c, login.Cookie, login.Session.CSRFToken)
	if login.Remember != "" {
		c.Cookie(s.auth.cookies.remember(login.Remember, time.Now().Add(s.auth.cookies.rememberLifetime)))
	}
	return sendJSON(c, http.StatusOK, sessionResponse{"Logged in successfully.", s.presentUser(c, login.User)})
}

func (s *Server) sessionLogout(c *fiber.Ctx) error {
	cookie, err := s.verifiedSession(c)
	if err != nil {
		return err
	}
	if err := s.sessions.Logout(c.UserContext(), domain.SessionAPI, cookie); err != nil {
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
	sess, err := s.sessions.Find(c.UserContext(), domain.SessionAPI, cookie)
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
	if err := s.sessions.Logout(c.UserContext(), domain.SessionAPI, cookie); err != nil {
		return err
	}
	s.expireSessionCookies(c)
	return nil
}

// setSessionCookies hands the browser the session id and the CSRF token.
func (s *Server) setSessionCookies(c *fiber.Ctx, cookie, csrfToken string) {
	s.auth.cookies.setSession(c, cookie, csrfToken)
}

// expireSessionCookies tells the browser to drop the session's cookies and
// its remember-me cookie, which the logout has made worthless.
func (s *Server) expireSessionCookies(c *fiber.Ctx) {
	s.auth.cookies.expire(c)
}

// cookieJar builds the cookies of browser sessions from the settings.
type cookieJar struct {
	// https is whether APP_URL is https; secure whether the remember-me
	// cookie is Secure (production, or https).
	https, secure    bool
	rememberLifetime time.Duration
}

func newCookieJar(cfg Config) cookieJar {
	https := strings.HasPrefix(strings.ToLower(cfg.AppURL), "https://")
	return cookieJar{https: https, secure: https || cfg.SecureCookies, rememberLifetime: cmp.Or(cfg.RememberLifetime, defaultRememberLifetime)}
}

// setSession hands the browser the session id and the CSRF token. Neither
// has an expiry of its own: they last as long as the browser session, and
// the server ends the session sooner when it has been idle.
func (j cookieJar) setSession(c *fiber.Ctx, cookie, csrfToken string) {
	c.Cookie(j.session(sessionCookie, cookie, time.Time{}))
	c.Cookie(j.session(xsrfCookie, csrfToken, time.Time{}))
}

func (j cookieJar) expire(c *fiber.Ctx) {
	c.Cookie(j.session(sessionCookie, "", time.Unix(0, 0)))
	c.Cookie(j.session(xsrfCookie, "", time.Unix(0, 0)))
	c.Cookie(j.remember("", time.Unix(0, 0)))
}

// session builds one of the two session cookies: on every path, not sent
// with other sites' subrequests (Lax), secure when the service is public
// over HTTPS, and hidden from scripts unless it is the CSRF token.
func (j cookieJar) session(name, value string, expires time.Time) *fiber.Cookie {
	return &fiber.Cookie{
		Name:     name,
		Value:    value,
		Path:     "/",
		Expires:  expires,
		Secure:   j.https,
		HTTPOnly: name == sessionCookie,
		SameSite: fiber.CookieSameSiteLaxMode,
	}
}

// remember builds the remember-me cookie: HttpOnly, Lax, Secure in
// production, living until expires.
func (j cookieJar) remember(value string, expires time.Time) *fiber.Cookie {
	return &fiber.Cookie{
		Name:     rememberCookie,
		Value:    value,
		Path:     "/",
		Expires:  expires,
		Secure:   j.secure,
		HTTPOnly: true,
		SameSite: fiber.CookieSameSiteLaxMode,
	}
}
