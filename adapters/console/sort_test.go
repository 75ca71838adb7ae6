package console_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// column is the text of the col-th cell (from 0) of each row of table.
func column(a answer, table string, col int) []string {
	var out []string
	a.doc.Find(table + " tbody tr").Each(func(_ int, s *goquery.Selection) {
		out = append(out, strings.TrimSpace(s.Find("td").Eq(col).Text()))
	})
	return out
}

// The users and posts pages sort by their column headings: newest first
// by default, oldest first, accounts by e-mail; each heading links to its
// order keeping the page's filters, the column sorted by links to its
// other order and says which it has, the pager keeps the order, and a
// sort the page does not offer, or any but the default with a search, is
// a 400 page.
func TestListSorts(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		adaID, _ := b.register("Ada", "zed@example.com")
		b.grant("zed@example.com")
		bobID, bobToken := b.register("Bob", "Bob@example.com")
		carolID, _ := b.register("Carol", "carol@example.com")
		p1 := b.post(bobToken, "One", "published")
		p2 := b.post(bobToken, "Two", "draft")
		p3 := b.post(bobToken, "Three", "published")
		ids := func(ids ...int64) string {
			var s []string
			for _, id := range ids {
				s = append(s, strconv.FormatInt(id, 10))
			}
			return strings.Join(s, " ")
		}
		br := b.browser()
		wantRedirect(t, br.signIn("zed@example.com"), "/admin")

		for _, tc := range []struct{ path, want, sorted, order string }{
			{"/admin/users", ids(carolID, bobID, adaID), "created", "descending"},
			{"/admin/users?sort=-created", ids(carolID, bobID, adaID), "created", "descending"},
			{"/admin/users?sort=created", ids(adaID, bobID, carolID), "created", "ascending"},
			{"/admin/users?sort=email", ids(bobID, carolID, adaID), "email", "ascending"},
		} {
			a := br.get(tc.path)
			wantPage(t, a, http.StatusOK)
			if got := strings.Join(column(a, "#users", 0), " "); got != tc.want {
				t.Errorf("%s: users %s, want %s", tc.path, got, tc.want)
			}
			if got := a.doc.Find(`#users th[aria-sort="`+tc.order+`"] a`).AttrOr("data-field", ""); got != tc.sorted {
				t.Errorf("%s: the %s column is %q, want %s", tc.path, tc.order, got, tc.sorted)
			}
		}
		a := br.get("/admin/users?sort=created")
		if got := a.doc.Find(`#users th a[data-field="created"]`).AttrOr("href", ""); got != "/admin/users?sort=-created" {
			t.Errorf("the joined column from oldest first links to %q", got)
		}
		if got := a.doc.Find(`#users th a[data-field="email"]`).AttrOr("href", ""); got != "/admin/users?sort=email" {
			t.Errorf("the e-mail column links to %q", got)
		}

		for _, tc := range []struct{ path, want string }{
			{"/admin/posts", ids(p3, p2, p1)},
			{"/admin/posts?sort=created", ids(p1, p2, p3)},
			{"/admin/posts?sort=created&status=published", ids(p1, p3)},
			{"/admin/posts?sort=-created&status=published", ids(p3, p1)},
		} {
			a := br.get(tc.path)
			wantPage(t, a, http.StatusOK)
			if got := strings.Join(column(a, "#posts", 0), " "); got != tc.want {
				t.Errorf("%s: posts %s, want %s", tc.path, got, tc.want)
			}
		}
		a = br.get("/admin/posts?status=draft&sort=created")
		if got := a.doc.Find(`#posts th[aria-sort="ascending"] a`).AttrOr("href", ""); got != "/admin/posts?sort=-created&status=draft" {
			t.Errorf("the created column from oldest drafts links to %q", got)
		}
		// A search has one order: no heading links, and no other order.
		a = br.get("/admin/posts?q=o")
		wantPage(t, a, http.StatusOK)
		if n := a.doc.Find("#posts th a.sort").Length(); n != 0 {
			t.Errorf("a searched list offers %d orders", n)
		}
		wantPage(t, br.get("/admin/posts?q=o&sort=-created"), http.StatusOK)
		for _, path := range []string{"/admin/users?sort=name", "/admin/users?sort=-email", "/admin/posts?sort=email", "/admin/posts?sort=title",
			"/admin/posts?q=o&sort=created", "/admin/users?q=b&sort=email"} {
			wantPage(t, br.get(path), http.StatusBadRequest)
		}
	})
}

// A page of a sorted list links its neighbours in the same order.
func TestSortedPager(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		for i := range 50 {
			b.register("User "+strconv.Itoa(i), "user"+strconv.Itoa(i)+"@example.com")
		}
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		a := br.get("/admin/users?sort=email")
		if got := a.doc.Find(`.pager a[rel="next"]`).AttrOr("href", ""); got != "/admin/users?page=2&sort=email" {
			t.Errorf("next page of accounts by e-mail: %q", got)
		}
		a = br.get("/admin/users?sort=email&page=2")
		if got := column(a, "#users", 2); len(got) != 1 || got[0] != "user9@example.com" {
			t.Errorf("the last account by e-mail: %v", got)
		}
	})
}
