package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Page sizes of offset-paged lists.
const (
	defaultPerPage = 15
	maxPerPage     = 100
)

// pageParams reads page (1 when absent or not a positive integer, as
// Laravel does) and per_page (default 15; above 100 is capped at 100;
// anything but an integer ≥ 1 is a validation error on per_page).
func pageParams(c *fiber.Ctx) (page, perPage int, err error) {
	query := map[string]any{}
	if v := c.Query("per_page"); v != "" {
		query["per_page"] = v
	}
	v := validate.New(query)
	n := v.Int("per_page", validate.Min(1))
	if err := v.Err(); err != nil {
		return 0, 0, err
	}
	perPage = defaultPerPage
	if n != nil {
		perPage = int(min(*n, maxPerPage))
	}
	page, convErr := strconv.Atoi(c.Query("page"))
	if convErr != nil || page < 1 {
		page = 1
	}
	return page, perPage, nil
}

// offsetPage turns page and perPage into a store page. Pages far beyond any
// data are clamped so that the offset can't overflow.
func offsetPage(page, perPage int) ports.Page {
	const maxOffset = 1 << 40
	return ports.Page{Offset: min((page-1)*perPage, maxOffset), Limit: perPage}
}

// pageLink is one entry of Laravel's meta.links.
type pageLink struct {
	URL    *string `json:"url"`
	Label  string  `json:"label"`
	Active bool    `json:"active"`
}

// paginated is Laravel's paginated resource collection: the items, links to
// the first, last, previous and next pages, and meta. Links keep the other
// query parameters of the request.
type paginated struct {
	Data  any            `json:"data"`
	Links paginatedLinks `json:"links"`
	Meta  paginatedMeta  `json:"meta"`
}

type paginatedLinks struct {
	First string  `json:"first"`
	Last  string  `json:"last"`
	Prev  *string `json:"prev"`
	Next  *string `json:"next"`
}

type paginatedMeta struct {
	CurrentPage int        `json:"current_page"`
	From        *int       `json:"from"`
	LastPage    int        `json:"last_page"`
	Links       []pageLink `json:"links"`
	Path        string     `json:"path"`
	PerPage     int        `json:"per_page"`
	To          *int       `json:"to"`
	Total       int        `json:"total"`
	APIVersion  string     `json:"api_version,omitempty"`
}

// paginate renders count items of page (of perPage each, total in all).
func (s *Server) paginate(c *fiber.Ctx, data any, count, total, page, perPage int, apiVersion string) paginated {
	lastPage := max((total+perPage-1)/perPage, 1)
	path := s.baseURL(c) + c.Path()
	query := url.Values{}
	for k, v := range c.Queries() {
		if k != "page" {
			query.Set(k, v)
		}
	}
	pageURL := func(n int) string {
		query.Set("page", strconv.Itoa(n))
		return path + "?" + query.Encode()
	}
	ptr := func(n int) *string {
		u := pageURL(n)
		return &u
	}
	out := paginated{
		Data:  data,
		Links: paginatedLinks{First: pageURL(1), Last: pageURL(lastPage)},
		Meta: paginatedMeta{
			CurrentPage: page, LastPage: lastPage, Path: path, PerPage: perPage, Total: total, APIVersion: apiVersion,
		},
	}
	if page > 1 {
		out.Links.Prev = ptr(min(page-1, lastPage))
	}
	if page < lastPage {
		out.Links.Next = ptr(page + 1)
	}
	if count > 0 {
		from, to := (page-1)*perPage+1, (page-1)*perPage+count
		out.Meta.From, out.Meta.To = &from, &to
	}

	out.Meta.Links = append(out.Meta.Links, pageLink{URL: out.Links.Prev, Label: "&laquo; Previous"})
	for _, n := range pageWindow(page, lastPage) {
		if n == 0 {
			out.Meta.Links = append(out.Meta.Links, pageLink{Label: "..."})
			continue
		}
		out.Meta.Links = append(out.Meta.Links, pageLink{URL: ptr(n), Label: strconv.Itoa(n), Active: n == page})
	}
	out.Meta.Links = append(out.Meta.Links, pageLink{URL: out.Links.Next, Label: "Next &raquo;"})
	return out
}

// sendPageUnder answers the page that page and per_page ask of the
// caller's records below the one the path parameter param names (a post's
// comments, a webhook's deliveries): list reads them, present shows each,
// and apiVersion goes in the meta as paginate writes it.
func sendPageUnder[V, J any](s *Server, c *fiber.Ctx, param, apiVersion string,
	list func(context.Context, domain.Actor, int64, ports.Page) ([]V, int, error), present func(V) J,
) error {
	parent, err := pathID(c, param)
	if err != nil {
		return err
	}
	page, perPage, err := pageParams(c)
	if err != nil {
		return err
	}
	actor, _ := actorOf(c)
	rows, total, err := list(c.UserContext(), actor, parent, offsetPage(page, perPage))
	if err != nil {
		return err
	}
	data := make([]J, len(rows))
	for i, r := range rows {
		data[i] = present(r)
	}
	return sendJSON(c, http.StatusOK, s.paginate(c, data, len(data), total, page, perPage, apiVersion))
}

// pageWindow lists the page numbers Laravel's paginator shows (its
// UrlWindow with three pages on each side), 0 standing for "...".
func pageWindow(current, last int) []int {
	const onEachSide = 3
	span := func(from, to int) []int {
		var out []int
		for n := from; n <= to; n++ {
			out = append(out, n)
		}
		return out
	}
	if last < onEachSide*2+8 {
		return span(1, last)
	}
	window := onEachSide + 4
	switch {
	case current <= window:
		return append(append(span(1, window+onEachSide), 0), span(last-1, last)...)
	case current > last-window:
		return append(append(span(1, 2), 0), span(last-(window+onEachSide-1), last)...)
	default:
		out := append(span(1, 2), 0)
		out = append(out, span(current-onEachSide, current+onEachSide)...)
		return append(append(out, 0), span(last-1, last)...)
	}
}
