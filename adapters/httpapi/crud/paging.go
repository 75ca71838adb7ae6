package crud

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/ports"
)

// Paging limits. v1 lists follow the Express convention of page and limit;
// the v2 users list uses page and per_page, as its meta names them. maxPage
// keeps the offset of any page far from overflowing.
const (
	maxPage        = 1_000_000_000
	defaultLimit   = 100
	maxLimit       = 1000
	defaultPerPage = 15
	maxPerPage     = 100
)

// meta is the paging block the v2 users list carries beside data.
type meta struct {
	Page     int `json:"page"`
	PerPage  int `json:"per_page"`
	Total    int `json:"total"`
	LastPage int `json:"last_page"`
}

// metaOf describes the page of a list of total records.
func metaOf(p ports.Page, total int) *meta {
	return &meta{Page: p.Offset/p.Limit + 1, PerPage: p.Limit, Total: total, LastPage: lastPage(total, p.Limit)}
}

// positive reads a query parameter that must be a positive integer. A missing
// or malformed value falls back to def and a value above max is capped, so a
// sloppy link still lists something.
func positive(c *fiber.Ctx, key string, def, max int) int {
	n, err := strconv.Atoi(c.Query(key))
	switch {
	case err != nil || n < 1:
		return def
	case n > max:
		return max
	}
	return n
}

// pageOf turns a page number and size into the store's window.
func pageOf(page, size int) ports.Page {
	return ports.Page{Offset: (page - 1) * size, Limit: size}
}

// lastPage is the number of the last page, 1 for an empty list.
func lastPage(total, size int) int {
	return max(1, (total+size-1)/size)
}

// setPagingHeaders writes v1's X-Total-Count and a Link header with the
// first, prev, next and last pages (prev and next only where they exist).
func setPagingHeaders(c *fiber.Ctx, base string, page, limit, total int) {
	last := lastPage(total, limit)
	link := func(p int, rel string) string {
		q := url.Values{"page": {strconv.Itoa(p)}, "limit": {strconv.Itoa(limit)}}
		return fmt.Sprintf("<%s%s?%s>; rel=%q", base, c.Path(), q.Encode(), rel)
	}
	links := []string{link(1, "first")}
	if page > 1 {
		links = append(links, link(min(page-1, last), "prev"))
	}
	if page < last {
		links = append(links, link(page+1, "next"))
	}
	links = append(links, link(last, "last"))
	c.Set("X-Total-Count", strconv.Itoa(total))
	c.Set(fiber.HeaderLink, strings.Join(links, ", "))
}
