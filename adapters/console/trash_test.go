package console_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// trashRows lists the row ids of a table of the Trash page.
func trashRows(a answer, table string) []string {
	var ids []string
	a.doc.Find("#" + table + " tbody tr[id]").Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("id", "")) })
	return ids
}

// trashAction submits the form of a row of the Trash page whose class is
// action ("restore", "purge") and checks that it comes back to the page.
func trashAction(t *testing.T, br *browser, row, action string) {
	t.Helper()
	a := br.get("/admin/trash")
	form := a.doc.Find("#" + row + " form." + action)
	if form.Length() != 1 || form.Find(`input[name="_token"]`).AttrOr("value", "") == "" {
		t.Fatalf("no %s form with a token in row %s: %.1500s", action, row, a.body)
	}
	wantRedirect(t, br.submit(form.AttrOr("action", ""), url.Values{"back": {form.Find(`input[name="back"]`).AttrOr("value", "")}}), "/admin/trash")
}

// The Trash page: every account's trashed posts and comments, reached from
// the nav; restore and purge from it, each audited under its name, and the
// API sees the outcome.
func TestTrashPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		_, bobToken := b.register("Bob", "bob@example.com")
		_, carolToken := b.register("Carol", "carol@example.com")
		post := b.post(bobToken, "Trashed post", "published")
		other := b.post(carolToken, "Carol's post", "published")
		with := b.comment(carolToken, post, "goes with the post")
		alone := b.comment(bobToken, other, "trashed alone <b>bold</b>")
		p := "/api/v1/posts/" + strconv.FormatInt(post, 10)
		if status, out := b.api("DELETE", "/api/v1/comments/"+strconv.FormatInt(alone, 10), bobToken, nil); status != http.StatusOK {
			t.Fatalf("delete comment: %d %v", status, out)
		}
		if status, out := b.api("DELETE", p, bobToken, nil); status != http.StatusOK {
			t.Fatalf("delete post: %d %v", status, out)
		}

		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		if br.get("/admin").doc.Find(`nav a[href="/admin/trash"]`).Length() != 1 {
			t.Errorf("no link to the trash in the nav")
		}
		a := br.get("/admin/trash")
		wantPage(t, a, http.StatusOK)
		postRow, withRow, aloneRow := "post-"+strconv.FormatInt(post, 10), "comment-"+strconv.FormatInt(with, 10), "comment-"+strconv.FormatInt(alone, 10)
		if got := strings.Join(trashRows(a, "trashed-posts"), " "); got != postRow {
			t.Errorf("trashed posts: %q, want %q", got, postRow)
		}
		if got := strings.Join(trashRows(a, "trashed-comments"), " "); got != withRow+" "+aloneRow && got != aloneRow+" "+withRow {
			t.Errorf("trashed comments: %q, want both", got)
		}
		if got := a.text("#" + postRow + " td.author"); got != "bob@example.com" {
			t.Errorf("the post's author: %q", got)
		}
		if got := a.text("#" + aloneRow + " td.body"); got != "trashed alone <b>bold</b>" || a.doc.Find("#"+aloneRow+" td.body b").Length() != 0 {
			t.Errorf("the comment's body shows as %q", got)
		}

		// Restore the post: it is back for the API, with the comment
		// trashed with it, and the audit names the action.
		trashAction(t, br, postRow, "restore")
		a = br.get("/admin/trash")
		if a.text("#notice") != "The post was restored." || len(trashRows(a, "trashed-posts")) != 0 {
			t.Errorf("after the restore: %q %v", a.text("#notice"), trashRows(a, "trashed-posts"))
		}
		if got := strings.Join(trashRows(a, "trashed-comments"), " "); got != aloneRow {
			t.Errorf("trashed comments after the post's restore: %q, want %q", got, aloneRow)
		}
		if got := b.apiCommentBodies(carolToken, post); strings.Join(got, "|") != "goes with the post" {
			t.Errorf("the API's comments of the restored post: %q", got)
		}
		if got := br.get("/admin/audit").text("#audit tbody td.action"); got != "post.restore" {
			t.Errorf("audit's latest action: %q", got)
		}

		// Purge it: gone for good, for the API and the author's restore.
		if status, _ := b.api("DELETE", p, bobToken, nil); status != http.StatusOK {
			t.Fatalf("delete post again: %d", status)
		}
		trashAction(t, br, postRow, "purge")
		if got := br.get("/admin/trash").text("#notice"); got != "The post was deleted for good." {
			t.Errorf("notice after the purge: %q", got)
		}
		if status, _ := b.api("POST", p+"/restore", bobToken, nil); status != http.StatusNotFound {
			t.Errorf("the author's restore after the purge: %d, want 404", status)
		}
		if got := br.get("/admin/audit").text("#audit tbody td.action"); got != "post.purge" {
			t.Errorf("audit's latest action: %q", got)
		}

		// The comment trashed alone: restore, trash again, purge.
		trashAction(t, br, aloneRow, "restore")
		if got := b.apiCommentBodies(carolToken, other); strings.Join(got, "|") != "trashed alone <b>bold</b>" {
			t.Errorf("the API's comments after the comment's restore: %q", got)
		}
		if got := br.get("/admin/audit").text("#audit tbody td.action"); got != "comment.restore" {
			t.Errorf("audit's latest action: %q", got)
		}
		if status, _ := b.api("DELETE", "/api/v1/comments/"+strconv.FormatInt(alone, 10), carolToken, nil); status != http.StatusOK {
			t.Fatalf("the post's author deletes the comment: %d", status)
		}
		trashAction(t, br, aloneRow, "purge")
		a = br.get("/admin/trash")
		if a.text("#notice") != "The comment was deleted for good." || len(trashRows(a, "trashed-comments")) != 0 {
			t.Errorf("after the comment's purge: %q %v", a.text("#notice"), trashRows(a, "trashed-comments"))
		}
		if got := br.get("/admin/audit").text("#audit tbody td.action"); got != "comment.purge" {
			t.Errorf("audit's latest action: %q", got)
		}
		if status, _ := b.api("POST", "/api/v1/comments/"+strconv.FormatInt(alone, 10)+"/restore", bobToken, nil); status != http.StatusNotFound {
			t.Errorf("restore of a purged comment: %d, want 404", status)
		}
	})
}

