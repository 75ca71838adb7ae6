package console

import (
	"errors"
	"log/slog"
	"net/http"
	"net/netip"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// HostedConfig holds the settings of the hosted pages.
type HostedConfig struct {
	// TrustedProxies are the networks whose forwarded headers tell the
	// origin (TRUSTED_PROXIES), for the forms' same-origin check.
	TrustedProxies []netip.Prefix
	// VerifiedPage answers a browser that opens a verification link with
	// a page. It is off when FRONTEND_URL is set: the API then sends every
	// caller of the link to the front end.
	VerifiedPage bool
}

// HostedDeps are the driving ports the hosted pages call.
type HostedDeps struct {
	PasswordResets ports.PasswordResets
	Verification   ports.Verification
}

// Hosted are the pages Inkwell serves to whoever follows a link it mailed,
// for a service with no front end of its own (no FRONTEND_URL): the
// password reset form at /password-reset/{token}?email=…, the link of the
// reset mail, and the page a browser gets from a verification link. They
// are the console's stack (its templates, Pico, strict CSP) under another
// layout, with no cookie: the reset form's credential is the reset token it
// carries, which only the mail's reader has, and its POST must come from a
// page of the service's own origin. With FRONTEND_URL set the mails link
// to the front end, and the reset form is still served, to nobody's harm.
type Hosted struct {
	cfg          HostedConfig
	log          *slog.Logger
	resets       ports.PasswordResets
	verification ports.Verification
	proxies      web.Proxies
	pages        pages
}

// NewHosted builds the hosted pages. It panics when the embedded templates
// do not parse, as New does.
func NewHosted(cfg HostedConfig, log *slog.Logger, svc HostedDeps) *Hosted {
	return &Hosted{
		cfg: cfg, log: log, resets: svc.PasswordResets, verification: svc.Verification,
		proxies: cfg.TrustedProxies, pages: mustParsePages(),
	}
}

// resetPrefix is where the password reset pages live, the path of the
// reset mail's link (Breeze's).
const resetPrefix = "/password-reset"

// Owns reports whether path is the hosted pages': /password-reset and
// below, in any letter case. The verification link's path is the API's:
// the hosted page answers only the browsers that ask it for HTML.
func (*Hosted) Owns(path string) bool {
	return under(path, resetPrefix)
}

// Mount registers the hosted pages' routes on app. The verification page
// is registered before the API's route of the same path (fronts are
// mounted first) and passes every request that does not prefer HTML on to
// it.
func (h *Hosted) Mount(app *fiber.App) {
	app.Get(resetPrefix+"/:token", h.headers, h.resetForm)
	app.Post(resetPrefix, h.headers, h.checkOrigin, h.reset)
	if h.cfg.VerifiedPage {
		app.Get("/api/v1/verify-email/:id/:hash", h.verifyEmail)
	}
}

// headers sets the console's security headers before the handler runs, so
// that errors carry them too.
func (h *Hosted) headers(c *fiber.Ctx) error {
	setHeaders(c)
	return c.Next()
}

// checkOrigin lets a form's POST through only from a page of the service's
// own origin (else 403), as the console's checkPost does; the token the
// form carries stands for the console's CSRF token.
func (h *Hosted) checkOrigin(c *fiber.Ctx) error {
	if !web.FromSameOrigin(c, h.proxies.Origin(c)) {
		return errCrossSite
	}
	return c.Next()
}

// resetForm is the data of reset.html.
type resetForm struct {
	Token, Email string
	Errors       []string
}

// resetForm shows the form of a mailed reset link. Whether its token is
// good is told once the new password is sent, as the API tells it.
func (h *Hosted) resetForm(c *fiber.Ctx) error {
	return h.pages.render(c, http.StatusOK, "reset", page{
		Title: "Choose a new password",
		Data:  resetForm{Token: c.Params("token"), Email: c.Query("email")},
	})
}

// reset resets the password through the API's use case and says so, or
// shows the form again with why not.
func (h *Hosted) reset(c *fiber.Ctx) error {
	form := resetForm{Token: formValue(c, "token"), Email: formValue(c, "email")}
	password := formValue(c, "password")
	if form.Errors = confirmationErrors(password, formValue(c, "password_confirmation")); form.Errors != nil {
		return h.pages.render(c, http.StatusUnprocessableEntity, "reset", page{Title: "Choose a new password", Data: form})
	}
	err := h.resets.Reset(c.UserContext(), ports.ResetPasswordInput{Token: form.Token, Email: form.Email, Password: password})
	if sentences, ok := formErrors(err); ok {
		form.Errors = sentences
		return h.pages.render(c, http.StatusUnprocessableEntity, "reset", page{Title: "Choose a new password", Data: form})
	}
	if err != nil {
		return err
	}
	return h.message(c, http.StatusOK, "Your password has been reset",
		"Your password has been reset. Sign in with the new one; every device that was signed in has been signed out.")
}

// messagePage is the data of message.html.
type messagePage struct {
	Status int
	Lines  []string
}

// message answers a page that says lines under title.
func (h *Hosted) message(c *fiber.Ctx, status int, title string, lines ...string) error {
	return h.pages.render(c, status, "message", page{Title: title, Data: messagePage{Status: status, Lines: lines}})
}

// prefersHTML reports whether the request asks for HTML rather than JSON,
// as a browser following a link does; a client that names neither, or
// accepts anything, keeps JSON.
func prefersHTML(c *fiber.Ctx) bool {
	return c.Accepts(fiber.MIMEApplicationJSON, fiber.MIMETextHTML) == fiber.MIMETextHTML
}

// verifyEmail answers a browser that opens a mailed verification link with
// a page saying whether the address is now verified; any other caller
// gets the API's answer. The path is not the hosted pages' own, so this
// handler renders its refusals itself.
func (h *Hosted) verifyEmail(c *fiber.Ctx) error {
	if !prefersHTML(c) {
		return c.Next()
	}
	uri := c.Request().URI()
	verified, err := h.verification.Verify(c.UserContext(), ports.VerifyInput{
		ID:       c.Params("id"),
		Hash:     c.Params("hash"),
		Path:     string(uri.PathOriginal()),
		RawQuery: string(uri.QueryString()),
	})
	switch {
	case errors.Is(err, domain.ErrInvalidSignature):
		return h.message(c, http.StatusForbidden, "This link does not work",
			"This verification link is invalid or has expired, or the account's e-mail address has changed since it was sent.",
			"Ask for a new link from the application you registered with.")
	case err != nil:
		h.log.Error("verification page", "err", err)
		return h.RenderError(c, err)
	case !verified:
		return h.message(c, http.StatusOK, "Your e-mail address is verified", "Your e-mail address was verified already.")
	}
	return h.message(c, http.StatusOK, "Your e-mail address is verified", "Thank you: your e-mail address is now verified.")
}

// hostedWording replaces the console's sentence for the statuses whose
// console wording speaks of the console.
var hostedWording = map[int]string{
	http.StatusUnauthorized: "This page needs no sign-in; follow the link you were mailed.",
	http.StatusForbidden:    "The form must be sent from this site's own page.",
}

// RenderError answers err as a hosted page, with the console's headers:
// its status, and the console's heading and sentence for it. It never
// shows an error's own text; the service logs the faults of the paths it
// owns, and verifyEmail its own.
func (h *Hosted) RenderError(c *fiber.Ctx, err error) error {
	status := http.StatusInternalServerError
	var fe *fiber.Error
	if errors.As(err, &fe) {
		status = fe.Code
	} else if de, ok := domain.AsError(err); ok {
		status = web.Status(de)
	}
	w, ok := statusWording[status]
	if !ok {
		w = [2]string{http.StatusText(status), ""}
	}
	if s, ok := hostedWording[status]; ok {
		w[1] = s
	}
	return h.message(c, status, w[0], w[1])
}
