package console_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/inkwell/inkwell/internal/stacktest"
)

// TestConsoleInBrowser drives the console in Chromium, htmx and all, as an
// operator would: sign in, find a user, revoke their token, unpublish
// their post. The browser reports every resource the
// Content-Security-Policy refuses and every script error, and there must
// be none. A screenshot of each step is kept in testdata/out (ignored by
// git) and its path logged.
func TestConsoleInBrowser(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	b.register("Ada", "ada@example.com")
	b.grant("ada@example.com")
	bobID, bobToken := b.register("Bob Builder", "bob@example.com")
	postID := b.post(bobToken, "Bob's first post", "published")
	base := b.listen()
	tab := stacktest.Browser(t)

	w := watchTab(t, tab, "console", nil)
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

	user := "/admin/users/" + strconv.FormatInt(bobID, 10)
	step("find-user",
		chromedp.Click(chromedp.CSS(`a[href="/admin/users"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#search input[name="q"]`)),
		chromedp.SendKeys(chromedp.CSS(`#search input[name="q"]`), "builder"),
		chromedp.Click(chromedp.CSS(`#search button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#users a[href="`+user+`"]`)),
		chromedp.Click(chromedp.CSS(`#users a[href="`+user+`"]`)),
		chromedp.WaitVisible(chromedp.CSS("#tokens tbody form button")),
	)

	step("revoke-token",
		chromedp.Click(chromedp.CSS("#tokens tbody form button")),
		chromedp.WaitVisible(chromedp.CSS("#notice")),
	)
	if status, _ := b.api("GET", "/api/v1/user", bobToken, nil); status != http.StatusUnauthorized {
		t.Errorf("the token revoked in the browser still works: %d", status)
	}

	row := "#post-" + strconv.FormatInt(postID, 10)
	step("unpublish-post",
		chromedp.Click(chromedp.CSS(`a[href="/admin/posts"]`)),
		chromedp.WaitVisible(chromedp.CSS(row+` form[action$="/unpublish"] button`)),
		chromedp.Click(chromedp.CSS(row+` form[action$="/unpublish"] button`)),
		chromedp.WaitVisible(chromedp.CSS("#notice")),
	)
	if status, _ := b.api("GET", "/api/v1/posts/"+strconv.FormatInt(postID, 10), "", nil); status != http.StatusNotFound {
		t.Errorf("the post unpublished in the browser is still public: %d", status)
	}

	w.checkReports()
}
