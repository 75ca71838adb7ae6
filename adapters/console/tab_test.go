package console_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// watchedTab drives a Chromium tab step by step, keeping a screenshot of
// each step in testdata/out (ignored by git), and collects what the
// browser reports: script exceptions and error log entries, among them
// every resource the Content-Security-Policy refuses.
type watchedTab struct {
	t      *testing.T
	tab    context.Context
	dir    string
	prefix string

	mu       sync.Mutex
	problems []string
}

// watchTab starts watching tab; screenshots are named prefix-step.png, and
// an error log entry that expected reports true for is no problem.
func watchTab(t *testing.T, tab context.Context, prefix string, expected func(entry string) bool) *watchedTab {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "out"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w := &watchedTab{t: t, tab: tab, dir: dir, prefix: prefix}
	err = chromedp.Listen(tab, func(ev any) {
		w.mu.Lock()
		defer w.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			w.problems = append(w.problems, "exception: "+ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError && (expected == nil || !expected(ev.Entry.Text)) {
				w.problems = append(w.problems, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// step runs actions within 20 seconds, then keeps a screenshot of the tab.
func (w *watchedTab) step(name string, actions ...chromedp.Action[chromedp.Void]) {
	w.t.Helper()
	began := time.Now()
	ctx, cancel := context.WithTimeout(w.tab, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		w.t.Fatalf("%s: %v", name, err)
	}
	shot, err := chromedp.Run(w.tab, chromedp.CaptureScreenshot())
	if err != nil {
		w.t.Fatalf("screenshot %s: %v", name, err)
	}
	file := filepath.Join(w.dir, w.prefix+"-"+name+".png")
	if err := os.WriteFile(file, shot, 0o644); err != nil {
		w.t.Fatal(err)
	}
	w.t.Logf("screenshot of %s: %s (%s)", name, file, time.Since(began).Round(time.Millisecond))
}

// checkReports fails the test for everything the browser reported.
func (w *watchedTab) checkReports() {
	w.t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range w.problems {
		w.t.Errorf("browser reported %s", p)
	}
}
