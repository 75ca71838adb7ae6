package searchtotal

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestCache(t *testing.T) {
	c := New()
	if _, ok := c.Get("ink", 0); ok {
		t.Fatal("an empty cache returned a total")
	}
	c.Put("ink", 3, 10)
	if n, ok := c.Get("ink", 3); !ok || n != 10 {
		t.Fatalf("Get at the version put = %d, %v; want 10, true", n, ok)
	}
	for _, v := range []int64{2, 4} {
		if _, ok := c.Get("ink", v); ok {
			t.Errorf("Get at version %d returned the total of version 3", v)
		}
	}

	// A total of an older snapshot does not replace the newer ones.
	c.Put("quill", 2, 7)
	if _, ok := c.Get("quill", 2); ok {
		t.Error("a total of an older version was kept")
	}
	if _, ok := c.Get("ink", 3); !ok {
		t.Error("a total of an older version evicted a current one")
	}

	// A newer version drops every total of the older one.
	c.Put("quill", 5, 8)
	if _, ok := c.Get("ink", 5); ok {
		t.Error("a total counted at version 3 was returned at version 5")
	}
	if n, ok := c.Get("quill", 5); !ok || n != 8 {
		t.Errorf("Get(quill, 5) = %d, %v; want 8, true", n, ok)
	}
}

func TestCacheBound(t *testing.T) {
	c := New()
	for i := range Size + 100 {
		c.Put(strconv.Itoa(i), 1, i)
	}
	if len(c.values) != Size {
		t.Fatalf("the cache holds %d searches, want %d", len(c.values), Size)
	}
	last := strconv.Itoa(Size + 99)
	if n, ok := c.Get(last, 1); !ok || n != Size+99 {
		t.Errorf("the last search put is not kept: %d, %v", n, ok)
	}
	// Putting a kept search again evicts nothing.
	c.Put(last, 1, 1)
	if len(c.values) != Size {
		t.Errorf("putting a kept search again left %d searches", len(c.values))
	}
}

// TestShareCountsOnce holds concurrent askers of one search at one version
// to one count, every one of them getting its total, and a later asker
// to the kept total.
func TestShareCountsOnce(t *testing.T) {
	c := New()
	var counts atomic.Int32
	release := make(chan struct{})
	count := func() (int, int64, error) {
		counts.Add(1)
		<-release
		return 42, 7, nil
	}
	const askers = 20
	var wg sync.WaitGroup
	var started sync.WaitGroup
	totals := make([]int, askers)
	started.Add(askers)
	for i := range askers {
		wg.Go(func() {
			started.Done()
			n, _, err := c.Share(t.Context(), "word", 7, count)
			if err != nil {
				t.Errorf("Share: %v", err)
			}
			totals[i] = n
		})
	}
	started.Wait()
	// Every asker is in Share, or about to be; the count waits for the
	// release, so they meet it in flight.
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if got := counts.Load(); got != 1 {
		t.Errorf("counts: got %d, want 1", got)
	}
	for i, n := range totals {
		if n != 42 {
			t.Errorf("asker %d: got %d, want 42", i, n)
		}
	}
	if n, ok := c.Get("word", 7); !ok || n != 42 {
		t.Errorf("Get after Share: got %d, %v, want 42, true", n, ok)
	}
}

// TestShareCountsAgainAtAnotherVersion holds a waiter whose version the
// count did not see to a count of its own.
func TestShareCountsAgainAtAnotherVersion(t *testing.T) {
	c := New()
	release := make(chan struct{})
	inFlight := make(chan struct{})
	go func() {
		_, _, _ = c.Share(t.Context(), "word", 7, func() (int, int64, error) {
			close(inFlight)
			<-release
			return 42, 8, nil
		})
	}()
	<-inFlight
	var own bool
	done := make(chan int)
	go func() {
		n, counted, _ := c.Share(t.Context(), "word", 7, func() (int, int64, error) {
			own = true
			return 43, 7, nil
		})
		if !counted {
			n = -1
		}
		done <- n
	}()
	time.Sleep(20 * time.Millisecond)
	close(release)
	if n := <-done; n != 43 || !own {
		t.Errorf("waiter: got %d (own count %v), want its own count 43", n, own)
	}
}

// A Versioned keeps values at one version: another version forgets them,
// and an older one is not kept. Its zero value is ready.
func TestVersioned(t *testing.T) {
	type bounds struct{ lo, hi int64 }
	var c Versioned[int, bounds]
	if _, ok := c.Get(4096, 0); ok {
		t.Fatal("an empty cache returned a value")
	}
	b := bounds{lo: 1, hi: 9}
	c.Put(4096, 3, b)
	if got, ok := c.Get(4096, 3); !ok || got != b {
		t.Fatalf("Get at the version put = %v, %v; want %v", got, ok, b)
	}
	for _, v := range []int64{2, 4} {
		if _, ok := c.Get(4096, v); ok {
			t.Errorf("Get at version %d returned the value of version 3", v)
		}
	}
	if _, ok := c.Get(8192, 3); ok {
		t.Error("Get of another key returned a value")
	}
	c.Put(8192, 2, b)
	if _, ok := c.Get(8192, 2); ok {
		t.Error("a value of an older version was kept")
	}
	c.Put(8192, 4, b)
	if _, ok := c.Get(4096, 3); ok {
		t.Error("a newer version kept the values of the older")
	}
}
