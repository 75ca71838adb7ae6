package searchtotal

import (
	"strconv"
	"testing"
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
	if len(c.totals) != Size {
		t.Fatalf("the cache holds %d searches, want %d", len(c.totals), Size)
	}
	last := strconv.Itoa(Size + 99)
	if n, ok := c.Get(last, 1); !ok || n != Size+99 {
		t.Errorf("the last search put is not kept: %d, %v", n, ok)
	}
	// Putting a kept search again evicts nothing.
	c.Put(last, 1, 1)
	if len(c.totals) != Size {
		t.Errorf("putting a kept search again left %d searches", len(c.totals))
	}
}
