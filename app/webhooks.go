package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// webhookKeyBytes is the length of a webhook secret's key: 24 bytes, 192
// bits, within the 24 to 64 that Standard Webhooks asks for.
const webhookKeyBytes = 24

// WebhooksConfig holds the settings of webhook deliveries.
type WebhooksConfig struct {
	// MaxAttempts is how often a delivery is attempted before it fails
	// for good; 8 when zero.
	MaxAttempts int
	// Backoff is the wait before the first retry, doubled for each one
	// after; 30 seconds when zero.
	Backoff time.Duration
	// Lease is how long a claimed delivery stays with the replica that
	// claimed it, longer than an attempt may take; 2 minutes when zero.
	Lease time.Duration
	// DisableAfter is how many attempts in a row may fail before the
	// webhook is disabled; 20 when zero.
	DisableAfter int
	// Workers is how many deliveries a replica attempts at once; 4 when
	// zero.
	Workers int
	// Poll is how often a replica looks for due deliveries without being
	// woken; a second when zero.
	Poll time.Duration
}

func (c WebhooksConfig) withDefaults() WebhooksConfig {
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 8
	}
	if c.Backoff <= 0 {
		c.Backoff = 30 * time.Second
	}
	if c.Lease <= 0 {
		c.Lease = 2 * time.Minute
	}
	if c.DisableAfter <= 0 {
		c.DisableAfter = 20
	}
	if c.Workers <= 0 {
		c.Workers = 4
	}
	if c.Poll <= 0 {
		c.Poll = time.Second
	}
	return c
}

// Webhooks implements ports.Webhooks.
type Webhooks struct {
	store   ports.Store
	secrets ports.SecretGenerator
	sender  ports.WebhookSender
	clock   ports.Clock
}

// NewWebhooks returns the use cases of a user's webhooks.
func NewWebhooks(store ports.Store, secrets ports.SecretGenerator, sender ports.WebhookSender, clock ports.Clock) *Webhooks {
	return &Webhooks{store: store, secrets: secrets, sender: sender, clock: clock}
}

var _ ports.Webhooks = (*Webhooks)(nil)

// List implements ports.Webhooks.
func (w *Webhooks) List(ctx context.Context, actor domain.Actor) ([]domain.Webhook, error) {
	hooks, err := w.store.Repos().Webhooks.ListByUser(ctx, actor.User.ID)
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	return hooks, nil
}

// Create implements ports.Webhooks.
func (w *Webhooks) Create(ctx context.Context, actor domain.Actor, in ports.WebhookInput) (domain.Webhook, error) {
	if err := w.checkWrite(actor, in); err != nil {
		return domain.Webhook{}, err
	}
	now := w.clock.Now()
	hook := domain.Webhook{
		UserID: actor.User.ID, URL: in.URL, Events: in.Events,
		Secret:    domain.WebhookSecretOf(w.secrets.Key(webhookKeyBytes)),
		CreatedAt: now, UpdatedAt: now,
	}
	if in.Enabled.Set && !in.Enabled.Value {
		hook.Disable(now)
	}
	// The user's row is held while the webhooks are counted, so that
	// creates racing each other are counted one after the other.
	err := w.store.InTx(ctx, func(r ports.Repos) error {
		if _, err := r.Users.Lock(ctx, actor.User.ID); err != nil {
			return err
		}
		held, err := r.Webhooks.ListByUser(ctx, actor.User.ID)
		if err != nil {
			return err
		}
		if err := domain.CheckWebhookCount(len(held)); err != nil {
			return err
		}
		return r.Webhooks.Create(ctx, &hook)
	})
	if err != nil {
		return domain.Webhook{}, fmt.Errorf("create webhook: %w", err)
	}
	return hook, nil
}

// checkWrite checks that actor may write webhooks and that in describes
// one this service may send to.
func (w *Webhooks) checkWrite(actor domain.Actor, in ports.WebhookInput) error {
	if err := actor.CheckAbility(domain.WriteWebhooks); err != nil {
		return err
	}
	if err := actor.CheckWrite(); err != nil {
		return err
	}
	if err := domain.CheckWebhook(in.URL, in.Events); err != nil {
		return err
	}
	if !w.sender.Allowed(in.URL) {
		return domain.ErrWebhookURL
	}
	return nil
}

// Get implements ports.Webhooks.
func (w *Webhooks) Get(ctx context.Context, actor domain.Actor, id int64) (domain.Webhook, error) {
	hook, err := ownWebhook(ctx, w.store.Repos(), actor, id, false)
	if err != nil {
		return domain.Webhook{}, fmt.Errorf("get webhook %d: %w", id, err)
	}
	return hook, nil
}

