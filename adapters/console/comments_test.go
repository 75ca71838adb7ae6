package console_test

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/inkwell/inkwell/app"
)

// comment writes a comment through the API and returns its id.
func (b *bench) comment(token string, postID int64, body string) int64 {
	b.t.Helper()
	status, out := b.api("POST", "/api/v1/posts/"+strconv.FormatInt(postID, 10)+"/comments", token, map[string]any{"body": body})
	if status != http.StatusCreated {
		b.t.Fatalf("comment: %d %v", status, out)
	}
	data, _ := out["data"].(map[string]any)
	id, _ := data["id"].(float64)
	return int64(id)
}

// apiCommentBodies are the bodies of a post's comments as the API lists
// them.
func (b *bench) apiCommentBodies(token string, postID int64) []string {
	b.t.Helper()
	status, out := b.api("GET", "/api/v1/posts/"+strconv.FormatInt(postID, 10)+"/comments", token, nil)
	if status != http.StatusOK {
		b.t.Fatalf("the API's comments of post %d: %d %v", postID, status, out)
	}
	data, _ := out["data"].([]any)
	bodies := []string{}
	for _, c := range data {
		m, _ := c.(map[string]any)
		attrs, _ := m["attributes"].(map[string]any)
		body, _ := attrs["body"].(string)
		bodies = append(bodies, body)
	}
	return bodies
}

func rowIDs(a answer) []string {
	var ids []string
	a.doc.Find("#comments tbody tr[id]").Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("id", "")) })
	return ids
}

func rowID(id int64) string { return "comment-" + strconv.FormatInt(id, 10) }

