package console

import (
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
)

// noticeCookie carries the one-time notice of an action across its
// redirect. It holds a key of notices, never text from the request.
const noticeCookie = "inkwell_admin_notice"

// notices are the console's sentences after each action succeeds.
var notices = map[string]string{
	"token.revoke":       "The token was revoked.",
	"user.tokens.revoke": "Every token of the user was revoked.",
	"user.delete":        "The account was deleted.",
	"user.send_reset":    "A password reset link is on its way.",
	"user.verify":        "The e-mail address is now verified.",
	"post.update":        "The post was saved.",
	"post.publish":       "The post is published.",
	"post.unpublish":     "The post is a draft again.",
	"post.delete":        "The post was moved to the trash.",
	"comment.delete":     "The comment was moved to the trash.",
	"post.restore":       "The post was restored.",
	"post.purge":         "The post was deleted for good.",
	"comment.restore":    "The comment was restored.",
	"comment.purge":      "The comment was deleted for good.",
	"tag.rename":         "The tag was renamed.",
	"tag.merge":          "The tag was merged into the other one.",
	"tag.delete":         "The tag was deleted; its posts stay.",
	"person.update":      "The person was saved.",
	"product.update":     "The product was saved.",
	"webhook.disable":    "The webhook was disabled.",
	"webhook.enable":     "The webhook was enabled.",
	"delivery.retry":     "The delivery will be sent again shortly.",
	"mail.retry":         "The mail will be sent again shortly.",
}

// done answers a successful action: 303 to the page it goes back to, with
// the notice for the next page it shows.
func (k *Console) done(c *fiber.Ctx, notice, back string) error {
	c.Cookie(&fiber.Cookie{
		Name: noticeCookie, Value: notice, Path: prefix, Secure: k.cfg.Secure,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteStrictMode,
	})
	return c.Redirect(back, http.StatusSeeOther)
}

// takeNotice returns the notice the request's cookie names, once: the
// cookie is dropped.
func takeNotice(c *fiber.Ctx) string {
	key := c.Cookies(noticeCookie)
	if key == "" {
		return ""
	}
	c.Cookie(&fiber.Cookie{Name: noticeCookie, Path: prefix, Expires: time.Unix(0, 0), HTTPOnly: true, SameSite: fiber.CookieSameSiteStrictMode})
	return notices[key]
}
