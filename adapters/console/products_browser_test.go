package console_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/inkwell/inkwell/internal/stacktest"
)

// TestProductEditInBrowser edits a product in Chromium, htmx and all, as
// an operator would: sign in, open Products from the nav, search, open the
// product, send a price the form refuses, then save it right. The refusal
// and the notice show on the page, the browser reports no refused
// resource and no script error but the refused form's 422, and area B's API shows the product
// changed. A screenshot of each step is kept in testdata/out (ignored by
// git).
func TestProductEditInBrowser(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	b.register("Ada", "ada@example.com")
	b.grant("ada@example.com")
	pen := b.apiRecord("/api/v1/products", map[string]any{"name": "Fountain pen", "price": 19.99, "stock": 4, "sku": "PEN-1"})
	b.apiRecord("/api/v1/products", map[string]any{"name": "Ink", "price": 5})
	base := b.listen()
	tab := stacktest.Browser(t)

	// The refused form answers 422, which the browser logs as a failed
	// load; nothing else may fail.
	w := watchTab(t, tab, "product", func(entry string) bool { return strings.Contains(entry, "status of 422") })
	step := w.step
	step("sign-in",
		chromedp.EmulateViewport(1280, 1000),
		chromedp.Navigate(base+"/admin"),
		chromedp.WaitVisible(chromedp.CSS(`#login input[name="email"]`)),
		chromedp.SendKeys(chromedp.CSS(`#login input[name="email"]`), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS(`#login input[name="password"]`), password),
		chromedp.Click(chromedp.CSS(`#login button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#count-users")),
	)
	page := "/admin/products/" + strconv.FormatInt(pen, 10)
	step("find-product",
		chromedp.Click(chromedp.CSS(`nav a[href="/admin/products"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#search input[name="q"]`)),
		chromedp.SendKeys(chromedp.CSS(`#search input[name="q"]`), "pen"),
		chromedp.Click(chromedp.CSS(`#search button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#products a[href="`+page+`"]`)),
		chromedp.Click(chromedp.CSS(`#products a[href="`+page+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form#edit input[name="price"]`)),
	)
	step("refused-price",
		chromedp.Clear(chromedp.CSS(`form#edit input[name="price"]`)),
		chromedp.SendKeys(chromedp.CSS(`form#edit input[name="price"]`), "12.345"),
		chromedp.Click(chromedp.CSS(`form#edit button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(".refusal")),
	)
	refusal, err := chromedp.Run(tab, chromedp.TextContent(chromedp.CSS(".refusal")))
	if err != nil {
		t.Fatal(err)
	}
	if refusal != "The price takes at most two decimals." {
		t.Errorf("the refusal reads %q", refusal)
	}
	step("save",
		chromedp.Clear(chromedp.CSS(`form#edit input[name="price"]`)),
		chromedp.SendKeys(chromedp.CSS(`form#edit input[name="price"]`), "24.50"),
		chromedp.Clear(chromedp.CSS(`form#edit input[name="name"]`)),
		chromedp.SendKeys(chromedp.CSS(`form#edit input[name="name"]`), "Fountain pen, gold nib"),
		chromedp.Click(chromedp.CSS(`form#edit button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#notice")),
	)
	where, err := chromedp.Run(tab, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if where != base+page {
		t.Errorf("the save came back to %q, want the product's page", where)
	}
	if got := b.apiRecordData("/api/v1/products", pen); got["name"] != "Fountain pen, gold nib" || got["price"] != 24.5 || got["sku"] != "PEN-1" {
		t.Errorf("the API after the edit in the browser: %v", got)
	}
	w.checkReports()
}
