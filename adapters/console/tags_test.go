package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// tagRows lists the names of the Tags page's rows, in order.
func tagRows(a answer) []string {
	var names []string
	a.doc.Find("#tags tbody tr[id] td.name").Each(func(_ int, s *goquery.Selection) { names = append(names, s.Text()) })
	return names
}

// tagForm submits the form of class action ("rename", "merge", "delete")
// in the row of tag id on the page at path, with fields, and checks that it
// comes back to that page.
func tagForm(t *testing.T, br *browser, path string, id int64, action string, fields url.Values) answer {
	t.Helper()
	a := br.get(path)
	form := a.doc.Find("#tag-" + strconv.FormatInt(id, 10) + " form." + action)
	if form.Length() != 1 || form.AttrOr("method", "") != "post" || form.Find(`input[name="_token"]`).AttrOr("value", "") == "" {
		t.Fatalf("no %s form with a token in the row of tag %d: %.2000s", action, id, a.body)
	}
	if fields == nil {
		fields = url.Values{}
	}
	fields.Set("back", form.Find(`input[name="back"]`).AttrOr("value", ""))
	return br.submit(form.AttrOr("action", ""), fields)
}

// apiTag creates a tag through the API and returns its id.
func (b *bench) apiTag(token, name string) int64 {
	b.t.Helper()
	status, out := b.api("POST", "/api/v1/tags", token, map[string]any{"name": name})
	if status != http.StatusCreated {
		b.t.Fatalf("create tag %q: %d %v", name, status, out)
	}
	id, _ := out["data"].(map[string]any)["id"].(float64)
	return int64(id)
}

// apiPostTags are the names of the tags the API shows on post id.
func (b *bench) apiPostTags(id int64) []string {
	b.t.Helper()
	status, out := b.api("GET", "/api/v1/posts/"+strconv.FormatInt(id, 10), "", nil)
	if status != http.StatusOK {
		b.t.Fatalf("read post %d: %d %v", id, status, out)
	}
	var names []string
	for _, tag := range out["data"].(map[string]any)["relationships"].(map[string]any)["tags"].([]any) {
		names = append(names, tag.(map[string]any)["attributes"].(map[string]any)["name"].(string))
	}
	return names
}

