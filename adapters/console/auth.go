package console

import (
	"errors"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// cookieName is the console session's cookie. It is sent only to /admin
// and never with another site's request (SameSite=Strict). Its value names
// a console session (domain.SessionConsole), which the API refuses whatever
// cookie name carries it, as the console refuses the API's sessions: every
// session call here names the console's kind. Its idle limit is the store's
// session lifetime (SESSION_LIFETIME_MINUTES, two hours by default).
const cookieName = "inkwell_admin"

// tokenField is the form field every POST carries the session's CSRF
// token in, as Laravel names it.
const tokenField = "_token"

// Locals under which signedIn and checkPost leave what they found.
const (
	localCaller  = "console.caller"
	localSession = "console.session"
	localCookie  = "console.cookie"
)

// errCrossSite refuses a POST that another site made the browser send.
var errCrossSite = fiber.NewError(http.StatusForbidden, "cross-site request")

// sessionCookie builds the console's session cookie; an expires in the
// past tells the browser to drop it.
func (k *Console) sessionCookie(value string, expires time.Time) *fiber.Cookie {
	return &fiber.Cookie{
		Name: cookieName, Value: value, Path: prefix, Expires: expires,
		Secure: k.cfg.Secure, HTTPOnly: true, SameSite: fiber.CookieSameSiteStrictMode,
	}
}

// checkPost lets a POST through only from a page of the console's own
// origin (else 403) that echoes the CSRF token of the live session its
// cookie names (else 419). Nothing has been read or changed before it.
func (k *Console) checkPost(c *fiber.Ctx) error {
	if !web.FromSameOrigin(c, k.proxies.Origin(c)) {
		return errCrossSite
	}
	cookie := c.Cookies(cookieName)
	sess, err := k.sessions.Find(c.UserContext(), domain.SessionConsole, cookie)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.ErrCSRFMismatch
	}
	if err != nil {
		return err
	}
	if !web.SameToken(formValue(c, tokenField), sess.CSRFToken) {
		return domain.ErrCSRFMismatch
	}
	c.Locals(localSession, sess)
	c.Locals(localCookie, cookie)
	return c.Next()
}

// signedIn finds who the request's console session belongs to; without a
// signed-in session a page sends the browser to the sign-in form. Whether
// that user is an admin, now, is checked by every admin use case the
// handler calls. No bearer token is read.
func (k *Console) signedIn(c *fiber.Ctx) error {
	sess, ok := c.Locals(localSession).(domain.Session)
	if !ok {
		var err error
		sess, err = k.sessions.Find(c.UserContext(), domain.SessionConsole, c.Cookies(cookieName))
		if errors.Is(err, domain.ErrNotFound) {
			return c.Redirect(prefix+"/login", http.StatusSeeOther)
		}
		if err != nil {
			return err
		}
		c.Locals(localSession, sess)
		c.Locals(localCookie, c.Cookies(cookieName))
	}
	actor, err := k.sessions.Actor(c.UserContext(), sess)
	if errors.Is(err, domain.ErrUnauthenticated) {
		return c.Redirect(prefix+"/login", http.StatusSeeOther)
	}
	if err != nil {
		return err
	}
	c.Locals(localCaller, ports.AdminCaller{Actor: actor, Address: k.proxies.ClientIP(c)})
	return c.Next()
}

// caller is the admin use cases' caller that signedIn found.
func caller(c *fiber.Ctx) ports.AdminCaller {
	ac, _ := c.Locals(localCaller).(ports.AdminCaller)
	return ac
}

// csrfToken is the CSRF token of the request's session, for its forms.
func csrfToken(c *fiber.Ctx) string {
	sess, _ := c.Locals(localSession).(domain.Session)
	return sess.CSRFToken
}

// loginForm shows the sign-in form, opening an anonymous session for its
// CSRF token unless the browser holds a live one.
func (k *Console) loginForm(c *fiber.Ctx) error {
	token, err := k.anonymousSession(c)
	if err != nil {
		return err
	}
	return k.render(c, http.StatusOK, "login", page{Title: "Sign in", CSRF: token})
}

// anonymousSession returns the CSRF token of the live session the
// request's cookie names, or of a new one whose cookie it sets.
func (k *Console) anonymousSession(c *fiber.Ctx) (string, error) {
	ctx := c.UserContext()
	sess, err := k.sessions.Find(ctx, domain.SessionConsole, c.Cookies(cookieName))
	if err == nil {
		return sess.CSRFToken, nil
	}
	if !errors.Is(err, domain.ErrNotFound) {
		return "", err
	}
	cookie, sess, err := k.sessions.Start(ctx, domain.SessionConsole)
	if err != nil {
		return "", err
	}
	c.Cookie(k.sessionCookie(cookie, time.Time{}))
	return sess.CSRFToken, nil
}

// badCredentials is the sign-in form's one refusal of an address and
// password, whether no account has them or the account has no admin
// rights, so that the form tells nobody which addresses have accounts.
const badCredentials = "These credentials do not match our records."

// login signs in with the API's login (same throttle, same errors) into a
// new session that replaces the form's, for admins only: the login refuses
// any other account as it refuses a wrong password, leaving the form's
// session as it was. The admin use cases then record it, which they
// refuse to anybody who lost the rights meanwhile: that session is ended
// again, with the same refusal.
func (k *Console) login(c *fiber.Ctx) error {
	ctx := c.UserContext()
	cookie, _ := c.Locals(localCookie).(string)
	in := ports.LoginInput{Email: formValue(c, "email"), Password: formValue(c, "password"), IP: k.proxies.ClientIP(c), AdminOnly: true}
	out, err := k.sessions.Login(ctx, domain.SessionConsole, cookie, in)
	if de, ok := domain.AsError(err); ok && (de.Kind == domain.Invalid || de.Kind == domain.Unauthenticated) {
		return k.loginRefused(c, http.StatusUnprocessableEntity, in.Email, badCredentials)
	}
	if err != nil {
		return err
	}
	actor, err := k.sessions.Actor(ctx, out.Session)
	if err != nil {
		return err
	}
	err = k.admin.RecordLogin(ctx, ports.AdminCaller{Actor: actor, Address: in.IP})
	if errors.Is(err, domain.ErrForbidden) {
		if lerr := k.sessions.Logout(ctx, domain.SessionConsole, out.Cookie); lerr != nil {
			return lerr
		}
		c.Cookie(k.sessionCookie("", time.Unix(0, 0)))
		return k.loginRefused(c, http.StatusUnprocessableEntity, in.Email, badCredentials)
	}
	if err != nil {
		return err
	}
	c.Cookie(k.sessionCookie(out.Cookie, time.Time{}))
	return c.Redirect(prefix, http.StatusSeeOther)
}

// loginRefused shows the form again with why the sign-in failed, under a
// fresh anonymous session.
func (k *Console) loginRefused(c *fiber.Ctx, status int, email, why string) error {
	token, err := k.anonymousSession(c)
	if err != nil {
		return err
	}
	return k.render(c, status, "login", page{Title: "Sign in", CSRF: token, Error: why, Email: email})
}

// logout ends the console session and drops its cookie.
func (k *Console) logout(c *fiber.Ctx) error {
	cookie, _ := c.Locals(localCookie).(string)
	if err := k.sessions.Logout(c.UserContext(), domain.SessionConsole, cookie); err != nil {
		return err
	}
	c.Cookie(k.sessionCookie("", time.Unix(0, 0)))
	return c.Redirect(prefix+"/login", http.StatusSeeOther)
}
