package console

import (
	"html"
	"html/template"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// perPage is how many rows a list page shows.
const perPage = 50

// maxPage bounds the page number a query may ask for, so that the offset
// stays far from overflowing.
const maxPage = 1_000_000

// maxQueryParams bounds how many parameters a console query carries; no
// page reads more than four.
const maxQueryParams = 16

// errBadQuery refuses a query string the console cannot read.
var errBadQuery = fiber.NewError(fiber.StatusBadRequest, "bad query")

// checkQuery refuses with the 400 page, before any handler runs and so
// before any store is asked, a query string with too many parameters or
// a parameter whose name or value breaks domain.CheckSearch (a NUL or
// other control character, bytes that are not UTF-8, more than 255
// characters): the core's rule for what a list's query may carry, which
// the API's searches and the admin use cases ask too. Every parameter of
// every console page passes it (q, status, page, post, user), and each
// page then reads its own.
func (k *Console) checkQuery(c *fiber.Ctx) error {
	args := c.Context().QueryArgs()
	bad := args.Len() > maxQueryParams
	args.VisitAll(func(key, value []byte) {
		bad = bad || domain.CheckSearch(string(key)) != nil || domain.CheckSearch(string(value)) != nil
	})
	if bad {
		return errBadQuery
	}
	return c.Next()
}

// pageOf reads the page query parameter: 1 when absent.
func pageOf(c *fiber.Ctx) (int, ports.Page, error) {
	raw := c.Query("page")
	if raw == "" {
		return 1, ports.Page{Limit: perPage}, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > maxPage {
		return 0, ports.Page{}, errBadQuery
	}
	return n, ports.Page{Offset: (n - 1) * perPage, Limit: perPage}, nil
}

// searchOf reads the q query parameter, which checkQuery let through;
// the admin use cases ask domain.CheckSearch again.
func searchOf(c *fiber.Ctx) (string, error) {
	q := strings.TrimSpace(c.Query("q"))
	if domain.CheckSearch(q) != nil {
		return "", errBadQuery
	}
	return q, nil
}

// searchPageOf reads the page and q query parameters of a list that
// can be searched, as pageOf and searchOf do.
func searchPageOf(c *fiber.Ctx) (int, ports.Page, string, error) {
	n, pg, err := pageOf(c)
	if err != nil {
		return 0, ports.Page{}, "", err
	}
	q, err := searchOf(c)
	return n, pg, q, err
}

// idOf reads the :id of the route; one that names no record is a 404.
func idOf(c *fiber.Ctx) (int64, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, fiber.ErrNotFound
	}
	return id, nil
}

// editOf reads what an edit form names: the record, by the route's :id,
// and the version of it the form was filled in from (versionOf).
func editOf(c *fiber.Ctx) (int64, ports.Precondition, error) {
	id, err := idOf(c)
	if err != nil {
		return 0, ports.Precondition{}, err
	}
	pre, err := versionOf(c)
	return id, pre, err
}

// pager is what a list page shows under its rows: where the neighbouring
// pages are, keeping the other query parameters. More says that Total is
// only a lower bound, as the use case counted (ports.Counted.AtLeast): the
// page then says "more than" Total.
type pager struct {
	Page, Total, Pages int
	More               bool
	Prev, Next         string
}

// newPager is the pager of page of a list of total rows, more than total
// when atLeast: then the page after the last counted row still has its
// Next link.
func newPager(path string, query url.Values, page, total int, atLeast bool) pager {
	p := pager{Page: page, Total: total, More: atLeast}
	counted := total
	if atLeast {
		counted++
	}
	p.Pages = max((counted+perPage-1)/perPage, 1)
	link := func(n int) string {
		q := url.Values{}
		for k, v := range query {
			if v[0] != "" {
				q.Set(k, v[0])
			}
		}
		q.Set("page", strconv.Itoa(n))
		return path + "?" + q.Encode()
	}
	if page > 1 {
		p.Prev = link(page - 1)
	}
	if page < p.Pages {
		p.Next = link(page + 1)
	}
	return p
}

// countedPager is the pager of page of list, as its use case counted it.
func countedPager[T any](path string, query url.Values, page int, list ports.Counted[T]) pager {
	return newPager(path, query, page, list.Total, list.AtLeast)
}

func (k *Console) overview(c *fiber.Ctx) error {
	o, err := k.admin.Overview(c.UserContext(), caller(c))
	if err != nil {
		return err
	}
	return k.show(c, "overview", "Overview", o)
}

func (k *Console) users(c *fiber.Ctx) error {
	n, pg, q, err := searchPageOf(c)
	if err != nil {
		return err
	}
	sort, err := sortOf(c, ports.AdminUserSorts, q)
	if err != nil {
		return err
	}
	users, err := k.admin.Users(c.UserContext(), caller(c), ports.AdminUserQuery{Search: q, Sort: sort, Page: pg})
	if err != nil {
		return err
	}
	query := url.Values{"q": {q}, "sort": {sortParam(sort, ports.AdminUserSorts)}}
	return k.show(c, "users", "Users", struct {
		Q       string
		Users   []domain.User
		Columns map[string]sortColumn
		Pager   pager
	}{q, users.Rows, sortColumns(prefix+"/users", query, sort, userSortColumns), countedPager(prefix+"/users", query, n, users)})
}

func (k *Console) user(c *fiber.Ctx) error {
	id, err := idOf(c)
	if err != nil {
		return err
	}
	acc, err := k.admin.User(c.UserContext(), caller(c), id)
	if err != nil {
		return err
	}
	return k.show(c, "user", acc.User.Name, acc)
}

func (k *Console) posts(c *fiber.Ctx) error {
	n, pg, q, err := searchPageOf(c)
	if err != nil {
		return err
	}
	status := domain.PostStatus(c.Query("status"))
	switch status {
	case "", domain.StatusDraft, domain.StatusPublished:
	default:
		return errBadQuery
	}
	sort, err := sortOf(c, ports.AdminPostSorts, q)
	if err != nil {
		return err
	}
	posts, err := k.admin.Posts(c.UserContext(), caller(c), ports.AdminPostQuery{Search: q, Status: status, Sort: sort, Page: pg})
	if err != nil {
		return err
	}
	query := url.Values{"q": {q}, "status": {string(status)}, "sort": {sortParam(sort, ports.AdminPostSorts)}}
	list := postsPage(q, status, posts.Rows, csrfToken(c), countedPager(prefix+"/posts", query, n, posts))
	list.Columns = sortColumns(prefix+"/posts", query, sort, postSortColumns)
	return k.show(c, "posts", "Posts", list)
}

// postsList is the data of posts.html: the page's posts as Rows, written
// by postRows, empty when no post matches.
type postsList struct {
	Q      string
	Status domain.PostStatus
	Rows   template.HTML
	Pager  pager
	// Columns are the sortable headings by name.
	Columns map[string]sortColumn
}

func postsPage(q string, status domain.PostStatus, posts []ports.PostView, csrf string, p pager) postsList {
	return postsList{Q: q, Status: status, Rows: postRows(posts, csrf), Pager: p}
}

// postRows writes the table rows of posts.html, fifty to a page and
// thirteen values each. html/template calls the escapers of every action
// through reflection: its range over the rows took 1.3-1.6 ms a page
// (BenchmarkRenderPosts), the most of any part of a request for
// /admin/posts at a million posts, and 35% of the machine under 10
// admins. Here every value that is not an integer goes through
// escapeText: html.EscapeString, which escapes all five of & < > " ', and
// so is right both in text and in a double-quoted attribute, the only two
// places values go, with NUL made U+FFFD as html/template does; the ids
// are integers.
func postRows(posts []ports.PostView, csrf string) template.HTML {
	var b strings.Builder
	b.Grow(700 * len(posts))
	w := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	token := escapeText(csrf)
	for _, v := range posts {
		id := strconv.FormatInt(v.Post.ID(), 10)
		w(`<tr id="post-`, id, `"><td>`, id, `</td><td><a href="/admin/posts/`, id, `" class="post"><bdi>`, escapeText(v.Post.Title()),
			`</bdi></a></td><td><a href="/admin/users/`, strconv.FormatInt(v.Author.ID, 10), `"><bdi>`, escapeText(v.Author.Name),
			`</bdi></a></td><td>`, escapeText(string(v.Post.Status())), `</td><td>`, when(v.Post.CreatedAt()),
			`</td><td><a href="/admin/comments?post=`, id, `" class="comments">Comments</a></td>`, "\n<td>")
		if v.Post.IsPublished() {
			w(`<form method="post" action="/admin/posts/`, id, `/unpublish" class="inline"><input type="hidden" name="_token" value="`,
				token, `"><input type="hidden" name="version" value="`, formatVersion(v.Post.UpdatedAt()),
				`"><button type="submit" class="secondary">Unpublish</button></form>`)
		}
		w("\n", `<form method="post" action="/admin/posts/`, id, `/delete" class="inline" hx-confirm="Delete this post and its comments?">`,
			`<input type="hidden" name="_token" value="`, token, `"><button type="submit" class="contrast">Delete</button></form></td></tr>`, "\n")
	}
	// Every value in it was escaped above.
	return template.HTML(b.String())
}

// escapeText escapes s for HTML text or a double-quoted attribute value.
func escapeText(s string) string {
	return html.EscapeString(strings.ReplaceAll(s, "\x00", "\uFFFD"))
}

func (k *Console) webhooks(c *fiber.Ctx) error {
	n, pg, err := pageOf(c)
	if err != nil {
		return err
	}
	hooks, total, err := k.admin.Webhooks(c.UserContext(), caller(c), pg)
	if err != nil {
		return err
	}
	return k.show(c, "webhooks", "Webhooks", struct {
		Webhooks []ports.AdminWebhook
		Pager    pager
	}{hooks, newPager(prefix+"/webhooks", nil, n, total, false)})
}

func (k *Console) mails(c *fiber.Ctx) error {
	n, pg, err := pageOf(c)
	if err != nil {
		return err
	}
	mails, total, err := k.admin.Mails(c.UserContext(), caller(c), ports.AdminMailQuery{Page: pg})
	if err != nil {
		return err
	}
	return k.show(c, "mails", "Mails", struct {
		Mails []domain.Mail
		Pager pager
	}{mails, newPager(prefix+"/mails", nil, n, total, false)})
}

func (k *Console) audit(c *fiber.Ctx) error {
	n, pg, err := pageOf(c)
	if err != nil {
		return err
	}
	entries, err := k.admin.Audit(c.UserContext(), caller(c), pg)
	if err != nil {
		return err
	}
	return k.show(c, "audit", "Audit log", struct {
		Entries []domain.AuditEntry
		Pager   pager
	}{entries.Rows, countedPager(prefix+"/audit", nil, n, entries)})
}