// The page and its actions refuse what every console page refuses, and a
// bearer token, even one with every ability, opens none of them.
func TestTrashRefusals(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		_, adaToken := b.register("Ada's twin", "twin@example.com")
		b.grant("twin@example.com")
		_, bobToken := b.register("Bob", "bob@example.com")
		post := b.post(bobToken, "Trashed", "published")
		p := "/api/v1/posts/" + strconv.FormatInt(post, 10)
		if status, _ := b.api("DELETE", p, bobToken, nil); status != http.StatusOK {
			t.Fatal("delete post")
		}
		restore := "/admin/posts/" + strconv.FormatInt(post, 10) + "/restore"
		purge := "/admin/posts/" + strconv.FormatInt(post, 10) + "/purge"

		anon := b.browser()
		wantRedirect(t, anon.get("/admin/trash"), "/admin/login")
		withToken := httptest.NewRequest("GET", origin+"/admin/trash", nil)
		withToken.Header.Set("Authorization", "Bearer "+adaToken)
		wantRedirect(t, anon.do(withToken), "/admin/login")
		anon.get("/admin/login")
		wantRedirect(t, anon.submit(restore, nil, "Authorization", "Bearer "+adaToken), "/admin/login")

		ada := b.browser()
		wantRedirect(t, ada.signIn("ada@example.com"), "/admin")
		wantPage(t, ada.postRaw(purge, "", "Origin", origin), 419)
		wantPage(t, ada.submit(purge, url.Values{"_token": {"forged"}}), 419)
		wantPage(t, ada.submit(restore, nil, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
		ada.get("/admin/trash")
		wantPage(t, ada.submit("/admin/posts/987654/restore", nil), http.StatusNotFound)
		if got := trashRows(ada.get("/admin/trash"), "trashed-posts"); len(got) != 1 {
			t.Errorf("the trash after the refusals: %v", got)
		}
		if status, _ := b.api("GET", p, "", nil); status != http.StatusNotFound {
			t.Errorf("the post after the refusals: %d, want still trashed", status)
		}
	})
}