// The Tags page: every tag with its posts, searched, sorted by each
// column, reached from the nav; rename, merge and delete from it, each
// back on the page it came from with its notice, audited under its name,
// and the API shows the outcome.
func TestTagsPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		_, bobToken := b.register("Bob", "bob@example.com")
		golang := b.apiTag(bobToken, "Golang")
		gopher := b.apiTag(bobToken, "Go")
		rust := b.apiTag(bobToken, "Rust <b>")
		zig := b.apiTag(bobToken, "Zig")
		post := func(title string, tags ...int64) int64 {
			code, out := b.api("POST", "/api/v1/posts", bobToken, map[string]any{"title": title, "body": "B", "status": "published", "tags": tags})
			if code != http.StatusCreated {
				t.Fatalf("create post: %d %v", code, out)
			}
			return int64(out["data"].(map[string]any)["id"].(float64))
		}
		first := post("First", golang, rust)
		second := post("Second", golang, gopher)
		post("Third", golang)

		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		if br.get("/admin").doc.Find(`nav a[href="/admin/tags"]`).Length() != 1 {
			t.Errorf("no link to the tags in the nav")
		}
		a := br.get("/admin/tags")
		wantPage(t, a, http.StatusOK)
		if got, want := tagRows(a), []string{"Go", "Golang", "Rust <b>", "Zig"}; !slices.Equal(got, want) {
			t.Errorf("tags by name: %q, want %q", got, want)
		}
		if a.doc.Find("#tags td.name b").Length() != 0 {
			t.Errorf("a tag's name is not escaped: %.2000s", a.body)
		}
		row := func(a answer, id int64, cell string) string {
			return a.text("#tag-" + strconv.FormatInt(id, 10) + " td." + cell)
		}
		if got := row(a, golang, "posts") + " " + row(a, gopher, "posts") + " " + row(a, zig, "posts"); got != "3 1 0" {
			t.Errorf("post counts of Golang, Go, Zig: %q, want 3 1 0", got)
		}
		if got := a.doc.Find(`#tags th[aria-sort="ascending"] a`).AttrOr("data-field", ""); got != "name" {
			t.Errorf("the sorted column: %q, want name", got)
		}

		// Each column sorts, and sorts the other way from its own link.
		for _, tc := range []struct {
			sort string
			want []string
		}{
			{"-name", []string{"Zig", "Rust <b>", "Golang", "Go"}},
			{"-posts", []string{"Golang", "Rust <b>", "Go", "Zig"}},
			{"posts", []string{"Zig", "Go", "Rust <b>", "Golang"}},
			{"created_at", []string{"Golang", "Go", "Rust <b>", "Zig"}},
			{"-created_at", []string{"Zig", "Rust <b>", "Go", "Golang"}},
		} {
			a := br.get("/admin/tags?sort=" + url.QueryEscape(tc.sort))
			wantPage(t, a, http.StatusOK)
			if got := tagRows(a); !slices.Equal(got, tc.want) {
				t.Errorf("sort=%s: %q, want %q", tc.sort, got, tc.want)
			}
		}
		a = br.get("/admin/tags?sort=posts")
		link := a.doc.Find(`#tags th a[data-field="posts"]`).AttrOr("href", "")
		if got := tagRows(br.get(link)); !slices.Equal(got, []string{"Golang", "Rust <b>", "Go", "Zig"}) {
			t.Errorf("the posts column's link %q from sort=posts: %q, want descending", link, got)
		}
		a = br.get("/admin/tags?q=GO&sort=-name")
		if got := tagRows(a); !slices.Equal(got, []string{"Golang", "Go"}) {
			t.Errorf("search GO: %q", got)
		}
		if got := a.doc.Find(`#tags th a[data-field="posts"]`).AttrOr("href", ""); got != "/admin/tags?q=GO&sort=posts" {
			t.Errorf("a column's link keeps the search: %q", got)
		}
		wantPage(t, br.get("/admin/tags?sort=slug"), http.StatusBadRequest)

		// Rename from a searched, sorted page: back to it, with the notice.
		from := "/admin/tags?q=go&sort=-name"
		wantRedirect(t, tagForm(t, br, from, golang, "rename", url.Values{"name": {" Go Lang "}}), from)
		a = br.get(from)
		if a.text("#notice") != "The tag was renamed." || !slices.Equal(tagRows(a), []string{"Go Lang", "Go"}) {
			t.Errorf("after the rename: %q %q", a.text("#notice"), tagRows(a))
		}
		if br.get(from).text("#notice") != "" {
			t.Errorf("the notice shows twice")
		}
		if got := b.apiPostTags(first); !slices.Equal(got, []string{"Go Lang", "Rust <b>"}) {
			t.Errorf("the API's tags of the first post after the rename: %q", got)
		}
		if got := br.get("/admin/audit").text("#audit tbody tr:first-child td.action"); got != "tag.rename" {
			t.Errorf("audit's latest action: %q", got)
		}

		// A refused rename or merge shows why and changes nothing.
		for _, tc := range []struct {
			action string
			fields url.Values
			status int
			why    string
		}{
			{"rename", url.Values{"name": {"zig"}}, http.StatusConflict, "no other tag has"},
			{"rename", url.Values{"name": {""}}, http.StatusUnprocessableEntity, "needs a name"},
			{"rename", url.Values{"name": {strings.Repeat("x", 51)}}, http.StatusUnprocessableEntity, "at most 50"},
			{"merge", url.Values{"into": {"Haskell"}}, http.StatusUnprocessableEntity, "another tag that exists"},
			{"merge", url.Values{"into": {"go lang"}}, http.StatusUnprocessableEntity, "another tag that exists"},
		} {
			a := tagForm(t, br, "/admin/tags", golang, tc.action, tc.fields)
			wantPage(t, a, tc.status)
			if !strings.Contains(a.text(".refusal"), tc.why) {
				t.Errorf("%s %v: refusal %q, want it to say %q", tc.action, tc.fields, a.text(".refusal"), tc.why)
			}
		}
		if got := tagRows(br.get("/admin/tags")); !slices.Equal(got, []string{"Go", "Go Lang", "Rust <b>", "Zig"}) {
			t.Errorf("tags after the refusals: %q", got)
		}

		// Merge Go into Go Lang: the second post keeps one tag, Go is gone.
		wantRedirect(t, tagForm(t, br, "/admin/tags", gopher, "merge", url.Values{"into": {"GO LANG"}}), "/admin/tags")
		a = br.get("/admin/tags")
		if a.text("#notice") != "The tag was merged into the other one." || !slices.Equal(tagRows(a), []string{"Go Lang", "Rust <b>", "Zig"}) {
			t.Errorf("after the merge: %q %q", a.text("#notice"), tagRows(a))
		}
		if got := row(a, golang, "posts"); got != "3" {
			t.Errorf("Go Lang's posts after the merge: %q, want 3", got)
		}
		if got := b.apiPostTags(second); !slices.Equal(got, []string{"Go Lang"}) {
			t.Errorf("the API's tags of the second post after the merge: %q", got)
		}
		if got := br.get("/admin/audit").text("#audit tbody tr:first-child td.action"); got != "tag.merge" {
			t.Errorf("audit's latest action: %q", got)
		}

		// Delete Rust: its post stays, without it.
		wantRedirect(t, tagForm(t, br, "/admin/tags?page=1", rust, "delete", nil), "/admin/tags")
		a = br.get("/admin/tags")
		if a.text("#notice") != "The tag was deleted; its posts stay." || !slices.Equal(tagRows(a), []string{"Go Lang", "Zig"}) {
			t.Errorf("after the delete: %q %q", a.text("#notice"), tagRows(a))
		}
		if got := b.apiPostTags(first); !slices.Equal(got, []string{"Go Lang"}) {
			t.Errorf("the API's tags of the first post after the delete: %q", got)
		}
		if got := br.get("/admin/audit").text("#audit tbody tr:first-child td.action"); got != "tag.delete" {
			t.Errorf("audit's latest action: %q", got)
		}
		wantPage(t, br.submit("/admin/tags/"+strconv.FormatInt(rust, 10)+"/delete", nil), http.StatusNotFound)
	})
}