// Replace implements ports.Webhooks.
func (w *Webhooks) Replace(ctx context.Context, actor domain.Actor, id int64, in ports.WebhookInput) (domain.Webhook, error) {
	if err := w.checkWrite(actor, in); err != nil {
		return domain.Webhook{}, err
	}
	var hook domain.Webhook
	err := w.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if hook, err = ownWebhook(ctx, r, actor, id, true); err != nil {
			return err
		}
		now := w.clock.Now()
		hook.URL, hook.Events, hook.UpdatedAt = in.URL, in.Events, now
		switch {
		case in.Enabled.Set && in.Enabled.Value:
			hook.Enable(now)
		case in.Enabled.Set:
			hook.Disable(now)
		}
		return r.Webhooks.Update(ctx, hook)
	})
	if err != nil {
		return domain.Webhook{}, fmt.Errorf("replace webhook %d: %w", id, err)
	}
	return hook, nil
}

// Delete implements ports.Webhooks.
func (w *Webhooks) Delete(ctx context.Context, actor domain.Actor, id int64) error {
	if err := actor.CheckAbility(domain.WriteWebhooks); err != nil {
		return err
	}
	if err := actor.CheckWrite(); err != nil {
		return err
	}
	err := w.store.InTx(ctx, func(r ports.Repos) error {
		if _, err := ownWebhook(ctx, r, actor, id, true); err != nil {
			return err
		}
		return r.Webhooks.Delete(ctx, id)
	})
	if err != nil {
		return fmt.Errorf("delete webhook %d: %w", id, err)
	}
	return nil
}

// Deliveries implements ports.Webhooks.
func (w *Webhooks) Deliveries(ctx context.Context, actor domain.Actor, id int64, page ports.Page) ([]domain.Delivery, int, error) {
	if err := domain.CheckPageSize(page.Limit); err != nil {
		return nil, 0, err
	}
	repos := w.store.Repos()
	if _, err := ownWebhook(ctx, repos, actor, id, false); err != nil {
		return nil, 0, fmt.Errorf("list deliveries of webhook %d: %w", id, err)
	}
	ds, total, err := repos.Deliveries.ListByWebhook(ctx, id, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list deliveries of webhook %d: %w", id, err)
	}
	return ds, total, nil
}

// Retry implements ports.Webhooks.
func (w *Webhooks) Retry(ctx context.Context, actor domain.Actor, id, delivery int64) (domain.Delivery, error) {
	if err := actor.CheckAbility(domain.WriteWebhooks); err != nil {
		return domain.Delivery{}, err
	}
	if err := actor.CheckWrite(); err != nil {
		return domain.Delivery{}, err
	}
	var d domain.Delivery
	err := w.store.InTx(ctx, func(r ports.Repos) error {
		if _, err := ownWebhook(ctx, r, actor, id, true); err != nil {
			return err
		}
		var err error
		if d, err = r.Deliveries.Get(ctx, delivery); err != nil {
			return err
		}
		if d.WebhookID != id {
			return domain.ErrNotFound
		}
		d.Retry(w.clock.Now())
		return r.Deliveries.Update(ctx, d)
	})
	if err != nil {
		return domain.Delivery{}, fmt.Errorf("retry delivery %d: %w", delivery, err)
	}
	return d, nil
}

// ownWebhook reads webhook id, locked when lock, if it is the actor's; a
// webhook of another user is not found.
func ownWebhook(ctx context.Context, r ports.Repos, actor domain.Actor, id int64, lock bool) (domain.Webhook, error) {
	read := r.Webhooks.Get
	if lock {
		read = r.Webhooks.Lock
	}
	hook, err := read(ctx, id)
	if err != nil {
		return domain.Webhook{}, err
	}
	if hook.UserID != actor.User.ID {
		return domain.Webhook{}, domain.ErrNotFound
	}
	return hook, nil
}

// WebhookWorker turns events into deliveries and attempts the deliveries
// that are due. Every replica runs one: the cursor lets one replica at a
// time fan events out, and claims lease each delivery to one replica.
type WebhookWorker struct {
	store  ports.Store
	sender ports.WebhookSender
	clock  ports.Clock
	cfg    WebhooksConfig
}

// NewWebhookWorker returns the worker.
func NewWebhookWorker(store ports.Store, sender ports.WebhookSender, clock ports.Clock, cfg WebhooksConfig) *WebhookWorker {
	return &WebhookWorker{store: store, sender: sender, clock: clock, cfg: cfg.withDefaults()}
}

// fanOutBatch is how many events one fan-out transaction reads.
const fanOutBatch = 200

