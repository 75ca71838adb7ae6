// Package conditional serves the conditional requests of both HTTP areas:
// strong ETags on single resources, If-None-Match on their reads and
// If-Match on their writes.
//
// A tag is "<version>-<digest>": the version is the resource's UpdatedAt in
// microseconds (base 36), which every change of the resource moves, and the
// digest a hash of the answer's body, which also changes when what the
// answer embeds does (a post's comments, an author's name). If-None-Match
// compares whole tags, so a 304 is only ever sent for the very body the
// client holds. If-Match compares versions: the write is a use case's
// precondition, checked with the row locked in the write's own transaction,
// so of two writers holding one tag exactly one wins.
package conditional

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/ports"
)

// localVersion keys the version Version records for Tag.
const localVersion = "inkwell.conditional.version"

// Version records that the answer being built represents one resource at
// version v, so that Tag tags it.
func Version(c *fiber.Ctx, v time.Time) {
	c.Locals(localVersion, v)
}

// Tag runs the route and then gives its 200 answer, when the route called
// Version, a strong ETag. A GET or HEAD whose If-None-Match names that tag
// (or is "*") is answered 304 with the tag and no body.
func Tag(c *fiber.Ctx) error {
	if err := c.Next(); err != nil {
		return err
	}
	v, ok := c.Locals(localVersion).(time.Time)
	if !ok || c.Response().StatusCode() != http.StatusOK {
		return nil
	}
	tag := entityTag(v, c.Response().Body())
	c.Set(fiber.HeaderETag, tag)
	if m := c.Method(); (m == fiber.MethodGet || m == fiber.MethodHead) && NoneMatch(c.Get(fiber.HeaderIfNoneMatch), tag) {
		c.Response().ResetBody()
		c.Response().Header.Del(fiber.HeaderContentType)
		c.Status(http.StatusNotModified)
	}
	return nil
}

// IfMatch reads the request's If-Match as a use case's precondition: no
// header, or "*", expects nothing beyond the resource itself; otherwise the
// resource must still be at the version of one of the listed strong tags.
// A list without any tag this server made expects a version nothing has,
// so the write is refused.
func IfMatch(c *fiber.Ctx) ports.Precondition {
	h := strings.TrimSpace(c.Get(fiber.HeaderIfMatch))
	if h == "" || h == "*" {
		return ports.Precondition{}
	}
	var versions []time.Time
	for _, tag := range strings.Split(h, ",") {
		if v, ok := versionOf(strings.TrimSpace(tag)); ok {
			versions = append(versions, v)
		}
	}
	return ports.IfVersion(versions...)
}

// entityTag is the strong tag of body at version v.
func entityTag(v time.Time, body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + strconv.FormatInt(v.UnixMicro(), 36) + "-" + hex.EncodeToString(sum[:12]) + `"`
}

// versionOf reads the version of a strong tag entityTag made. A weak tag
// never matches an If-Match, whose comparison is strong.
func versionOf(tag string) (time.Time, bool) {
	opaque, ok := strings.CutPrefix(tag, `"`)
	if !ok {
		return time.Time{}, false
	}
	opaque, ok = strings.CutSuffix(opaque, `"`)
	if !ok {
		return time.Time{}, false
	}
	version, _, ok := strings.Cut(opaque, "-")
	if !ok {
		return time.Time{}, false
	}
	micros, err := strconv.ParseInt(version, 36, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.UnixMicro(micros).UTC(), true
}

// NoneMatch reports whether an If-None-Match header names tag, comparing
// weakly as RFC 9110 asks: W/"x" names "x" too. Every route that answers
// 304 asks it, resources and files alike.
func NoneMatch(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == tag {
			return true
		}
	}
	return false
}
