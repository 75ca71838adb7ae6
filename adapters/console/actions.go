package console

import (
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// An action decodes the record's id, calls one admin use case with it and
// goes back, with a notice, to the page named by the form's "back" field
// when that is a console page, else to fallback.
func (k *Console) action(c *fiber.Ctx, notice, fallback string, call func(ports.AdminCaller, int64) error) error {
	id, err := idOf(c)
	if err != nil {
		return err
	}
	if err := call(caller(c), id); err != nil {
		return err
	}
	return k.done(c, notice, backTo(c, fallback))
}

// backTo is the form's "back" field when it is a path of the console (no
// scheme, no host, no other site), else fallback.
func backTo(c *fiber.Ctx, fallback string) string {
	back := formValue(c, "back")
	if (back == prefix || strings.HasPrefix(back, prefix+"/") || strings.HasPrefix(back, prefix+"?")) &&
		!strings.ContainsAny(back, "\\\r\n") && !strings.Contains(back, "//") {
		return back
	}
	return fallback
}

func userPage(id int64) string { return prefix + "/users/" + strconv.FormatInt(id, 10) }

// byAdminRight is the caller acting by admin right on the owners' use
// cases, which check the right and audit the change.
func byAdminRight(ac ports.AdminCaller) domain.Acting {
	return domain.ByAdminRight(ac.Actor, ac.Address)
}

func (k *Console) revokeToken(c *fiber.Ctx) error {
	return k.action(c, "token.revoke", prefix+"/users", func(ac ports.AdminCaller, id int64) error {
		return k.owners.tokens.Delete(c.UserContext(), byAdminRight(ac), id)
	})
}

func (k *Console) revokeUserTokens(c *fiber.Ctx) error {
	id, _ := idOf(c)
	return k.action(c, "user.tokens.revoke", userPage(id), func(ac ports.AdminCaller, id int64) error {
		_, err := k.admin.RevokeUserTokens(c.UserContext(), ac, id)
		return err
	})
}

func (k *Console) deleteUser(c *fiber.Ctx) error {
	return k.action(c, "user.delete", prefix+"/users", func(ac ports.AdminCaller, id int64) error {
		return k.admin.DeleteUser(c.UserContext(), ac, id, formValue(c, "password"))
	})
}

func (k *Console) sendReset(c *fiber.Ctx) error {
	id, _ := idOf(c)
	base := k.cfg.LinkBase
	if base == "" {
		base = k.proxies.Origin(c)
	}
	return k.action(c, "user.send_reset", userPage(id), func(ac ports.AdminCaller, id int64) error {
		return k.admin.SendReset(c.UserContext(), ac, id, base)
	})
}

func (k *Console) verifyUser(c *fiber.Ctx) error {
	id, _ := idOf(c)
	return k.action(c, "user.verify", userPage(id), func(ac ports.AdminCaller, id int64) error {
		return k.admin.VerifyUser(c.UserContext(), ac, id)
	})
}

// setStatus is a publish or unpublish button: Posts.Update with the
// status alone, which the use case audits as post.publish or
// post.unpublish, at the version the page showed.
func (k *Console) setStatus(c *fiber.Ctx, notice string, status domain.PostStatus) error {
	pre, err := versionOf(c)
	if err != nil {
		return err
	}
	return k.action(c, notice, prefix+"/posts", func(ac ports.AdminCaller, id int64) error {
		_, err := k.owners.posts.Update(c.UserContext(), byAdminRight(ac), id, ports.PostPatch{Status: ports.Some(status)}, pre)
		return err
	})
}

// versionOf reads the form's "version": the UpdatedAt of the record as
// the page showed it (formatVersion), which the change then expects, as
// an If-Match does, so that a button on a stale page changes nothing
// (412). A form without one expects nothing; one that is no time is a
// 400.
func versionOf(c *fiber.Ctx) (ports.Precondition, error) {
	raw := formValue(c, "version")
	if raw == "" {
		return ports.Precondition{}, nil
	}
	v, err := time.Parse(time.RFC3339Nano, raw)
	if err != nil {
		return ports.Precondition{}, fiber.ErrBadRequest
	}
	return ports.IfVersion(v), nil
}

// formatVersion writes a record's version for a form's "version" field.
func formatVersion(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}

func (k *Console) publishPost(c *fiber.Ctx) error {
	return k.setStatus(c, "post.publish", domain.StatusPublished)
}

func (k *Console) unpublishPost(c *fiber.Ctx) error {
	return k.setStatus(c, "post.unpublish", domain.StatusDraft)
}

func (k *Console) deletePost(c *fiber.Ctx) error {
	return k.action(c, "post.delete", prefix+"/posts", func(ac ports.AdminCaller, id int64) error {
		return k.owners.posts.Delete(c.UserContext(), byAdminRight(ac), id, ports.Precondition{})
	})
}

func (k *Console) deleteComment(c *fiber.Ctx) error {
	return k.action(c, "comment.delete", prefix+"/comments", func(ac ports.AdminCaller, id int64) error {
		return k.owners.comments.Delete(c.UserContext(), byAdminRight(ac), id, ports.Precondition{})
	})
}

func (k *Console) disableWebhook(c *fiber.Ctx) error {
	return k.action(c, "webhook.disable", prefix+"/webhooks", func(ac ports.AdminCaller, id int64) error {
		return k.admin.DisableWebhook(c.UserContext(), ac, id)
	})
}

func (k *Console) enableWebhook(c *fiber.Ctx) error {
	return k.action(c, "webhook.enable", prefix+"/webhooks", func(ac ports.AdminCaller, id int64) error {
		return k.admin.EnableWebhook(c.UserContext(), ac, id)
	})
}

func (k *Console) retryDelivery(c *fiber.Ctx) error {
	return k.action(c, "delivery.retry", prefix+"/webhooks", func(ac ports.AdminCaller, id int64) error {
		return k.admin.RetryDelivery(c.UserContext(), ac, id)
	})
}

func (k *Console) retryMail(c *fiber.Ctx) error {
	return k.action(c, "mail.retry", prefix+"/mails", func(ac ports.AdminCaller, id int64) error {
		return k.admin.RetryMail(c.UserContext(), ac, id)
	})
}
