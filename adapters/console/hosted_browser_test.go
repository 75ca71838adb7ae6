package console_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/inkwell/inkwell/internal/stacktest"
)

// TestHostedPagesInBrowser follows the mailed links in Chromium, with
// the pages' own means (no script), as a person would: the verification
// link says the address is verified, the reset form refuses a mismatch
// and resets the password, and the setup link makes the first admin and lands on the
// console's overview. The browser reports every resource the
// Content-Security-Policy refuses and every script error, and there must
// be none. Screenshots go to testdata/out.
func TestHostedPagesInBrowser(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	b.register("Ada", "ada@example.com")
	resetPath := b.resetLink("ada@example.com")
	verifyPath := b.verificationPath("ada@example.com")
	setupPath := b.setupLink()
	base := b.listen()
	tab := stacktest.Browser(t)

	// The form shown again with 422 is what its step expects.
	w := watchTab(t, tab, "hosted", func(entry string) bool { return strings.Contains(entry, "status of 422") })
	step := w.step

	text := func(sel string) string {
		t.Helper()
		got, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return got
	}
	var message string
	step("verified",
		chromedp.Navigate(base+verifyPath),
		chromedp.WaitVisible(chromedp.CSS("#message")),
	)
	message = text("#message")
	if !strings.Contains(message, "now verified") {
		t.Errorf("the verification page says %q", message)
	}

	step("reset-form",
		chromedp.EmulateViewport(1024, 800),
		chromedp.Navigate(base+resetPath),
		chromedp.WaitVisible(chromedp.CSS(`#reset input[name="password"]`)),
		chromedp.SendKeys(chromedp.CSS(`#reset input[name="password"]`), "a brand new secret"),
		chromedp.SendKeys(chromedp.CSS(`#reset input[name="password_confirmation"]`), "a different secret"),
		chromedp.Click(chromedp.CSS(`#reset button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(".refusal")),
	)
	step("reset-done",
		chromedp.SendKeys(chromedp.CSS(`#reset input[name="password"]`), "a brand new secret"),
		chromedp.SendKeys(chromedp.CSS(`#reset input[name="password_confirmation"]`), "a brand new secret"),
		chromedp.Click(chromedp.CSS(`#reset button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#message")),
	)
	message = text("#message")
	if !strings.Contains(message, "Your password has been reset") {
		t.Errorf("after the reset the page says %q", message)
	}
	if status, out := b.api("POST", "/api/v1/login", "", map[string]any{"email": "ada@example.com", "password": "a brand new secret"}); status != http.StatusOK {
		t.Errorf("login with the password set in the browser: %d %v", status, out)
	}

	step("setup",
		chromedp.Navigate(base+setupPath),
		chromedp.WaitVisible(chromedp.CSS(`#setup input[name="name"]`)),
		chromedp.SendKeys(chromedp.CSS(`#setup input[name="name"]`), "Root"),
		chromedp.SendKeys(chromedp.CSS(`#setup input[name="email"]`), "root@example.com"),
		chromedp.SendKeys(chromedp.CSS(`#setup input[name="password"]`), password),
		chromedp.SendKeys(chromedp.CSS(`#setup input[name="password_confirmation"]`), password),
		chromedp.Click(chromedp.CSS(`#setup button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#count-users")),
	)
	if admins, err := b.stack.Operator.Admins.List(context.Background()); err != nil || len(admins) != 1 || admins[0].Email != "root@example.com" {
		t.Errorf("admins after the setup in the browser: %v %v", admins, err)
	}

	w.checkReports()
}
