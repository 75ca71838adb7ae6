package console_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/inkwell/inkwell/internal/stacktest"
)

// TestEditPostInBrowser drives a post's page in Chromium as an operator
// would: open a draft from the posts page, retitle it, tag it and save,
// then publish it, each step back on the post's page with its notice.
// Screenshots of each step are kept in testdata/out, and the browser must
// report no script error and nothing the Content-Security-Policy refuses.
func TestEditPostInBrowser(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	b.register("Ada", "ada@example.com")
	b.grant("ada@example.com")
	_, bobToken := b.register("Bob Builder", "bob@example.com")
	if status, out := b.api("POST", "/api/v1/tags", bobToken, map[string]any{"name": "golang"}); status != http.StatusCreated {
		t.Fatalf("tag: %d %v", status, out)
	}
	postID := b.post(bobToken, "Bob's draft", "draft")
	id := strconv.FormatInt(postID, 10)
	base := b.listen()
	tab := stacktest.Browser(t)

	w := watchTab(t, tab, "post-edit", nil)
	step := w.step

	step("sign-in",
		chromedp.EmulateViewport(1280, 1100),
		chromedp.Navigate(base+"/admin/login"),
		chromedp.WaitVisible(chromedp.CSS(`#login input[name="email"]`)),
		chromedp.SendKeys(chromedp.CSS(`#login input[name="email"]`), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS(`#login input[name="password"]`), password),
		chromedp.Click(chromedp.CSS(`#login button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#count-users")),
	)
	step("open-post",
		chromedp.Click(chromedp.CSS(`a[href="/admin/posts"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#post-`+id+` a.post`)),
		chromedp.Click(chromedp.CSS(`#post-`+id+` a.post`)),
		chromedp.WaitVisible(chromedp.CSS(`#edit input[name="title"]`)),
	)
	step("edit-post",
		chromedp.Clear(chromedp.CSS(`#edit input[name="title"]`)),
		chromedp.SendKeys(chromedp.CSS(`#edit input[name="title"]`), "Edited in the console"),
		chromedp.Click(chromedp.CSS(`#edit input[name="tags"]`)),
		chromedp.Click(chromedp.CSS(`#edit button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#notice")),
	)
	title, err := chromedp.Run(tab, chromedp.Value(chromedp.CSS(`#edit input[name="title"]`)))
	if err != nil || title != "Edited in the console" {
		t.Errorf("the title after saving: got %q, %v", title, err)
	}
	step("publish-post",
		chromedp.Click(chromedp.CSS(`#publish button`)),
		chromedp.WaitVisible(chromedp.CSS(`#unpublish button`)),
	)
	status, out := b.api("GET", "/api/v1/posts/"+id, "", nil)
	data, _ := out["data"].(map[string]any)
	attrs, _ := data["attributes"].(map[string]any)
	rels, _ := data["relationships"].(map[string]any)
	if tags, _ := rels["tags"].([]any); status != http.StatusOK || attrs["title"] != "Edited in the console" || len(tags) != 1 {
		t.Errorf("the post edited and published in the browser, to anybody: %d %v", status, out)
	}

	w.checkReports()
}
