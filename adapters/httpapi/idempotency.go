package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/web"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Headers of the Idempotency-Key protocol (IETF httpapi draft).
const (
	headerIdempotencyKey = "Idempotency-Key"
	headerReplayed       = "Idempotent-Replayed"
)

// keepTimeout bounds keeping or releasing a key once the request is
// answered, when the request's own deadline may have passed.
const keepTimeout = 5 * time.Second

// Refusals of the Idempotency-Key protocol. They are the HTTP layer's own,
// as a malformed body is: each area words them in its shape (area B by its
// status alone).
var (
	errIdempotencyKeyTooLong   = fiber.NewError(http.StatusBadRequest, "The Idempotency-Key header must not be greater than 255 characters.")
	errIdempotencyKeyMalformed = fiber.NewError(http.StatusBadRequest, "The Idempotency-Key header must only contain visible ASCII characters.")
	errIdempotencyKeyRunning   = fiber.NewError(http.StatusConflict, "A request with this Idempotency-Key is still being processed.")
	errIdempotencyKeyReused    = fiber.NewError(http.StatusUnprocessableEntity, "The Idempotency-Key was used with another request.")
)

// idempotent makes a POST that carries an Idempotency-Key safe to retry, in
// both areas. It wraps the route's own handler (see atRoutes), so that a
// request refused before that handler ran, by the rate limit, the
// authentication or the CSRF check, neither claims nor keeps its key. The
// caller's first request with a key runs and its answer (status, body,
// Location) is kept; the same request again gets that answer once more,
// marked Idempotent-Replayed, without running. The same key with another
// request is refused, and so is the same request while the first still
// runs. The use case keeps no answer that asks the client to act before it
// retries (401, 419, 429) nor a fault (5xx); an answer that sets a cookie
// is not kept either, as a replay cannot set it again: the session it
// named may be gone (a session login's is replaced by the one it set). The
// request is the method, the path with its query, the content type and the
// body (see requestFingerprint).
func idempotent(keys ports.Idempotency, auth *authenticator, proxies web.Proxies, log func(*fiber.Ctx, error), render func(*fiber.Ctx, error) error, next fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) error {
		key := c.Get(headerIdempotencyKey)
		if c.Method() != fiber.MethodPost || key == "" {
			return next(c)
		}
		// The use case checks the key too; checked here, the refusal
		// words the header.
		if err := domain.CheckIdempotencyKey(key); errors.Is(err, domain.ErrIdempotencyKeyTooLong) {
			return errIdempotencyKeyTooLong
		} else if err != nil {
			return errIdempotencyKeyMalformed
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
		if err := next(c); err != nil {
			if rerr := render(c, err); rerr != nil {
				c.Status(http.StatusInternalServerError)
			}
		}
		ctx, cancel := context.WithTimeout(context.WithoutCancel(c.UserContext()), keepTimeout)
		defer cancel()
		resp := c.Response()
		if setsCookie(c) {
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

// setsCookie reports whether an answer sets a cookie.
func setsCookie(c *fiber.Ctx) bool {
	found := false
	c.Response().Header.VisitAllCookie(func(_, _ []byte) { found = true })
	return found
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
func idempotencyCaller(c *fiber.Ctx, auth *authenticator, proxies web.Proxies) string {
	if token := bearer(c); token != "" {
		if actor, err := auth.bearerActor(c, token); err == nil && actor.Token != nil {
			return "token:" + strconv.FormatInt(actor.Token.ID, 10)
		}
	}
	if cookie := c.Cookies(sessionCookie); cookie != "" {
		sum := sha256.Sum256([]byte(cookie))
		return "session:" + hex.EncodeToString(sum[:])
	}
	return "ip:" + proxies.ClientIP(c)
}

// requestFingerprint is the digest of what makes two requests the same: the
// method, the path with its query, the content type and the body. A
// multipart form is compared by what it carries (see formFingerprint), as
// each resend of one has a new boundary.
func requestFingerprint(c *fiber.Ctx) string {
	h := sha256.New()
	h.Write([]byte(c.Method()))
	h.Write([]byte{0})
	h.Write([]byte(c.OriginalURL()))
	h.Write([]byte{0})
	if isMultipart(c.Get(fiber.HeaderContentType)) {
		if sum, ok := formFingerprint(c); ok {
			h.Write([]byte(fiber.MIMEMultipartForm))
			h.Write([]byte{0})
			h.Write(sum)
			return hex.EncodeToString(h.Sum(nil))
		}
	}
	h.Write(c.Request().Header.ContentType())
	h.Write([]byte{0})
	h.Write(c.Body())
	return hex.EncodeToString(h.Sum(nil))
}

// formFingerprint is the digest of a multipart form as its handler sees it
// (see formBody): each field's name and values, and each file's field name,
// file name, content type and the SHA-256 of its content, fields and files
// in the order of their names and values in the order they were sent. The
// boundary and the parts' order across names, which the handlers ignore,
// are left out. It is false when the body is no valid form: the raw bytes
// then stand for it, and the handler refuses it.
//
// The form parsed here is the one the handler reads: fasthttp keeps it.
func formFingerprint(c *fiber.Ctx) ([]byte, bool) {
	form, err := c.MultipartForm()
	if err != nil {
		return nil, false
	}
	h := sha256.New()
	// Every item is length-prefixed, so that no two forms write the same
	// stream.
	item := func(b []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	for _, name := range slices.Sorted(maps.Keys(form.Value)) {
		values := form.Value[name]
		item([]byte("field"))
		item([]byte(name))
		item([]byte(strconv.Itoa(len(values))))
		for _, v := range values {
			item([]byte(v))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(form.File)) {
		files := form.File[name]
		item([]byte("file"))
		item([]byte(name))
		item([]byte(strconv.Itoa(len(files))))
		for _, f := range files {
			sum, err := fileDigest(f)
			if err != nil {
				return nil, false
			}
			item([]byte(f.Filename))
			item([]byte(f.Header.Get(fiber.HeaderContentType)))
			item(sum)
		}
	}
	return h.Sum(nil), true
}

// fileDigest is the SHA-256 of an uploaded file's content.
func fileDigest(f *multipart.FileHeader) ([]byte, error) {
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}
