package httpapi

import (
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/crud"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Defaults of the event stream's timings; Config may change them.
const (
	// defaultHeartbeat is how often an idle stream sends a comment line, so
	// that proxies keep it open and a gone client is noticed.
	defaultHeartbeat = 15 * time.Second
)

// areaBTopics are the topics of area B, whose records everybody may read.
var areaBTopics = []string{domain.TopicUsers, domain.TopicProducts}

// eventJSON is an event as streams and webhooks carry it.
type eventJSON struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	CreatedAt string `json:"created_at"`
	Data      any    `json:"data"`
}

// bareJSON is what a reader who may not see a draft learns of a post that
// became one: which post left their view.
type bareJSON struct {
	ID   int64  `json:"id"`
	Type string `json:"type"`
}

// eventOf renders e, as much of it as view allows, with links l.
func eventOf(l links, e domain.Event, view domain.EventView) eventJSON {
	out := eventJSON{ID: jsonID(e.ID), Type: string(e.Type), CreatedAt: formatTime(e.CreatedAt)}
	p := e.Payload
	switch {
	case view == domain.EventBare:
		out.Data = bareJSON{ID: e.PostID, Type: "post"}
	case p.Post != nil:
		tags := p.Tags
		if tags == nil {
			tags = []domain.Tag{}
		}
		v := ports.PostView{Post: domain.RestorePost(*p.Post), Author: eventAuthor(p.Author), Tags: tags}
		out.Data = postOf(l, apiV1, v, postSingle)
	case p.Comment != nil:
		out.Data = commentOf(l, ports.CommentView{Comment: *p.Comment, Author: eventAuthor(p.Author)})
	case p.Person != nil:
		out.Data = crud.PersonJSON(*p.Person)
	case p.Product != nil:
		out.Data = crud.ProductJSON(*p.Product)
	}
	return out
}

// jsonID writes an event id as the string the event's JSON carries.
func jsonID(id int64) string { return strconv.FormatInt(id, 10) }

// eventAuthor is the author an event carries, or none.
func eventAuthor(a *domain.Author) domain.Author {
	if a == nil {
		return domain.Author{}
	}
	return *a
}

// streamEvents serves GET /api/v1/events as text/event-stream. An
// authenticated caller sees every topic, as much as the API would show
// them; an anonymous one only area B's, and only while area B is open.
// The stream always reads the outbox, from Last-Event-ID on, so that a
// lost wake-up or a reconnect never loses or repeats an event.
func (s *Server) streamEvents(c *fiber.Ctx) error {
	actor, signedIn, err := s.auth.actor(c)
	if err != nil {
		return err
	}
	f, after, err := eventQuery(c)
	if err != nil {
		return err
	}
	if !signedIn {
		if s.cfg.CrudRequireToken {
			return domain.ErrUnauthenticated
		}
		if f.PostID != 0 || slices.ContainsFunc(f.Topics, func(t string) bool { return !slices.Contains(areaBTopics, t) }) {
			return domain.ErrUnauthenticated
		}
		if len(f.Topics) == 0 {
			f.Topics = areaBTopics
		}
	}
	if c.Method() == fiber.MethodHead {
		// The headers a GET would have, and no stream.
		streamHeaders(c)
		return nil
	}
	// The stream lives until the client goes or the server shuts down,
	// not for the request's deadline: once the headers are written, the
	// connection leaves fasthttp for the server's streams (hub), where it
	// is a record, not a goroutine.
	sub := s.hub.subscriber(s.linksOf(c))
	cancel, err := s.events.Subscribe(c.UserContext(), s.eventViewer(c, actor), f, after, c.Get("Last-Event-ID") == "", sub)
	if err != nil {
		return err
	}
	sub.cancel = cancel
	streamHeaders(c)
	fctx := c.Context()
	// The body is chunked, as fasthttp would send a body of unknown size,
	// and the hub writes the headers itself, with the first chunk.
	fctx.Response.Header.SetContentLength(-1)
	fctx.HijackSetNoResponse(true)
	fctx.Hijack(func(conn net.Conn) {
		head := slices.Clone(fctx.Response.Header.Header())
		s.hub.attach(sub, conn, head)
	})
	return nil
}

