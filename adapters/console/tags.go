package console

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/ports"
)

// tagSorts are the sort= values of the tags page: a column of
// ports.TagFields, descending with a leading "-". Absent is "name".
var tagSorts = map[string]ports.SortKey{
	"name":        {Field: "name"},
	"-name":       {Field: "name", Desc: true},
	"posts":       {Field: "posts"},
	"-posts":      {Field: "posts", Desc: true},
	"created_at":  {Field: "created_at"},
	"-created_at": {Field: "created_at", Desc: true},
}

// sortColumn is a sortable column's heading: the link that sorts by it,
// ascending, or descending when the page is sorted ascending by it
// already, and the order the page has by it ("ascending", "descending" or
// "" when sorted by another column), which aria-sort tells.
type sortColumn struct {
	Link, Order string
}

// tagsList is the tags page's data.
type tagsList struct {
	Q, Sort string
	Tags    []ports.TagCount
	// Columns are the sortable headings by field.
	Columns map[string]sortColumn
	// Back is this very page, where each row's forms come back to.
	Back  string
	Pager pager
}

// tags lists the tags with how many posts carry each, searched by name
// (q=), sorted by a column (sort=) and paged; each row renames, merges or
// deletes its tag and comes back here.
func (k *Console) tags(c *fiber.Ctx) error {
	n, pg, q, err := searchPageOf(c)
	if err != nil {
		return err
	}
	sort := c.Query("sort")
	key, ok := tagSorts[sort]
	if sort != "" && !ok {
		return errBadQuery
	}
	tags, total, err := k.owners.tags.Counted(c.UserContext(), caller(c), ports.TagQuery{Search: q, Sort: key, Page: pg})
	if err != nil {
		return err
	}
	path := prefix + "/tags"
	query := url.Values{}
	if q != "" {
		query.Set("q", q)
	}
	if sort != "" {
		query.Set("sort", sort)
	}
	back := path
	if n > 1 {
		query.Set("page", strconv.Itoa(n))
	}
	if len(query) > 0 {
		back += "?" + query.Encode()
	}
	query.Del("page")
	columns := map[string]sortColumn{}
	current := strings.TrimPrefix(sort, "-")
	if current == "" {
		current = "name"
	}
	for _, field := range ports.TagFields {
		col, link := sortColumn{}, field
		if field == current {
			col.Order = "ascending"
			if strings.HasPrefix(sort, "-") {
				col.Order = "descending"
			} else {
				link = "-" + field
			}
		}
		lq := url.Values{"sort": {link}}
		if q != "" {
			lq.Set("q", q)
		}
		col.Link = path + "?" + lq.Encode()
		columns[field] = col
	}
	return k.show(c, "tags", "Tags", tagsList{
		Q: q, Sort: sort, Tags: tags, Columns: columns, Back: back,
		Pager: newPager(path, query, n, total, false),
	})
}

func (k *Console) renameTag(c *fiber.Ctx) error {
	return k.action(c, "tag.rename", prefix+"/tags", func(ac ports.AdminCaller, id int64) error {
		_, err := k.owners.tags.Rename(c.UserContext(), ac, id, strings.TrimSpace(formValue(c, "name")))
		return err
	})
}

func (k *Console) mergeTag(c *fiber.Ctx) error {
	return k.action(c, "tag.merge", prefix+"/tags", func(ac ports.AdminCaller, id int64) error {
		_, err := k.owners.tags.Merge(c.UserContext(), ac, id, strings.TrimSpace(formValue(c, "into")))
		return err
	})
}

func (k *Console) deleteTag(c *fiber.Ctx) error {
	return k.action(c, "tag.delete", prefix+"/tags", func(ac ports.AdminCaller, id int64) error {
		return k.owners.tags.Delete(c.UserContext(), ac, id)
	})
}
