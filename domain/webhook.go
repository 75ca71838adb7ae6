package domain

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// WebhookSecretPrefix starts every webhook secret, as Standard Webhooks
// writes them; the rest is the base64 of the key's bytes.
const WebhookSecretPrefix = "whsec_"

// WebhookSecretOf writes key as a webhook secret.
func WebhookSecretOf(key []byte) string {
	return WebhookSecretPrefix + base64.StdEncoding.EncodeToString(key)
}

// Webhook is a user's subscription of a URL to the events of the user's
// posts, of the comments on them and of the comments the user wrote. A
// webhook whose deliveries keep failing is disabled, with the reason, until
// its owner enables it again.
type Webhook struct {
	ID     int64
	UserID int64
	URL    string
	Events []EventType
	// Secret signs every delivery; its owner sees it once, at creation.
	Secret string
	// Failures counts the attempts that failed in a row, across
	// deliveries; a success resets it.
	Failures       int
	DisabledAt     *time.Time
	DisabledReason string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Enabled reports whether w receives deliveries.
func (w Webhook) Enabled() bool { return w.DisabledAt == nil }

// Wants reports whether w delivers e: an enabled webhook of a user whom e
// concerns, subscribed to e's type, and only what the API would show the
// user whole.
func (w Webhook) Wants(e Event) bool {
	return w.Enabled() && slices.Contains(w.Events, e.Type) && e.Concerns(w.UserID) && e.ViewOf(w.UserID) == EventWhole
}

// Failed counts one failed attempt at now and disables w when it has
// failed disableAfter times in a row, saying why.
func (w *Webhook) Failed(reason string, disableAfter int, now time.Time) {
	w.Failures++
	w.UpdatedAt = now
	if w.Enabled() && disableAfter > 0 && w.Failures >= disableAfter {
		w.DisabledAt = &now
		w.DisabledReason = fmt.Sprintf("%d deliveries failed in a row; the last: %s", w.Failures, reason)
	}
}

// Succeeded resets the count of failures.
func (w *Webhook) Succeeded(now time.Time) {
	if w.Failures != 0 {
		w.Failures, w.UpdatedAt = 0, now
	}
}

// Enable lets a disabled webhook receive deliveries again, with a fresh
// count of failures.
func (w *Webhook) Enable(now time.Time) {
	w.DisabledAt, w.DisabledReason, w.Failures, w.UpdatedAt = nil, "", 0, now
}

// Disable stops deliveries at its owner's request.
func (w *Webhook) Disable(now time.Time) {
	if w.Enabled() {
		w.DisabledAt, w.DisabledReason, w.UpdatedAt = &now, "disabled by its owner", now
	}
}

// DisableByAdmin stops deliveries at an admin's request; the owner may
// enable the webhook again.
func (w *Webhook) DisableByAdmin(now time.Time) {
	if w.Enabled() {
		w.DisabledAt, w.DisabledReason, w.UpdatedAt = &now, "disabled by an admin", now
	}
}

// DeliveryStatus is where a delivery stands.
type DeliveryStatus string

const (
	DeliveryPending   DeliveryStatus = "pending"   // to be attempted at NextAttemptAt
	DeliveryDelivered DeliveryStatus = "delivered" // the receiver answered 2xx
	DeliveryFailed    DeliveryStatus = "failed"    // every attempt failed; only a retry sends it again
)

// Delivery is one event on its way to one webhook. It is sent at least
// once: a replica that dies mid-attempt leaves the delivery leased until
// ClaimedUntil, after which another replica attempts it again.
type Delivery struct {
	ID            int64
	WebhookID     int64
	Event         Event
	Status        DeliveryStatus
	Attempts      int
	NextAttemptAt time.Time
	ClaimedUntil  *time.Time
	// LastStatusCode is the receiver's last answer (0: none, as when it
	// could not be reached); LastError says what went wrong.
	LastStatusCode int
	LastError      string
	DeliveredAt    *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// NewDelivery starts the delivery of e to webhook w, due at now.
func NewDelivery(w Webhook, e Event, now time.Time) Delivery {
	return Delivery{WebhookID: w.ID, Event: e, Status: DeliveryPending, NextAttemptAt: now, CreatedAt: now, UpdatedAt: now}
}

// Succeed records an attempt the receiver accepted.
func (d *Delivery) Succeed(status int, now time.Time) {
	d.Attempts++
	d.Status, d.LastStatusCode, d.LastError = DeliveryDelivered, status, ""
	d.DeliveredAt, d.ClaimedUntil, d.UpdatedAt = &now, nil, now
}

// Fail records a failed attempt: the delivery is due again after backoff
// times 2^(attempts-1), or has failed for good after maxAttempts.
func (d *Delivery) Fail(status int, reason string, maxAttempts int, backoff time.Duration, now time.Time) {
	d.Attempts++
	d.LastStatusCode, d.LastError, d.ClaimedUntil, d.UpdatedAt = status, reason, nil, now
	if d.Attempts >= maxAttempts {
		d.Status = DeliveryFailed
		return
	}
	d.NextAttemptAt = now.Add(backoff << min(d.Attempts-1, 20))
}

// Retry makes a delivery due again at now, at its owner's request.
func (d *Delivery) Retry(now time.Time) {
	d.Status, d.NextAttemptAt, d.ClaimedUntil, d.UpdatedAt = DeliveryPending, now, nil, now
}

// ErrWebhookURL is the refusal of a webhook URL that may not be called.
var ErrWebhookURL = &Error{Kind: Invalid, Code: "webhook_url", Fields: []Violation{{"url", RulePublicURL}}}

// MaxWebhooksPerUser bounds a user's webhooks, as GitHub bounds a
// repository's: every event fans out to each of them.
const MaxWebhooksPerUser = 20

// ErrTooManyWebhooks is the refusal of a webhook beyond MaxWebhooksPerUser.
var ErrTooManyWebhooks = &Error{Kind: Invalid, Code: "webhook_limit", Fields: []Violation{{"url", RuleN(RuleMaxWebhooks, MaxWebhooksPerUser)}}}

// CheckWebhookCount refuses another webhook to a user who holds held.
func CheckWebhookCount(held int) error {
	if held >= MaxWebhooksPerUser {
		return ErrTooManyWebhooks
	}
	return nil
}

// MaxWebhookURLLength bounds a webhook's URL, in characters.
const MaxWebhookURLLength = 2048

// CheckWebhook reports every rule that a webhook's URL and events break:
// the URL is required and at most MaxWebhookURLLength characters; the
// events are required, each one of EventTypes, and no more than there are.
// Whether the URL may be called is the sender's to say (ErrWebhookURL).
func CheckWebhook(url string, events []EventType) error {
	var vs Violations
	vs.Add("url", checkText(url, MaxWebhookURLLength))
	switch {
	case len(events) == 0:
		vs.Add("events", []Rule{RuleRequired})
	case len(events) > len(EventTypes):
		vs.Add("events", []Rule{RuleN(RuleMaxItems, int64(len(EventTypes)))})
	}
	for i, e := range events {
		if !slices.Contains(EventTypes, e) {
			vs.Add("events."+strconv.Itoa(i), []Rule{RuleOf(RuleIn, EventTypeNames()...)})
		}
	}
	return vs.Err()
}

// EventTypeNames are the names of EventTypes, in their order.
func EventTypeNames() []string {
	out := make([]string, len(EventTypes))
	for i, t := range EventTypes {
		out[i] = string(t)
	}
	return out
}
