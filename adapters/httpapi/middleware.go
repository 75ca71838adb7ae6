package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
)

// Keys of request-scoped values in fiber.Ctx.Locals.
const (
	localRequestID = "inkwell.request_id"
	localActor     = "inkwell.actor"
	localBearer    = "inkwell.bearer"
)

// withRequestID takes the caller's X-Request-ID when it is a sane token and
// makes one otherwise, and echoes it on the response.
func withRequestID(c *fiber.Ctx) error {
	id := c.Get(fiber.HeaderXRequestID)
	if !saneRequestID(id) {
		var b [16]byte
		_, _ = rand.Read(b[:])
		id = hex.EncodeToString(b[:])
	}
	c.Locals(localRequestID, id)
	c.Set(fiber.HeaderXRequestID, id)
	return c.Next()
}

func saneRequestID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if b := id[i]; b < 0x21 || b > 0x7e {
			return false
		}
	}
	return true
}

// requestID returns the id withRequestID gave the request.
func requestID(c *fiber.Ctx) string {
	id, _ := c.Locals(localRequestID).(string)
	return id
}

// withDeadline gives every request a context that ends after timeout, so
// that a slow store call is abandoned instead of piling up.
func withDeadline(timeout time.Duration) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		c.SetUserContext(ctx)
		return c.Next()
	}
}

// bearer returns the token of an "Authorization: Bearer …" header, or "".
func bearer(c *fiber.Ctx) string {
	h := c.Get(fiber.HeaderAuthorization)
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// requireAuth is Sanctum's "auth:sanctum": the request must present a valid
// token, or come from a stateful domain with a signed-in session; the actor
// is then available to handlers through actorOf.
func requireAuth(a *authenticator) fiber.Handler {
	return func(c *fiber.Ctx) error {
		actor, ok, err := a.actor(c)
		if err != nil {
			return err
		}
		if !ok {
			return domain.ErrUnauthenticated
		}
		c.Locals(localActor, actor)
		return c.Next()
	}
}

// actorOf returns the authenticated actor; ok is false on a public route
// called without credentials.
func actorOf(c *fiber.Ctx) (domain.Actor, bool) {
	a, ok := c.Locals(localActor).(domain.Actor)
	return a, ok
}

// gateReads refuses, before anything else runs, a caller whom
// domain.Actor.CheckPostRead refuses under the strict default
// (domain.PostReadsNeedAbility), as Sanctum's ability middleware
// ("ability:posts:read,posts:write") in front of version 2's reads does.
// The use case checks the same again.
func gateReads(c *fiber.Ctx) error {
	if err := callerOf(c).CheckPostRead(); err != nil {
		return err
	}
	return c.Next()
}

// allow refuses an actor whose abilities do not allow write w
// (domain.Actor.CheckAbility) before the route's body is read, as Sanctum's
// ability middleware does, so that such a token learns nothing from
// validation and no upload is decoded for it. The use case checks the same
// again, whichever transport calls it.
func allow(w domain.Write) fiber.Handler {
	return func(c *fiber.Ctx) error {
		a, _ := actorOf(c)
		if err := a.CheckAbility(w); err != nil {
			return err
		}
		return c.Next()
	}
}

// optionalAuth identifies the caller on a public route when valid
// credentials come with the request, and lets the request through as
// anonymous otherwise, as Laravel's $request->user('sanctum') does. Faults
// of the store, and a session's CSRF mismatch, still fail the request.
func optionalAuth(a *authenticator) fiber.Handler {
	return func(c *fiber.Ctx) error {
		actor, ok, err := a.actor(c)
		switch {
		case err == nil && ok:
			c.Locals(localActor, actor)
		case err != nil && domain.KindOf(err) != domain.Unauthenticated:
			return err
		}
		return c.Next()
	}
}

// callerOf is the caller on a route open to anyone: the actor, or the zero
// actor when anonymous.
func callerOf(c *fiber.Ctx) domain.Actor {
	a, _ := actorOf(c)
	return a
}

// openReader is the caller of version 1's reads of posts, which the
// specification opens to anyone: callerOf with domain.PostReadsOpen, which
// the use cases would otherwise refuse to nobody and to a token holding no
// read ability.
func openReader(c *fiber.Ctx) domain.Actor {
	a := callerOf(c)
	a.PostReads = domain.PostReadsOpen
	return a
}
