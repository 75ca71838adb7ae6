package console_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/inkwell/inkwell/internal/stacktest"
)

// TestTagsInBrowser renames a tag in Chromium, htmx and all, as an
// operator would: sign in, open the Tags page from the nav, sort it by
// posts, rename a tag in its row. The browser reports no refused resource
// and no script error, and the API shows the new name on the tag's post.
// A screenshot of each step is kept in testdata/out (ignored by git).
func TestTagsInBrowser(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	b.register("Ada", "ada@example.com")
	b.grant("ada@example.com")
	_, bobToken := b.register("Bob", "bob@example.com")
	tag := b.apiTag(bobToken, "Golnag")
	b.apiTag(bobToken, "Rust")
	code, out := b.api("POST", "/api/v1/posts", bobToken, map[string]any{"title": "Tagged", "body": "B", "status": "published", "tags": []int64{tag}})
	if code != 201 {
		t.Fatalf("create post: %d %v", code, out)
	}
	postID := int64(out["data"].(map[string]any)["id"].(float64))
	base := b.listen()
	tab := stacktest.Browser(t)

	w := watchTab(t, tab, "tags", nil)
	step := w.step
	step("sign-in",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(base+"/admin"),
		chromedp.WaitVisible(chromedp.CSS(`#login input[name="email"]`)),
		chromedp.SendKeys(chromedp.CSS(`#login input[name="email"]`), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS(`#login input[name="password"]`), password),
		chromedp.Click(chromedp.CSS(`#login button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#count-users")),
	)
	step("tags-page",
		chromedp.Click(chromedp.CSS(`nav a[href="/admin/tags"]`)),
		chromedp.WaitVisible(chromedp.CSS("#tags")),
		chromedp.Click(chromedp.CSS(`#tags th a[data-field="posts"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#tags th[aria-sort="ascending"] a[data-field="posts"]`)),
	)
	row := "#tag-" + strconv.FormatInt(tag, 10)
	step("rename-tag",
		chromedp.Clear(chromedp.CSS(row+` form.rename input[name="name"]`)),
		chromedp.SendKeys(chromedp.CSS(row+` form.rename input[name="name"]`), "Golang"),
		chromedp.Click(chromedp.CSS(row+` form.rename button`)),
		chromedp.WaitVisible(chromedp.CSS("#notice")),
	)
	name, err := chromedp.Run(tab, chromedp.TextContent(chromedp.CSS(row+" td.name")))
	if err != nil {
		t.Fatal(err)
	}
	sorted, err := chromedp.Run(tab, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if name != "Golang" {
		t.Errorf("the row after the rename shows %q", name)
	}
	if sorted != base+"/admin/tags?sort=posts" {
		t.Errorf("the rename came back to %q, want the page sorted by posts", sorted)
	}
	if got := b.apiPostTags(postID); !slices.Equal(got, []string{"Golang"}) {
		t.Errorf("the API's tags of the post after the rename in the browser: %q", got)
	}
	w.checkReports()
}
