package console

import (
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// setupForm is the data of setup.html.
type setupForm struct {
	// Action is the link the form was opened with, which its POST goes
	// back to, signature and all.
	Action      string
	Name, Email string
	Errors      []string
}

// setupLink is the setup link the request came with: its path and query
// undecoded, as the signature covers them.
func setupLink(c *fiber.Ctx) (path, rawQuery string) {
	uri := c.Request().URI()
	return string(uri.PathOriginal()), string(uri.QueryString())
}

// setupForm shows the form that makes the first admin, when the link is
// good and no admin exists; it opens an anonymous console session for the
// form's CSRF token, as the sign-in form does.
func (k *Console) setupForm(c *fiber.Ctx) error {
	path, query := setupLink(c)
	if err := k.setup.Check(c.UserContext(), path, query); err != nil {
		return err
	}
	token, err := k.anonymousSession(c)
	if err != nil {
		return err
	}
	return k.showSetup(c, http.StatusOK, token, setupForm{Action: path + "?" + query})
}

// showSetup renders the setup form with status.
func (k *Console) showSetup(c *fiber.Ctx, status int, token string, form setupForm) error {
	return k.render(c, status, "setup", page{Title: "Make the first admin", CSRF: token, Data: form})
}

// setupAdmin makes the first admin and signs the browser in with it, or
// shows the form again with why not.
func (k *Console) setupAdmin(c *fiber.Ctx) error {
	ctx := c.UserContext()
	path, query := setupLink(c)
	in := ports.AdminSetupInput{
		NewAdminInput: ports.NewAdminInput{Name: formValue(c, "name"), Email: formValue(c, "email"), Password: formValue(c, "password")},
		Path:          path, RawQuery: query,
	}
	form := setupForm{Action: path + "?" + query, Name: in.Name, Email: in.Email}
	form.Errors = confirmationErrors(in.Password, formValue(c, "password_confirmation"))
	if form.Errors == nil {
		_, err := k.setup.Setup(ctx, in)
		if form.Errors, _ = formErrors(err); form.Errors == nil && err != nil {
			return err
		}
	}
	if form.Errors != nil {
		return k.showSetup(c, http.StatusUnprocessableEntity, csrfToken(c), form)
	}
	cookie, _ := c.Locals(localCookie).(string)
	ip := k.proxies.ClientIP(c)
	out, err := k.sessions.Login(ctx, domain.SessionConsole, cookie, ports.LoginInput{Email: in.Email, Password: in.Password, IP: ip, AdminOnly: true})
	if err != nil {
		return err
	}
	actor, err := k.sessions.Actor(ctx, out.Session)
	if err != nil {
		return err
	}
	if err := k.admin.RecordLogin(ctx, ports.AdminCaller{Actor: actor, Address: ip}); err != nil {
		return err
	}
	c.Cookie(k.sessionCookie(out.Cookie, time.Time{}))
	return c.Redirect(prefix, http.StatusSeeOther)
}
