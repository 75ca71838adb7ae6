package stacktest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium is Debian's Chromium, which browser tests drive.
const chromium = "/usr/bin/chromium"

// Browser starts headless Chromium for t and returns its context, whose
// first tab is open; tabs of their own come from chromedp.NewContext on it.
// Browser tests check what only a browser enforces (CORS, cookies, the
// Content-Security-Policy), so they skip where Chromium is missing, unless
// REQUIRE_BROWSER=1, as in CI, makes them fail instead. The browser lives
// for at most two minutes and closes when t's cleanups run.
func Browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("REQUIRE_BROWSER") == "1" {
			t.Fatalf("REQUIRE_BROWSER=1 but Chromium is missing at %s: %v", chromium, err)
		}
		t.Skipf("Chromium is not installed at %s (apt-get install chromium); set REQUIRE_BROWSER=1 to fail instead of skipping", chromium)
	}

	// The timeout does not come from t.Context, which ends before cleanups
	// run and would kill the browser instead of closing it.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	// Without no-sandbox Chromium does not start as root, as in containers;
	// the other flags turn off the GPU, QUIC and the first-run, update, sync
	// and background network work, none of which a test needs, so that the
	// browser does only what the test asks of it.
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	// Starting the browser now makes a missing or broken Chromium fail
	// here, not in the middle of the first case.
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	// Closing the browser before the temporary directory goes lets it
	// finish writing its profile there; cleanups run last-in first-out, and
	// the directory's removal was registered earlier.
	t.Cleanup(func() { _ = chromedp.Cancel(browser) })
	return browser
}