// The list of comments: every post's, newest first, with author's e-mail
// and post's title, filtered by post and by author, reached from the nav,
// a user's page and the posts; a hostile body shows as text; deleting
// from the list comes back to it, filters kept, and the API no longer has
// the comment.
func TestCommentsPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		bobID, bobToken := b.register("Bob", "bob@example.com")
		_, carolToken := b.register("Carol", "carol@example.com")
		first := b.post(bobToken, "First post", "published")
		second := b.post(carolToken, "Second post", "published")
		evil := `<script>alert(1)</script><img src=x onerror=alert(2)>`
		c1 := b.comment(carolToken, first, "Carol on first")
		c2 := b.comment(bobToken, first, "Bob on first "+evil)
		c3 := b.comment(bobToken, second, "Bob on second")
		c4 := b.comment(carolToken, second, "Carol on second")

		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		a := br.get("/admin")
		if href := a.doc.Find(`nav a[href="/admin/comments"]`).Length(); href != 1 {
			t.Errorf("no link to the comments in the nav")
		}

		a = br.get("/admin/comments")
		wantPage(t, a, http.StatusOK)
		if got, want := strings.Join(rowIDs(a), " "), strings.Join([]string{rowID(c4), rowID(c3), rowID(c2), rowID(c1)}, " "); got != want {
			t.Fatalf("every comment: got %s, want %s", got, want)
		}
		row := a.doc.Find("#" + rowID(c2))
		if got := row.Find("td.body").Text(); got != "Bob on first "+evil {
			t.Errorf("the body shows as %q", got)
		}
		if row.Find("td.author").Text() == "" || !strings.Contains(row.Find("td.author").Text(), "bob@example.com") ||
			!strings.Contains(row.Find("td.post").Text(), "First post") || row.Find("td.post .post-id").Text() != strconv.FormatInt(first, 10) {
			t.Errorf("row of comment %d: %q %q", c2, row.Find("td.author").Text(), row.Find("td.post").Text())
		}
		if a.doc.Find("img, script:not([src])").Length() != 0 {
			t.Errorf("the hostile body became markup: %.2000s", a.body)
		}
		if got := a.text(".pager span"); got != "Page 1 of 1 (4 in all)" {
			t.Errorf("pager: %q", got)
		}

		for _, tc := range []struct {
			path string
			want []int64
		}{
			{"/admin/comments?post=" + strconv.FormatInt(first, 10), []int64{c2, c1}},
			{"/admin/comments?user=" + strconv.FormatInt(bobID, 10), []int64{c3, c2}},
			{"/admin/comments?post=" + strconv.FormatInt(second, 10) + "&user=" + strconv.FormatInt(bobID, 10), []int64{c3}},
			{"/admin/comments?email=bob@example.com", []int64{c3, c2}},
			{"/admin/comments?email=" + url.QueryEscape("CAROL@Example.com"), []int64{c4, c1}},
			{"/admin/comments?email=bob@example.com&post=" + strconv.FormatInt(first, 10), []int64{c2}},
			{"/admin/comments?email=bob@example.com&user=" + strconv.FormatInt(bobID, 10), []int64{c3, c2}},
			{"/admin/comments?email=nobody@example.com", nil},
			{"/admin/comments?post=987654", nil},
			{"/admin/comments?page=2", nil},
		} {
			a := br.get(tc.path)
			wantPage(t, a, http.StatusOK)
			var want []string
			for _, id := range tc.want {
				want = append(want, rowID(id))
			}
			if got := rowIDs(a); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s: got %v, want %v", tc.path, got, want)
			}
		}
		for _, path := range []string{"/admin/comments?post=x", "/admin/comments?user=0", "/admin/comments?post=-3", "/admin/comments?page=0", "/admin/comments?email=bob", "/admin/comments?email=%40"} {
			wantPage(t, br.get(path), http.StatusBadRequest)
		}

		a = br.get("/admin/comments?email=bob@example.com")
		if got := a.doc.Find(`#filter input[name="email"]`).AttrOr("value", ""); got != "bob@example.com" {
			t.Errorf("the filter form keeps the address as %q", got)
		}
		if got := a.text("#filters"); !strings.Contains(got, "the comments by bob@example.com") {
			t.Errorf("the filter says %q", got)
		}

		// The user's page and the list of posts lead to the comments.
		a = br.get("/admin/users/" + strconv.FormatInt(bobID, 10))
		if got := a.doc.Find("#user-comments").AttrOr("href", ""); got != "/admin/comments?user="+strconv.FormatInt(bobID, 10) {
			t.Errorf("the user's page links to %q", got)
		}
		a = br.get("/admin/posts")
		if got := a.doc.Find("#post-"+strconv.FormatInt(second, 10)+" a.comments").AttrOr("href", ""); got != "/admin/comments?post="+strconv.FormatInt(second, 10) {
			t.Errorf("the post's row links to %q", got)
		}

		// Delete from the filtered list: back to it, with the notice.
		list := "/admin/comments?post=" + strconv.FormatInt(first, 10)
		a = br.get(list)
		form := a.doc.Find("#" + rowID(c2) + " form")
		if form.Find(`input[name="_token"]`).AttrOr("value", "") == "" {
			t.Fatalf("the delete form carries no token: %.1000s", a.body)
		}
		wantRedirect(t, br.submit(form.AttrOr("action", ""), url.Values{"back": {form.Find(`input[name="back"]`).AttrOr("value", "")}}), list)
		a = br.get(list)
		if a.text("#notice") != "The comment was moved to the trash." || strings.Join(rowIDs(a), " ") != rowID(c1) {
			t.Errorf("after the delete: %v %.1000s", rowIDs(a), a.body)
		}
		if got := b.apiCommentBodies(carolToken, first); strings.Join(got, "|") != "Carol on first" {
			t.Errorf("the API's comments of the post after the delete: %q", got)
		}
		if got := b.apiCommentBodies(carolToken, second); len(got) != 2 {
			t.Errorf("the other post's comments: %q", got)
		}
		a = br.get("/admin/audit")
		if got := a.text("#audit tbody td.action"); !strings.HasPrefix(got, "comment.delete") {
			t.Errorf("audit's latest action: %q", got)
		}
	})
}

