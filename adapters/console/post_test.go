package console_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// formOf is what a browser sends for the form sel of a's page: its hidden
// and text inputs, its textareas, each select's chosen option and the
// checkboxes checked, with change applied on top.
func formOf(t *testing.T, a answer, sel string, change url.Values) (string, url.Values) {
	t.Helper()
	form := a.doc.Find(sel)
	if form.Length() != 1 {
		t.Fatalf("no form %s: %.1500s", sel, a.body)
	}
	v := url.Values{}
	form.Find("input").Each(func(_ int, in *goquery.Selection) {
		name := in.AttrOr("name", "")
		switch in.AttrOr("type", "text") {
		case "checkbox":
			if _, checked := in.Attr("checked"); checked {
				v.Add(name, in.AttrOr("value", "on"))
			}
		default:
			v.Add(name, in.AttrOr("value", ""))
		}
	})
	form.Find("textarea").Each(func(_ int, ta *goquery.Selection) { v.Add(ta.AttrOr("name", ""), ta.Text()) })
	form.Find("select").Each(func(_ int, s *goquery.Selection) {
		v.Add(s.AttrOr("name", ""), s.Find("option[selected]").AttrOr("value", ""))
	})
	for k, vs := range change {
		v[k] = vs
	}
	return form.AttrOr("action", ""), v
}

// A post's page edits it and publishes it through the author's own use
// case, by admin right: each answers 303 back to the page with a notice,
// the API shows the change, and the audit log names post.update and
// post.publish. A refused form comes back with its values and why (422),
// and a form filled in before a change made since changes nothing (412).
func TestEditAndPublishPost(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		_, bobToken := b.register("Bob", "bob@example.com")
		tag := func(name string) string {
			status, out := b.api("POST", "/api/v1/tags", bobToken, map[string]any{"name": name})
			if status != http.StatusCreated {
				t.Fatalf("tag %s: %d %v", name, status, out)
			}
			data, _ := out["data"].(map[string]any)
			if data == nil {
				data = out
			}
			return strconv.FormatInt(int64(data["id"].(float64)), 10)
		}
		goTag, sqlTag := tag("go"), tag("sql")
		id := b.post(bobToken, "Bob's draft", "draft")
		page := "/admin/posts/" + strconv.FormatInt(id, 10)
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")

		a := br.get("/admin/posts?status=draft")
		if href := a.doc.Find("#post-"+strconv.FormatInt(id, 10)+" a.post").AttrOr("href", ""); href != page {
			t.Fatalf("the posts page links the post to %q, want %q", href, page)
		}
		a = br.get(page)
		wantPage(t, a, http.StatusOK)
		if got := a.doc.Find(`#edit input[name="title"]`).AttrOr("value", ""); got != "Bob's draft" {
			t.Errorf("the form's title: got %q", got)
		}
		if a.text("#status") != "draft" || a.doc.Find("form#publish").Length() != 1 || a.doc.Find("form#unpublish").Length() != 0 {
			t.Errorf("a draft's page: %.2000s", a.body)
		}
		if n := a.doc.Find(`#edit input[name="tags"]`).Length(); n != 2 {
			t.Errorf("the form offers %d tags, want 2", n)
		}
		stale := a

		// A refused form: shown again with what was sent, and why.
		b.stack.Clock.Advance(time.Second)
		action, form := formOf(t, a, "form#edit", url.Values{"title": {""}, "body": {"Kept in the form"}, "tags": {goTag}})
		if action != page+"/edit" {
			t.Fatalf("the edit form posts to %q", action)
		}
		a = br.submit(action, form)
		wantPage(t, a, http.StatusUnprocessableEntity)
		if got := a.text(".refusal"); got != "Enter the title." {
			t.Errorf("the refusal: got %q: %.1500s", got, a.body)
		}
		if a.text(`#edit textarea[name="body"]`) != "Kept in the form" || a.doc.Find(`#edit input[name="tags"][checked]`).AttrOr("value", "") != goTag {
			t.Errorf("the refused form lost what was sent: %.2000s", a.body)
		}

		// Saved: back to the page, once with the notice.
		action, form = formOf(t, a, "form#edit", url.Values{"title": {"Edited by the admin"}, "tags": {goTag, sqlTag}})
		wantRedirect(t, br.submit(action, form), page)
		a = br.get(page)
		if a.text("#notice") != "The post was saved." || a.doc.Find(`#edit input[name="title"]`).AttrOr("value", "") != "Edited by the admin" ||
			a.doc.Find(`#edit input[name="tags"][checked]`).Length() != 2 || a.text(`#edit textarea[name="body"]`) != "Kept in the form" {
			t.Errorf("after saving: %.2000s", a.body)
		}
		if a = br.get(page); a.text("#notice") != "" {
			t.Error("the notice shows twice")
		}
		status, out := b.api("GET", "/api/v1/posts/"+strconv.FormatInt(id, 10), bobToken, nil)
		data, _ := out["data"].(map[string]any)
		attrs, _ := data["attributes"].(map[string]any)
		rels, _ := data["relationships"].(map[string]any)
		if tags, _ := rels["tags"].([]any); status != http.StatusOK || attrs["title"] != "Edited by the admin" || attrs["status"] != "draft" || len(tags) != 2 {
			t.Errorf("the API's post after the edit: %d %v", status, out)
		}

		// The form of the page read before the save is stale now.
		action, form = formOf(t, stale, "form#edit", url.Values{"title": {"Overwritten"}})
		wantPage(t, br.submit(action, form), http.StatusPreconditionFailed)

		// Publish from the page, back to it.
		b.stack.Clock.Advance(time.Second)
		action, form = formOf(t, a, "form#publish", nil)
		wantRedirect(t, br.submit(action, form), page)
		a = br.get(page)
		if a.text("#notice") != "The post is published." || a.text("#status") != "published" || a.doc.Find("form#unpublish").Length() != 1 {
			t.Errorf("after publishing: %.2000s", a.body)
		}
		if status, out := b.api("GET", "/api/v1/posts/"+strconv.FormatInt(id, 10), "", nil); status != http.StatusOK {
			t.Errorf("the published post to anybody: %d %v", status, out)
		}

		// A tag that is no number is no form of the page's.
		_, form = formOf(t, a, "form#edit", url.Values{"tags": {"go"}})
		wantPage(t, br.submit(page+"/edit", form), http.StatusBadRequest)
		wantPage(t, br.get("/admin/posts/987654321"), http.StatusNotFound)

		a = br.get("/admin/audit")
		var actions []string
		a.doc.Find("#audit tbody td.action").Each(func(_ int, s *goquery.Selection) { actions = append(actions, strings.TrimSpace(s.Text())) })
		if got := strings.Join(actions, " "); got != "post.publish post.update admin.login" {
			t.Errorf("audit: %s", got)
		}
	})
}
