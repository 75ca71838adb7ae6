package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/ports"
)

// Headers of the Idempotency-Key protocol (IETF httpapi draft).
const (
	headerIdempotencyKey = "Idempotency-Key"
	headerReplayed       = "Idempotent-Replayed"
)

// maxIdempotencyKey is the longest Idempotency-Key taken, in bytes.
const maxIdempotencyKey = 255

// keepTimeout bounds keeping or releasing a key once the request is
// answered, when the request's own deadline may have passed.
const keepTimeout = 5 * time.Second

// Refusals of the Idempotency-Key protocol. They are the HTTP layer's own,
// as a malformed body is: each area words them in its shape (area B by its
// status alone).
var (
	errIdempotencyKeyTooLong = fiber.NewError(http.StatusBadRequest, "The Idempotency-Key header must not be greater than 255 characters.")
	errIdempotencyKeyRunning = fiber.NewError(http.StatusConflict, "A request with this Idempotency-Key is still being processed.")
	errIdempotencyKeyReused  = fiber.NewError(http.StatusUnprocessableEntity, "The Idempotency-Key was used with another request.")
)

// idempotent makes a POST that carries an Idempotency-Key safe to retry, in
// both areas. The caller's first request with a key runs and its answer
// (status, body, Location) is kept; the same request again gets that answer
// once more, marked Idempotent-Replayed, without running. The same key with
// another request is refused, and so is the same request while the first
// still runs. An answer of 5xx is not kept: the key is released, so that a
// retry runs the request again, as a fault is worth retrying. The request is
// the method, the path with its query, the content type and the body.
func idempotent(keys ports.Idempotency, auth *authenticator, proxies proxies, log func(*fiber.Ctx, error), render func(*fiber.Ctx, error) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		key := c.Get(headerIdempotencyKey)
		if c.Method() != fiber.MethodPost || key == "" {
			return c.Next()
		}
		if len(key) > maxIdempotencyKey {
			return errIdempotencyKeyTooLong
		}
		caller, fingerprint := idempotencyCaller(c, auth, proxies), requestFingerprint(c)
		state, answer, err := keys.Begin(c.UserContext(), caller, key, fingerprint)
		switch {
		case err != nil:
			return err
		case state == ports.IdempotencyReplay:
			return replay(c, answer)
		case state == ports.IdempotencyRunning:
			return errIdempotencyKeyRunning
		case state == ports.IdempotencyReused:
			return errIdempotencyKeyReused
		}

		// The answer must be final before it is kept, so errors are
		// rendered here rather than by the middleware further out.
		if err := c.Next(); err != nil {
			if rerr := render(c, err); rerr != nil {
				c.Status(http.StatusInternalServerError)
			}
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(c.UserContext()), keepTimeout)
		defer cancel()
		resp := c.Response()
		if resp.StatusCode() >= http.StatusInternalServerError {
			err = keys.Abandon(ctx, caller, key, fingerprint)
		} else {
			err = keys.Finish(ctx, caller, key, fingerprint, ports.IdempotentAnswer{
				Status:      resp.StatusCode(),
				ContentType: string(resp.Header.ContentType()),
				Location:    string(resp.Header.Peek(fiber.HeaderLocation)),
				Body:        append([]byte(nil), resp.Body()...),
			})
		}
		if err != nil {
			// The answer stands; only a retry will not find it kept.
			log(c, err)
		}
		return nil
	}
}

// replay sends a kept answer again.
func replay(c *fiber.Ctx, a *ports.IdempotentAnswer) error {
	c.Set(headerReplayed, "true")
	if a.Location != "" {
		c.Set(fiber.HeaderLocation, a.Location)
	}
	if a.ContentType != "" {
		c.Response().Header.SetContentType(a.ContentType)
	}
	c.Response().SetBody(a.Body)
	c.Status(a.Status)
	return nil
}

// idempotencyCaller names whose key a request uses: its bearer token, when
// valid, by id; else its browser session, by a digest of the cookie, which
// only that browser holds; else the client address, as the rate limit
// counts it.
func idempotencyCaller(c *fiber.Ctx, auth *authenticator, proxies proxies) string {
	if token := bearer(c); token != "" {
		if actor, err := auth.bearerActor(c, token); err == nil && actor.Token != nil {
			return "token:" + strconv.FormatInt(actor.Token.ID, 10)
		}
	}
	if cookie := c.Cookies(sessionCookie); cookie != "" {
		sum := sha256.Sum256([]byte(cookie))
		return "session:" + hex.EncodeToString(sum[:])
	}
	return "ip:" + proxies.clientIP(c)
}

// requestFingerprint is the digest of what makes two requests the same.
func requestFingerprint(c *fiber.Ctx) string {
	h := sha256.New()
	h.Write([]byte(c.Method()))
	h.Write([]byte{0})
	h.Write([]byte(c.OriginalURL()))
	h.Write([]byte{0})
	h.Write(c.Request().Header.ContentType())
	h.Write([]byte{0})
	h.Write(c.Body())
	return hex.EncodeToString(h.Sum(nil))
}