// The list and its delete refuse what every console page refuses: no
// signed-in session goes to the sign-in form (a non-admin's refused
// sign-in leaves none), an admin's session whose rights are revoked gets
// the 403 page, and a delete without the page's token or from another site
// is refused; the comment stays each time.
func TestCommentsRefusals(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		_, bobToken := b.register("Bob", "bob@example.com")
		postID := b.post(bobToken, "Post", "published")
		id := b.comment(bobToken, postID, "Stays")
		del := "/admin/comments/" + strconv.FormatInt(id, 10) + "/delete"

		anon := b.browser()
		wantRedirect(t, anon.get("/admin/comments"), "/admin/login")
		anon.get("/admin/login")
		wantRedirect(t, anon.submit(del, nil), "/admin/login")
		wantPage(t, anon.postRaw(del, "", "Origin", origin), 419)

		bob := b.browser()
		wantPage(t, bob.signIn("bob@example.com"), http.StatusUnprocessableEntity)
		wantRedirect(t, bob.get("/admin/comments"), "/admin/login")
		wantRedirect(t, bob.submit(del, nil), "/admin/login")

		ada := b.browser()
		wantRedirect(t, ada.signIn("ada@example.com"), "/admin")
		wantPage(t, ada.get("/admin/comments"), http.StatusOK)
		// Ada's session in a non-admin's hands after a revoke: 403.
		if _, err := b.stack.Operator.Admins.Revoke(t.Context(), "ada@example.com"); err != nil {
			t.Fatal(err)
		}
		wantPage(t, ada.get("/admin/comments"), http.StatusForbidden)
		wantPage(t, ada.submit(del, nil), http.StatusForbidden)
		b.grant("ada@example.com")

		wantPage(t, ada.postRaw(del, "", "Origin", origin), 419)
		wantPage(t, ada.submit(del, url.Values{"_token": {"forged"}}), 419)
		wantPage(t, ada.submit(del, nil, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
		if got := b.apiCommentBodies(bobToken, postID); strings.Join(got, "|") != "Stays" {
			t.Errorf("the comment after the refusals: %q", got)
		}
		a := ada.get("/admin/comments")
		if strings.Join(rowIDs(a), " ") != rowID(id) {
			t.Errorf("the list after the refusals: %v", rowIDs(a))
		}
	})
}