// FanOut turns the events after the cursor into deliveries to the
// webhooks that want them, and moves the cursor past them, in one
// transaction. It returns how many events it read: none when the outbox
// has nothing new or another replica is fanning out.
func (w *WebhookWorker) FanOut(ctx context.Context) (int, error) {
	n := 0
	err := w.store.InTx(ctx, func(r ports.Repos) error {
		last, ok, err := r.Deliveries.LockCursor(ctx)
		if err != nil || !ok {
			return err
		}
		events, err := r.Events.After(ctx, last, fanOutBatch, ports.EventFilter{Topics: []string{domain.TopicPosts, domain.TopicComments}})
		if err != nil || len(events) == 0 {
			return err
		}
		hooksOf := map[int64][]domain.Webhook{}
		now := w.clock.Now()
		for _, e := range events {
			for _, user := range concerned(e) {
				hooks, seen := hooksOf[user]
				if !seen {
					if hooks, err = r.Webhooks.ListByUser(ctx, user); err != nil {
						return err
					}
					hooksOf[user] = hooks
				}
				for _, h := range hooks {
					if !h.Wants(e) {
						continue
					}
					d := domain.NewDelivery(h, e, now)
					if err := r.Deliveries.Create(ctx, &d); err != nil {
						return err
					}
				}
			}
		}
		n = len(events)
		return r.Deliveries.SetCursor(ctx, events[len(events)-1].ID)
	})
	if err != nil {
		return 0, fmt.Errorf("fan events out to webhooks: %w", err)
	}
	return n, nil
}

// concerned lists the users whose webhooks may want e, each once.
func concerned(e domain.Event) []int64 {
	var users []int64
	for _, u := range []int64{e.PostAuthorID, e.CommentAuthorID} {
		if u != 0 && !slices.Contains(users, u) {
			users = append(users, u)
		}
	}
	return users
}

// DeliverDue claims the deliveries that are due and attempts them, at most
// cfg.Workers at once. It returns how many it claimed.
func (w *WebhookWorker) DeliverDue(ctx context.Context) (int, error) {
	now := w.clock.Now()
	// No more than run at once: each claim's lease is sized for one
	// attempt, and one that waited behind others could lapse mid-send and
	// be claimed, and sent, again by another replica. Run claims again
	// while deliveries are due.
	due, err := w.store.Repos().Deliveries.Claim(ctx, now, now.Add(w.cfg.Lease), w.cfg.Workers)
	if err != nil {
		return 0, fmt.Errorf("claim deliveries: %w", err)
	}
	err = attemptAll(due, func(d domain.Delivery) error { return w.attempt(ctx, d) })
	return len(due), err
}

// attempt sends one claimed delivery and records the outcome on it and on
// its webhook. A delivery of a disabled webhook fails at once; its owner
// may retry it after enabling the webhook.
func (w *WebhookWorker) attempt(ctx context.Context, d domain.Delivery) error {
	hook, err := w.store.Repos().Webhooks.Get(ctx, d.WebhookID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil // deleted meanwhile, and its deliveries with it
	}
	if err != nil {
		return fmt.Errorf("deliver %d: %w", d.ID, err)
	}
	var status int
	var sendErr error
	if hook.Enabled() {
		status, sendErr = w.sender.Send(ctx, hook, d)
	}
	err = w.store.InTx(ctx, func(r ports.Repos) error {
		hook, err := r.Webhooks.Lock(ctx, d.WebhookID)
		if err != nil {
			return err
		}
		now := w.clock.Now()
		switch {
		case !hook.Enabled():
			d.Fail(0, "the webhook is disabled", 1, 0, now)
		case sendErr != nil:
			d.Fail(status, sendErr.Error(), w.cfg.MaxAttempts, w.cfg.Backoff, now)
			hook.Failed(sendErr.Error(), w.cfg.DisableAfter, now)
		default:
			d.Succeed(status, now)
			hook.Succeeded(now)
		}
		if err := r.Deliveries.Update(ctx, d); err != nil {
			return err
		}
		return r.Webhooks.Update(ctx, hook)
	})
	if errors.Is(err, domain.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("record delivery %d: %w", d.ID, err)
	}
	return nil
}

// Run fans out and delivers until ctx ends: at once when events are
// committed, and every cfg.Poll for retries that fall due. report hears of
// every failure of the store, which the next round tries again.
func (w *WebhookWorker) Run(ctx context.Context, report func(error)) {
	wake, stop := w.store.Subscribe()
	defer stop()
	tick := time.NewTicker(w.cfg.Poll)
	defer tick.Stop()
	for {
		for ctx.Err() == nil {
			n, err := w.FanOut(ctx)
			if err != nil && ctx.Err() == nil {
				report(err)
			}
			if err != nil || n == 0 {
				break
			}
		}
		drain(ctx, report, func() bool { return true }, w.DeliverDue)
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-tick.C:
		}
	}
}
