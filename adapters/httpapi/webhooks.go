package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// webhookJSON is a webhook's representation; the secret appears beside it
// once, in the answer to its creation.
type webhookJSON struct {
	ID             int64    `json:"id"`
	URL            string   `json:"url"`
	Events         []string `json:"events"`
	Enabled        bool     `json:"enabled"`
	Failures       int      `json:"failures"`
	DisabledAt     *string  `json:"disabled_at"`
	DisabledReason *string  `json:"disabled_reason"`
	CreatedAt      string   `json:"created_at"`
	UpdatedAt      string   `json:"updated_at"`
}

func presentWebhook(w domain.Webhook) webhookJSON {
	out := webhookJSON{
		ID: w.ID, URL: w.URL, Events: make([]string, len(w.Events)), Enabled: w.Enabled(), Failures: w.Failures,
		DisabledAt: formatTimePtr(w.DisabledAt), CreatedAt: formatTime(w.CreatedAt), UpdatedAt: formatTime(w.UpdatedAt),
	}
	for i, t := range w.Events {
		out.Events[i] = string(t)
	}
	if w.DisabledReason != "" {
		out.DisabledReason = &w.DisabledReason
	}
	return out
}

// deliveryJSON is a delivery's representation.
type deliveryJSON struct {
	ID             int64   `json:"id"`
	EventID        string  `json:"event_id"`
	EventType      string  `json:"event_type"`
	Status         string  `json:"status"`
	Attempts       int     `json:"attempts"`
	NextAttemptAt  *string `json:"next_attempt_at"`
	LastStatusCode *int    `json:"last_status_code"`
	LastError      *string `json:"last_error"`
	DeliveredAt    *string `json:"delivered_at"`
	CreatedAt      string  `json:"created_at"`
	UpdatedAt      string  `json:"updated_at"`
}

func presentDelivery(d domain.Delivery) deliveryJSON {
	out := deliveryJSON{
		ID: d.ID, EventID: jsonID(d.Event.ID), EventType: string(d.Event.Type), Status: string(d.Status), Attempts: d.Attempts,
		DeliveredAt: formatTimePtr(d.DeliveredAt), CreatedAt: formatTime(d.CreatedAt), UpdatedAt: formatTime(d.UpdatedAt),
	}
	if d.Status == domain.DeliveryPending {
		out.NextAttemptAt = formatTimePtr(&d.NextAttemptAt)
	}
	if d.LastStatusCode != 0 {
		out.LastStatusCode = &d.LastStatusCode
	}
	if d.LastError != "" {
		out.LastError = &d.LastError
	}
	return out
}

// eventTypeNames are the names webhook events may list.
var eventTypeNames = domain.EventTypeNames()

// webhookInput reads and validates a webhook's body, with the bounds of
// domain.CheckWebhook, which the use case checks again.
func webhookInput(c *fiber.Ctx) (ports.WebhookInput, error) {
	body, err := jsonBody(c)
	if err != nil {
		return ports.WebhookInput{}, err
	}
	v := validate.New(body)
	in := ports.WebhookInput{URL: v.String("url", validate.Required, validate.Max(domain.MaxWebhookURLLength))}
	for _, t := range v.Strings("events", validate.Required, validate.MinItems(1), validate.MaxItems(int64(len(eventTypeNames))), validate.In(eventTypeNames...)) {
		if e := domain.EventType(t); !containsType(in.Events, e) {
			in.Events = append(in.Events, e)
		}
	}
	if enabled := v.Bool("enabled"); enabled != nil {
		in.Enabled = ports.Some(*enabled)
	}
	return in, v.Err()
}

func containsType(types []domain.EventType, t domain.EventType) bool {
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

func (s *Server) listWebhooks(c *fiber.Ctx) error {
	actor, _ := actorOf(c)
	hooks, err := s.webhooks.List(c.UserContext(), actor)
	if err != nil {
		return err
	}
	data := make([]webhookJSON, len(hooks))
	for i, w := range hooks {
		data[i] = presentWebhook(w)
	}
	return sendJSON(c, http.StatusOK, fiber.Map{"data": data})
}

func (s *Server) createWebhook(c *fiber.Ctx) error {
	in, err := webhookInput(c)
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	hook, err := s.webhooks.Create(c.UserContext(), actor, in)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusCreated, fiber.Map{"secret": hook.Secret, "data": presentWebhook(hook)})
}

func (s *Server) showWebhook(c *fiber.Ctx) error {
	id, err := pathID(c, "webhook")
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	hook, err := s.webhooks.Get(c.UserContext(), actor, id)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, fiber.Map{"data": presentWebhook(hook)})
}

func (s *Server) replaceWebhook(c *fiber.Ctx) error {
	id, err := pathID(c, "webhook")
	if err != nil {
		return err
	}
	in, err := webhookInput(c)
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	hook, err := s.webhooks.Replace(c.UserContext(), actor, id, in)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, fiber.Map{"data": presentWebhook(hook)})
}

func (s *Server) deleteWebhook(c *fiber.Ctx) error {
	id, err := pathID(c, "webhook")
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	if err := s.webhooks.Delete(c.UserContext(), actor, id); err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, message{"Webhook deleted."})
}

func (s *Server) listDeliveries(c *fiber.Ctx) error {
	return sendPageUnder(s, c, "webhook", "v1", s.webhooks.Deliveries, presentDelivery)
}

func (s *Server) retryDelivery(c *fiber.Ctx) error {
	id, err := pathID(c, "webhook")
	if err != nil {
		return err
	}
	delivery, err := pathID(c, "delivery")
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	d, err := s.webhooks.Retry(c.UserContext(), actor, id, delivery)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusAccepted, fiber.Map{"data": presentDelivery(d)})
}

// EventBody renders an event as webhooks deliver it, with links below
// base (APP_URL) and files at their public URLs when files has them: the
// same JSON the event stream sends.
func EventBody(base string, files ports.FileStore) func(domain.Event) ([]byte, error) {
	public, _ := files.(ports.PublicFiles)
	// Trimmed as baseURL trims APP_URL, so that links match the stream's.
	l := links{base: strings.TrimRight(base, "/"), public: public}
	return func(e domain.Event) ([]byte, error) {
		return json.Marshal(eventOf(l, e, domain.EventWhole))
	}
}