// The comments page filters by post title (the posts whose title holds
// it, any case, % as itself), alone and with an author, keeps the title in
// its form, its summary, its pager and its delete's way back, and says
// when more posts match than it reads; it sorts by its Created heading,
// newest or oldest first, keeping the filters; a title or an order it
// cannot take is its 400 page.
func TestCommentsByPostTitle(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		bobID, bobToken := b.register("Bob", "bob@example.com")
		_, carolToken := b.register("Carol", "carol@example.com")
		sure := b.post(bobToken, "100% Sure", "published")
		pages := b.post(carolToken, "100 pages", "published")
		other := b.post(carolToken, "Elsewhere", "published")
		c1 := b.comment(carolToken, sure, "Carol on sure")
		c2 := b.comment(bobToken, pages, "Bob on pages")
		c3 := b.comment(bobToken, other, "Bob elsewhere")
		c4 := b.comment(bobToken, sure, "Bob on sure")

		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		rows := func(ids ...int64) string {
			var want []string
			for _, id := range ids {
				want = append(want, rowID(id))
			}
			return strings.Join(want, " ")
		}
		for _, tc := range []struct {
			path, want string
		}{
			{"/admin/comments?title=100", rows(c4, c2, c1)},
			{"/admin/comments?title=" + url.QueryEscape("  100% SURE "), rows(c4, c1)},
			{"/admin/comments?title=" + url.QueryEscape("1%s"), ""},
			{"/admin/comments?title=100&sort=created", rows(c1, c2, c4)},
			{"/admin/comments?title=100&email=bob@example.com", rows(c4, c2)},
			{"/admin/comments?title=100&user=" + strconv.FormatInt(bobID, 10) + "&sort=created", rows(c2, c4)},
			{"/admin/comments?title=100&post=" + strconv.FormatInt(pages, 10), rows(c2)},
			{"/admin/comments?title=nowhere", ""},
			{"/admin/comments?title=", rows(c4, c3, c2, c1)},
			{"/admin/comments?sort=created", rows(c1, c2, c3, c4)},
			{"/admin/comments?sort=-created", rows(c4, c3, c2, c1)},
			{"/admin/comments?sort=created&user=" + strconv.FormatInt(bobID, 10), rows(c2, c3, c4)},
			{"/admin/comments?sort=created&post=" + strconv.FormatInt(sure, 10), rows(c1, c4)},
		} {
			a := br.get(tc.path)
			wantPage(t, a, http.StatusOK)
			if got := strings.Join(rowIDs(a), " "); got != tc.want {
				t.Errorf("%s: got %s, want %s", tc.path, got, tc.want)
			}
			if a.doc.Find("#title-posts").Length() != 0 {
				t.Errorf("%s: says that more posts match: %q", tc.path, a.text("#title-posts"))
			}
		}

		a := br.get("/admin/comments?title=" + url.QueryEscape("100%") + "&sort=created")
		if got := a.doc.Find(`#filter input[name="title"]`).AttrOr("value", ""); got != "100%" {
			t.Errorf("the filter form keeps the title as %q", got)
		}
		if got := a.doc.Find(`#filter input[name="sort"]`).AttrOr("value", ""); got != "created" {
			t.Errorf("the filter form keeps the order as %q", got)
		}
		if got := a.text("#filters"); !strings.Contains(got, "the comments on the posts whose title holds “100%”") {
			t.Errorf("the filter says %q", got)
		}
		if got := a.doc.Find(`#comments th[aria-sort="ascending"] a`).AttrOr("href", ""); got != "/admin/comments?sort=-created&title=100%25" {
			t.Errorf("the sorted heading links to %q", got)
		}
		if got := a.doc.Find("#"+rowID(c1)+` form input[name="back"]`).AttrOr("value", ""); got != "/admin/comments?sort=created&title=100%25" {
			t.Errorf("the delete comes back to %q", got)
		}
		a = br.get("/admin/comments?email=bob@example.com")
		if got := a.doc.Find(`#comments th a[data-field="created"]`).AttrOr("href", ""); got != "/admin/comments?email=bob%40example.com&sort=created" {
			t.Errorf("the heading links to %q", got)
		}
		if a.doc.Find(`#comments th[aria-sort="descending"]`).Length() != 1 {
			t.Errorf("the default order is not shown as descending: %.2000s", a.body)
		}

		for _, path := range []string{
			"/admin/comments?title=a%00b", "/admin/comments?title=a%FFb", "/admin/comments?title=a%1Bb",
			"/admin/comments?title=" + strings.Repeat("a", 300), "/admin/comments?title=" + strings.Repeat("%C3%A9", 300),
			"/admin/comments?sort=email", "/admin/comments?sort=title", "/admin/comments?sort=-id",
		} {
			wantPage(t, br.get(path), http.StatusBadRequest)
		}

		// More matching posts than the list reads: the page says so, and
		// shows the comments of the newest of them.
		var first, last int64
		for i := range app.AdminCommentTitlePosts + 1 {
			id := b.comment(carolToken, b.post(carolToken, "Many "+strconv.Itoa(i), "published"), "On many")
			if i == 0 {
				first = id
			}
			last = id
		}
		a = br.get("/admin/comments?title=many")
		wantPage(t, a, http.StatusOK)
		want := "More than " + strconv.Itoa(app.AdminCommentTitlePosts) + " posts have a title that holds “many”"
		if got := a.text("#title-posts"); !strings.HasPrefix(got, want) {
			t.Errorf("the notice says %q, want %q…", got, want)
		}
		if ids := rowIDs(a); len(ids) == 0 || ids[0] != rowID(last) || slices.Contains(ids, rowID(first)) {
			t.Errorf("the first page of many posts' comments: %v", ids)
		}
		a = br.get("/admin/comments?title=many&page=2")
		if ids := rowIDs(a); slices.Contains(ids, rowID(first)) || a.doc.Find("#title-posts").Length() != 1 {
			t.Errorf("the last page of many posts' comments: %v, notice %q", ids, a.text("#title-posts"))
		}
	})
}
