package console

import (
	"net/url"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/ports"
)

// sortOf reads the sort= of a list that takes the orders allowed: absent
// is the default (the first); an order outside allowed, or any but the
// default with a search (whose matches come newest first), is a 400 page.
// The admin use cases ask again.
func sortOf(c *fiber.Ctx, allowed []ports.AdminSort, search string) (ports.AdminSort, error) {
	s := ports.AdminSort(c.Query("sort"))
	if s == "" {
		return allowed[0], nil
	}
	if !slices.Contains(allowed, s) || (search != "" && s != allowed[0]) {
		return "", errBadQuery
	}
	return s, nil
}

// sortable is a column that sorts its list: by Asc, and by Desc when
// the column has that order too ("" when it has not).
type sortable struct {
	Asc, Desc ports.AdminSort
}

// sortColumns gives the headings of the columns of a list at path sorted
// by sort, each linking to its order while keeping the list's query (the
// page left out): the column sorted by already links to its other order,
// and says which it has. A searched list, which has one order, gets no
// links (nil).
func sortColumns(path string, query url.Values, sort ports.AdminSort, columns map[string]sortable) map[string]sortColumn {
	if query.Get("q") != "" {
		return nil
	}
	out := make(map[string]sortColumn, len(columns))
	for name, col := range columns {
		var heading sortColumn
		link := cmpOr(col.Desc, col.Asc)
		switch sort {
		case col.Asc:
			heading.Order = "ascending"
		case col.Desc:
			heading.Order = "descending"
			link = col.Asc
		}
		q := url.Values{}
		for k, v := range query {
			if k != "page" && v[0] != "" {
				q.Set(k, v[0])
			}
		}
		q.Set("sort", string(link))
		heading.Link = path + "?" + q.Encode()
		out[name] = heading
	}
	return out
}

// cmpOr is the first of a and b that is not empty.
func cmpOr(a, b ports.AdminSort) ports.AdminSort {
	if a != "" {
		return a
	}
	return b
}

// userSortColumns, postSortColumns and commentSortColumns are the
// sortable columns of the users, posts and comments pages.
var (
	userSortColumns = map[string]sortable{
		"created": {Asc: ports.AdminSortOldest, Desc: ports.AdminSortNewest},
		"email":   {Asc: ports.AdminSortEmail},
	}
	postSortColumns = map[string]sortable{
		"created": {Asc: ports.AdminSortOldest, Desc: ports.AdminSortNewest},
	}
	commentSortColumns = map[string]sortable{
		"created": {Asc: ports.AdminSortOldest, Desc: ports.AdminSortNewest},
	}
)

// sortParam is sort as the query carries it: "" for the default, which
// links leave out.
func sortParam(sort ports.AdminSort, allowed []ports.AdminSort) string {
	if sort == allowed[0] {
		return ""
	}
	return string(sort)
}

// heading is what the "sortable" template writes: a column's label,
// linked to its order when the list offers one.
type heading struct {
	Field, Label string
	Column       sortColumn
}

// sortHeading is the heading of column field of a page's columns.
func sortHeading(columns map[string]sortColumn, field, label string) heading {
	return heading{Field: field, Label: label, Column: columns[field]}
}