// The page and its actions refuse what every console page refuses, and a
// bearer token, even an admin's with every ability, opens none of them.
func TestTagsRefusals(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		_, adaToken := b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		tag := b.apiTag(adaToken, "Kept")
		rename := "/admin/tags/" + strconv.FormatInt(tag, 10) + "/rename"
		del := "/admin/tags/" + strconv.FormatInt(tag, 10) + "/delete"

		anon := b.browser()
		wantRedirect(t, anon.get("/admin/tags"), "/admin/login")
		withToken := httptest.NewRequest("GET", origin+"/admin/tags", nil)
		withToken.Header.Set("Authorization", "Bearer "+adaToken)
		wantRedirect(t, anon.do(withToken), "/admin/login")
		anon.get("/admin/login")
		wantRedirect(t, anon.submit(del, nil, "Authorization", "Bearer "+adaToken), "/admin/login")

		ada := b.browser()
		wantRedirect(t, ada.signIn("ada@example.com"), "/admin")
		wantPage(t, ada.postRaw(del, "", "Origin", origin), 419)
		wantPage(t, ada.submit(rename, url.Values{"_token": {"forged"}, "name": {"Changed"}}), 419)
		wantPage(t, ada.submit(del, nil, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
		ada.get("/admin/tags")
		wantPage(t, ada.submit("/admin/tags/987654/rename", url.Values{"name": {"X"}}), http.StatusNotFound)
		wantPage(t, ada.submit("/admin/tags/abc/delete", nil), http.StatusNotFound)
		for _, path := range []string{"/admin/tags?page=0", "/admin/tags?q=%00", "/admin/tags?q=%ff%fe", "/admin/tags?sort=%1b", "/admin/tags?sort=-slug"} {
			wantPage(t, ada.get(path), http.StatusBadRequest)
		}
		if got := tagRows(ada.get("/admin/tags")); !slices.Equal(got, []string{"Kept"}) {
			t.Errorf("the tags after the refusals: %q", got)
		}
		// A revoke counts at once: the next action is refused.
		if _, err := b.stack.Operator.Admins.Revoke(t.Context(), "ada@example.com"); err != nil {
			t.Fatal(err)
		}
		if a := ada.submit(del, nil); a.status == http.StatusSeeOther && a.header.Get("Location") == "/admin/tags" {
			t.Errorf("a revoked admin deleted a tag")
		}
		if status, out := b.api("GET", "/api/v1/tags", "", nil); status != http.StatusOK || len(out["data"].([]any)) != 1 {
			t.Errorf("the API's tags after the refusals: %d %v", status, out)
		}
	})
}
