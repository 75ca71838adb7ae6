package httpapi_test

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/inkwell/inkwell/internal/stacktest"
)

// TestDocsInBrowser opens /docs in a real browser, served by a real
// listener, and checks that Swagger UI renders the operations from files of
// this server alone, and that "Try it out" calls this server.
func TestDocsInBrowser(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	base := h.listen()

	tab := stacktest.Browser(t)

	// Every request the page makes, and every error it reports, such as a
	// resource the Content-Security-Policy refused.
	var (
		mu       sync.Mutex
		requests []string
		problems []string
	)
	err := chromedp.Listen(tab, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				problems = append(problems, "console error")
			}
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				problems = append(problems, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}

	// The deep link opens GET /users, whose "Try it out" is already on.
	op := "#operations-Users-listUsers"
	response := chromedp.CSS(op + " .live-responses-table tr.response .response-col_status")
	err = chromedp.Do(tab,
		chromedp.Navigate(base+"/docs#/Users/listUsers"),
		chromedp.WaitVisible(chromedp.CSS(".opblock-summary-path")),
		chromedp.WaitVisible(chromedp.CSS(op+" .execute")),
	)
	if err != nil {
		t.Fatalf("render GET /users: %v", err)
	}
	// Swagger UI may still be scrolling to the deep-linked operation when
	// its button shows, and a click at where the button was lands beside
	// it; so click until the response shows, as a reader would.
	for attempt := 1; ; attempt++ {
		if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(op+" .execute"))); err != nil {
			t.Fatalf("click Execute on GET /users: %v", err)
		}
		wait, cancel := context.WithTimeout(tab, 10*time.Second)
		err := chromedp.Do(wait, chromedp.WaitVisible(response))
		cancel()
		if err == nil {
			break
		}
		if attempt == 3 || tab.Err() != nil {
			t.Fatalf("try GET /users: no response shown after %d clicks: %v", attempt, err)
		}
	}
	text, err := chromedp.Run(tab, chromedp.TextContent(chromedp.CSS("#swagger-ui")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Inkwell API", "/api/v1/register", "/api/v1/posts/{post}", "/api/v2/posts", "/users", "/products/{id}", "/api/v2/users/{id}", "/openapi.json"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %s", want)
		}
	}
	status, err := chromedp.Run(tab, chromedp.TextContent(response))
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(status) != "200" {
		t.Errorf("Try it out on GET /users: got status %q, want 200", status)
	}

	mu.Lock()
	defer mu.Unlock()
	origin, _ := url.Parse(base)
	var triedUsers bool
	for _, raw := range requests {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "data" && u.Host != origin.Host) {
			t.Errorf("the page requested %s, which is not on this server", raw)
			continue
		}
		triedUsers = triedUsers || u.Path == "/users"
	}
	if !triedUsers {
		t.Errorf("Try it out did not call GET /users on this server; requests: %v", requests)
	}
	for _, p := range problems {
		t.Errorf("the page reported a problem: %s", p)
	}
}
