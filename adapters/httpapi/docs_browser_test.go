package httpapi_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"sort"
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

// TestDocsFirstScreen opens /docs at a laptop's viewport and checks that the
// first screen shows the operations and the Authorize button, not pages of
// prose: the policies that apply to every operation live in tag sections
// after the operations, and info.description keeps a short introduction.
// The screenshot of that first screen is kept in testdata/out (ignored by
// git) for a reader to look at.
func TestDocsFirstScreen(t *testing.T) {
	h := newHarness(t, stores[0].Open(t), options{})
	base := h.listen()
	tab := stacktest.Browser(t)

	const width, height = 1280, 800
	err := chromedp.Do(tab,
		chromedp.EmulateViewport(width, height),
		chromedp.Navigate(base+"/docs"),
		chromedp.WaitVisible(chromedp.CSS(".opblock .opblock-summary-path")),
		chromedp.WaitVisible(chromedp.CSS(".auth-wrapper .btn.authorize")),
	)
	if err != nil {
		t.Fatalf("render /docs: %v", err)
	}

	// Where the first operation and the Authorize button lie, the size of
	// the viewport, and the words the page shows before the first
	// operation.
	type box struct{ Top, Bottom, Left, Right float64 }
	type layout struct {
		Operation, Authorize box
		Width, Height        float64
		ScrollY              float64
		WordsBefore          int
		FirstPath            string
		// Sections maps the tag sections that follow the last operation
		// of a tag, the policies, to their text.
		Sections map[string]string
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[layout](`(() => {
		const rect = el => { const r = el.getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right}; };
		const op = document.querySelector(".opblock");
		const before = document.createRange();
		before.setStart(document.querySelector("#swagger-ui"), 0);
		before.setEndBefore(op);
		return {
			Operation: rect(op.querySelector(".opblock-summary")),
			Authorize: rect(document.querySelector(".auth-wrapper .btn.authorize")),
			Width: window.innerWidth, Height: window.innerHeight, ScrollY: window.scrollY,
			WordsBefore: before.toString().split(/\s+/).filter(w => w !== "").length,
			FirstPath: op.querySelector(".opblock-summary-path").textContent,
			Sections: Object.fromEntries([...document.querySelectorAll(".opblock-tag")]
				.filter(tag => [...document.querySelectorAll(".opblock-tag-section .opblock")].pop().compareDocumentPosition(tag) & Node.DOCUMENT_POSITION_FOLLOWING)
				.map(tag => [tag.dataset.tag, tag.textContent])),
		};
	})()`))
	if err != nil {
		t.Fatalf("measure /docs: %v", err)
	}

	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot /docs: %v", err)
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "out"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "docs-first-screen.png")
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("first screen of /docs at %dx%d: %s; %d words before the first operation (%s)",
		width, height, file, got.WordsBefore, got.FirstPath)

	if got.Width != width || got.Height != height || got.ScrollY != 0 {
		t.Fatalf("viewport %vx%v scrolled to %v, want %dx%d at the top", got.Width, got.Height, got.ScrollY, width, height)
	}
	within := func(b box) bool { return b.Top >= 0 && b.Left >= 0 && b.Bottom <= got.Height && b.Right <= got.Width }
	if !within(got.Operation) {
		t.Errorf("the first operation (%s) lies at %+v, outside the first %dx%d screen", got.FirstPath, got.Operation, width, height)
	}
	if !within(got.Authorize) {
		t.Errorf("the Authorize button lies at %+v, outside the first %dx%d screen", got.Authorize, width, height)
	}
	// The policies moved out of the introduction are still shown, each in
	// a section after the operations.
	for section, phrase := range map[string]string{
		"Areas":                 "Every answer under /api is JSON",
		"Authentication":        "Authorization: Bearer {id}|{secret}",
		"Rate limit":            "X-RateLimit-Remaining",
		"Safe retries":          "Idempotent-Replayed: true",
		"Conditional requests":  "If-Match",
		"Cross-origin requests": "Access-Control-Allow-Credentials: true",
		"Decisions where the specification is silent": "SQLITE_SYNCHRONOUS=full",
	} {
		if text, ok := got.Sections[section]; !ok {
			t.Errorf("no section %q after the operations; sections there: %v", section, sectionNames(got.Sections))
		} else if !strings.Contains(text, phrase) {
			t.Errorf("section %q does not say %q", section, phrase)
		}
	}
}

// sectionNames lists the sections of the page, sorted.
func sectionNames(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
