package ports

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// WebhookRepository keeps webhooks.
type WebhookRepository interface {
	// Create stores w and sets its ID. domain.ErrNotFound when the user
	// does not exist.
	Create(ctx context.Context, w *domain.Webhook) error
	// Get returns domain.ErrNotFound when there is no such webhook.
	Get(ctx context.Context, id int64) (domain.Webhook, error)
	// Lock reads the webhook and holds it until the transaction ends.
	// domain.ErrNotFound.
	Lock(ctx context.Context, id int64) (domain.Webhook, error)
	// ListByUser returns the user's webhooks in id order.
	ListByUser(ctx context.Context, userID int64) ([]domain.Webhook, error)
	// Update writes every field but ID, UserID, Secret and CreatedAt.
	// domain.ErrNotFound.
	Update(ctx context.Context, w domain.Webhook) error
	// Delete removes the webhook with its deliveries. domain.ErrNotFound.
	Delete(ctx context.Context, id int64) error
}

// DeliveryRepository keeps the deliveries of events to webhooks, and the
// position in the outbox up to which events were turned into deliveries.
type DeliveryRepository interface {
	// Create stores d and sets its ID.
	Create(ctx context.Context, d *domain.Delivery) error
	// Get returns domain.ErrNotFound when there is no such delivery.
	Get(ctx context.Context, id int64) (domain.Delivery, error)
	// Claim leases up to limit pending deliveries due at now whose lease,
	// if any, has run out, and returns them leased until until, oldest due
	// first. Replicas that claim at once never get the same delivery.
	Claim(ctx context.Context, now, until time.Time, limit int) ([]domain.Delivery, error)
	// Update writes the delivery's state: status, attempts, times, lease
	// and last answer. domain.ErrNotFound.
	Update(ctx context.Context, d domain.Delivery) error
	// ListByWebhook returns one page of the webhook's deliveries, newest
	// first, and how many it has.
	ListByWebhook(ctx context.Context, webhookID int64, page Page) ([]domain.Delivery, int, error)
	// LockCursor reads the id of the last event turned into deliveries and
	// holds it until the transaction ends; ok is false, and nothing held,
	// when another transaction holds it, so that one replica at a time
	// fans events out and the others do not wait.
	LockCursor(ctx context.Context) (last int64, ok bool, err error)
	// SetCursor moves the cursor LockCursor holds.
	SetCursor(ctx context.Context, last int64) error
	// Pending counts the deliveries still pending: waiting for a retry,
	// due or being sent.
	Pending(ctx context.Context) (int64, error)
}

// WebhookInput is a webhook to create or replace; the use case checks it
// with domain.CheckWebhook.
type WebhookInput struct {
	URL    string
	Events []domain.EventType
	// Enabled, on a replacement, enables or disables the webhook; unset
	// leaves it as it is.
	Enabled Optional[bool]
}

// Webhooks is the driving port of a user's webhooks.
// Every method that writes for an actor (creates, changes or deletes)
// first returns what domain.Actor.CheckAbility refuses for domain.WriteWebhooks
// (domain.ErrUnauthenticated, domain.ErrInvalidAbility), then
// domain.ErrEmailNotVerified when domain.Actor.CheckWrite refuses the
// actor.
type Webhooks interface {
	// List returns the actor's webhooks.
	List(ctx context.Context, actor domain.Actor) ([]domain.Webhook, error)
	// Create stores a webhook of the actor and returns it with its secret,
	// the only time the secret is shown. An Invalid error naming each field
	// that breaks domain.CheckWebhook; domain.ErrWebhookURL for a URL the
	// service may not call; domain.ErrTooManyWebhooks when the actor holds
	// domain.MaxWebhooksPerUser already, counted so that concurrent creates
	// cannot pass it.
	Create(ctx context.Context, actor domain.Actor, in WebhookInput) (domain.Webhook, error)
	// Get returns one of the actor's webhooks; domain.ErrNotFound for
	// another's.
	Get(ctx context.Context, actor domain.Actor, id int64) (domain.Webhook, error)
	// Replace changes the URL, the events and, when set, whether it is
	// enabled. domain.ErrNotFound, an Invalid error as Create's,
	// domain.ErrWebhookURL.
	Replace(ctx context.Context, actor domain.Actor, id int64, in WebhookInput) (domain.Webhook, error)
	// Delete removes the webhook and its deliveries. domain.ErrNotFound.
	Delete(ctx context.Context, actor domain.Actor, id int64) error
	// Deliveries returns one page of the webhook's deliveries, newest
	// first, and their number. domain.ErrNotFound; an Invalid error on
	// per_page when the page breaks domain.CheckPageSize.
	Deliveries(ctx context.Context, actor domain.Actor, id int64, page Page) ([]domain.Delivery, int, error)
	// Retry makes a delivery due at once. domain.ErrNotFound.
	Retry(ctx context.Context, actor domain.Actor, id, delivery int64) (domain.Delivery, error)
}

// WebhookSender sends one delivery to a webhook's URL, signed with its
// secret. It returns the receiver's status code (0 when there was no
// answer) and an error for anything but a 2xx answer. A URL the service may
// not call (WEBHOOKS_ALLOW_PRIVATE) fails with domain.ErrWebhookURL.
type WebhookSender interface {
	Send(ctx context.Context, w domain.Webhook, d domain.Delivery) (int, error)
	// Allowed reports whether url may be a webhook's URL, as far as can
	// be told without resolving its host.
	Allowed(url string) bool
}
