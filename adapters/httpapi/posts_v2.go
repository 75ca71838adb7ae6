package httpapi

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/ports"
)

// apiV2 is the path prefix of version 2, which its links point into.
const apiV2 = "/api/v2"

// Cursors name times between the years 1 and 9999: every store keeps that
// range, and a cursor outside it was not made by this service.
var (
	minCursorMicros = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	maxCursorMicros = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro() - 1
)

// encodeCursor makes the opaque cursor of a position: base64url, without
// padding, of "created_at_micros:id".
func encodeCursor(p ports.PostCursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(p.CreatedAt, 10) + ":" + strconv.FormatInt(p.ID, 10)))
}

// decodeCursor reads a cursor made by encodeCursor. It accepts only the
// exact text encodeCursor makes, so that one position has one cursor.
func decodeCursor(s string) (*ports.PostCursor, bool) {
	raw, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil, false
	}
	atText, idText, ok := strings.Cut(string(raw), ":")
	if !ok {
		return nil, false
	}
	at, err1 := strconv.ParseInt(atText, 10, 64)
	id, err2 := strconv.ParseInt(idText, 10, 64)
	if err1 != nil || err2 != nil || id <= 0 || at < minCursorMicros || at > maxCursorMicros {
		return nil, false
	}
	p := ports.PostCursor{CreatedAt: at, ID: id}
	if encodeCursor(p) != s {
		return nil, false
	}
	return &p, true
}

// cursorQuery is a validated query of the version 2 post list.
type cursorQuery struct {
	filter ports.PostFilter
	cursor *ports.PostCursor
	limit  int
}

// postListQuery validates the query of GET /api/v2/posts: version 1's
// search and status, and tag (a tag slug), author (a user id), limit (as
// per_page: an integer of at least 1, capped at 100) and cursor. Empty
// parameters count as absent; every failure is reported at once.
func postListQuery(c *fiber.Ctx) (cursorQuery, error) {
	f, filterErr := postFilter(c)
	query := map[string]any{}
	for _, k := range []string{"cursor", "limit", "tag", "author"} {
		if v := c.Query(k); v != "" {
			query[k] = v
		}
	}
	v := validate.New(query)
	q := cursorQuery{filter: f, limit: defaultPerPage}
	q.filter.TagSlug = v.String("tag")
	if author := v.Int("author", validate.Min(1)); author != nil {
		q.filter.AuthorID = *author
	}
	if n := v.Int("limit", validate.Min(1)); n != nil {
		q.limit = int(min(*n, maxPerPage))
	}
	if raw := v.String("cursor"); raw != "" {
		var ok bool
		if q.cursor, ok = decodeCursor(raw); !ok {
			v.Invalid("cursor")
		}
	}
	return q, joinInvalid(filterErr, v.Err())
}

// cursorPage is the version 2 list: the items, the cursor of the next page
// and a link to it, both null on the last page.
type cursorPage struct {
	Data  []postJSON  `json:"data"`
	Meta  cursorMeta  `json:"meta"`
	Links cursorLinks `json:"links"`
}

type cursorMeta struct {
	APIVersion string  `json:"api_version"`
	NextCursor *string `json:"next_cursor"`
	Limit      int     `json:"limit"`
}

type cursorLinks struct {
	Next *string `json:"next"`
}

// presentCursorPage renders one page of posts. The next link keeps the
// request's other query parameters, so that following it keeps the filters.
func (s *Server) presentCursorPage(c *fiber.Ctx, views []ports.PostView, next *ports.PostCursor, limit int) cursorPage {
	out := cursorPage{
		Data: make([]postJSON, len(views)),
		Meta: cursorMeta{APIVersion: "v2", Limit: limit},
	}
	for i, v := range views {
		out.Data[i] = s.presentPost(c, apiV2, v, postInList)
	}
	if next != nil {
		cursor := encodeCursor(*next)
		query := url.Values{}
		for k, v := range c.Queries() {
			query.Set(k, v)
		}
		query.Set("cursor", cursor)
		link := s.baseURL(c) + c.Path() + "?" + query.Encode()
		out.Meta.NextCursor, out.Links.Next = &cursor, &link
	}
	return out
}

// postPatchV2 validates an update of version 2: version 1's fields, and
// tags, which when present replaces the post's tags; null, an empty list
// or an empty form value clears them.
func postPatchV2(c *fiber.Ctx) (ports.PostPatch, error) {
	body, err := formBody(c)
	if err != nil {
		return ports.PostPatch{}, err
	}
	p, patchErr := postPatch(body)
	v := validate.New(body)
	if v.Has("tags") {
		ids := v.Ints("tags", validate.Nullable, validate.MaxItems(maxPostTags))
		if ids == nil {
			ids = []int64{}
		}
		p.TagIDs = ports.Some(ids)
	}
	return p, joinInvalid(patchErr, v.Err())
}

func (s *Server) listPostsV2(c *fiber.Ctx) error {
	q, err := postListQuery(c)
	if err != nil {
		return err
	}
	views, next, err := s.posts.ListAfter(c.UserContext(), callerOf(c), q.filter, q.cursor, q.limit)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusOK, s.presentCursorPage(c, views, next, q.limit))
}

func (s *Server) createPostV2(c *fiber.Ctx) error {
	in, err := postInput(c)
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	view, err := s.posts.Create(c.UserContext(), actor, in)
	if err != nil {
		return err
	}
	return sendJSON(c, http.StatusCreated, fiber.Map{"data": s.presentPost(c, apiV2, view, postSingle)})
}

func (s *Server) showPostV2(c *fiber.Ctx) error {
	id, err := pathID(c, "post")
	if err != nil {
		return err
	}
	view, err := s.posts.Show(c.UserContext(), callerOf(c), id, false)
	if err != nil {
		return err
	}
	return s.sendPost(c, apiV2, view, postSingle)
}

func (s *Server) updatePostV2(c *fiber.Ctx) error {
	return s.updatePostAs(c, apiV2, postPatchV2)
}

// deletePostV2 moves the post to the trash, or purges it with force=true.
func (s *Server) deletePostV2(c *fiber.Ctx) error {
	if err := s.removePost(c); err != nil {
		return err
	}
	return c.Status(http.StatusNoContent).Send(nil)
}
