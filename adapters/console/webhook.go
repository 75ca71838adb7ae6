package console

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// webhookPage is the data of webhook.html: the webhook, its owner's
// e-mail, a page of its deliveries, newest first, and the page itself,
// where its forms come back to.
type webhookPage struct {
	ports.AdminWebhook
	Deliveries []domain.Delivery
	Back       string
	Pager      pager
}

// webhook shows one webhook: its URL, events, owner and state, with its
// disable or enable button, and its recent deliveries, each with a retry
// button; every button comes back here.
func (k *Console) webhook(c *fiber.Ctx) error {
	id, err := idOf(c)
	if err != nil {
		return err
	}
	n, pg, err := pageOf(c)
	if err != nil {
		return err
	}
	hook, err := k.admin.Webhook(c.UserContext(), caller(c), id)
	if err != nil {
		return err
	}
	deliveries, total, err := k.admin.Deliveries(c.UserContext(), caller(c), id, pg)
	if err != nil {
		return err
	}
	path := prefix + "/webhooks/" + strconv.FormatInt(id, 10)
	back := path
	if n > 1 {
		back += "?page=" + strconv.Itoa(n)
	}
	return k.show(c, "webhook", "Webhook "+strconv.FormatInt(id, 10), webhookPage{
		AdminWebhook: hook, Deliveries: deliveries, Back: back, Pager: newPager(path, nil, n, total, false),
	})
}