// streamHeaders sets the headers of an event stream.
func streamHeaders(c *fiber.Ctx) {
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	// nginx buffers responses unless told not to, which would hold events
	// back until its buffer fills.
	c.Set("X-Accel-Buffering", "no")
}

// eventViewer is who reads the stream: the actor, the token or browser
// session that authenticated them, whose end ends the stream, and the
// client address that the streams per address are counted by.
func (s *Server) eventViewer(c *fiber.Ctx, actor domain.Actor) ports.EventViewer {
	v := ports.EventViewer{User: actor.User.ID, Token: actor.Token, Address: s.proxies.ClientIP(c)}
	if cookie, ok := c.Locals(localSession).(string); ok && actor.Token == nil {
		v.SessionHash = domain.HashSecret(cookie)
	}
	return v
}

// eventQuery reads the stream's filters and where it resumes.
func eventQuery(c *fiber.Ctx) (ports.EventFilter, int64, error) {
	var f ports.EventFilter
	var broken []domain.Violation
	if raw := c.Query("topics"); raw != "" {
		for _, t := range strings.Split(raw, ",") {
			t = strings.TrimSpace(t)
			if !slices.Contains(domain.Topics, t) {
				broken = append(broken, domain.Violation{Field: "topics", Rule: domain.RuleOf(domain.RuleIn, domain.Topics...)})
				break
			}
			if !slices.Contains(f.Topics, t) {
				f.Topics = append(f.Topics, t)
			}
		}
	}
	if raw := c.Query("post"); raw != "" {
		id, err := strconv.ParseInt(raw, 10, 64)
		switch {
		case err != nil:
			broken = append(broken, domain.Violation{Field: "post", Rule: domain.RuleInteger})
		case id < 1:
			broken = append(broken, domain.Violation{Field: "post", Rule: domain.RuleN(domain.RuleMinValue, 1)})
		}
		f.PostID = id
	}
	var after int64
	if raw := c.Get("Last-Event-ID"); raw != "" {
		id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
		if err != nil || id < 0 {
			broken = append(broken, domain.Violation{Field: "Last-Event-ID", Rule: domain.RuleInteger})
		}
		after = id
	}
	if len(broken) > 0 {
		return f, 0, domain.InvalidFields(broken...)
	}
	return f, after, nil
}

// renderCache keeps the messages of recent events, so that an event that a
// thousand streams send is rendered once per way of seeing it, not once
// per stream, and each stream is handed the same bytes. It holds at most renderCacheSize entries and starts afresh
// when full: streams send the newest events, which a fresh cache soon
// holds again.
type renderCache struct {
	mu      sync.Mutex
	entries map[renderKey][]byte
}

type renderKey struct {
	id   int64
	view domain.EventView
	base string
}

const renderCacheSize = 4096

func newRenderCache() *renderCache {
	return &renderCache{entries: make(map[renderKey][]byte)}
}

// frame returns the message of ve with links l, as one chunk of a chunked
// body: its size, the message and CRLF. The slice is shared: callers only
// write it out. The base URL alone keys it, as every stream of a server
// has the same public file URLs.
func (rc *renderCache) frame(l links, ve ports.VisibleEvent) ([]byte, error) {
	key := renderKey{ve.Event.ID, ve.View, l.base}
	rc.mu.Lock()
	data, ok := rc.entries[key]
	rc.mu.Unlock()
	if ok {
		return data, nil
	}
	data, err := json.Marshal(eventOf(l, ve.Event, ve.View))
	if err != nil {
		return nil, err
	}
	data = chunk(fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", ve.Event.ID, ve.Event.Type, data))
	rc.mu.Lock()
	if len(rc.entries) >= renderCacheSize {
		clear(rc.entries)
	}
	rc.entries[key] = data
	rc.mu.Unlock()
	return data, nil
}
