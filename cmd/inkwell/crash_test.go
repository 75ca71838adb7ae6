package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres/pgtest"
)

// TestKillNineKeepsWritesAndEventsTogether builds the binary, writes
// products through HTTP from several clients, kills the server with SIGKILL
// in the middle of the writes, starts it again on the same store and checks
// that every acknowledged write was committed with exactly its event, and
// that every event belongs to a committed write: the change and its event
// share one transaction, so no crash can split them.
func TestKillNineKeepsWritesAndEventsTogether(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "inkwell")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, store := range []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return "sqlite://" + filepath.Join(t.TempDir(), "inkwell.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.URL(t) }},
	} {
		t.Run(store.name, func(t *testing.T) {
			url := store.url(t)
			port := freePort(t)
			srv := startBinary(t, bin, url, port)

			acked := map[string]bool{}
			var mu sync.Mutex
			ctx, stopWriting := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Go(func() {
					for i := 0; ctx.Err() == nil; i++ {
						id, ok := createProduct(port, fmt.Sprintf("w%d-%d", w, i))
						if ok {
							mu.Lock()
							acked[id] = true
							mu.Unlock()
						}
					}
				})
			}
			// Kill once some writes were acknowledged, while others run.
			for deadline := time.Now().Add(20 * time.Second); ; {
				mu.Lock()
				n := len(acked)
				mu.Unlock()
				if n >= 50 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("only %d writes acknowledged in 20s", n)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := srv.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = srv.Wait()
			stopWriting()
			wg.Wait()

			startBinary(t, bin, url, port)
			products := productIDs(t, port)
			events := eventProductIDs(t, port)
			for id := range acked {
				if !products[id] {
					t.Errorf("product %s was acknowledged but is gone after the crash", id)
				}
			}
			for id, n := range events {
				if n != 1 {
					t.Errorf("product %s has %d product.created events, want 1", id, n)
				}
				if !products[id] {
					t.Errorf("an event of product %s, which was never committed", id)
				}
			}
			for id := range products {
				if events[id] == 0 {
					t.Errorf("product %s was committed without its event", id)
				}
			}
			t.Logf("%d writes acknowledged, %d committed, before SIGKILL", len(acked), len(products))
		})
	}
}

// startBinary runs the binary on store url and port until the test ends
// and waits until it answers /readyz.
func startBinary(t *testing.T, bin, url string, port int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+url, fmt.Sprintf("PORT=%d", port), "LOG_LEVEL=error")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/readyz", port))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return cmd
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not become ready in 20s: %v\n%s", err, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// createProduct creates a product and returns its id when the server
// acknowledged the write.
func createProduct(port int, name string) (string, bool) {
	body := fmt.Sprintf(`{"name":%q,"price":1}`, name)
	resp, err := http.Post(fmt.Sprintf("http://127.0.0.1:%d/products", port), "application/json", strings.NewReader(body))
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			ID json.Number `json:"id"`
		} `json:"data"`
	}
	if resp.StatusCode != http.StatusCreated || json.NewDecoder(resp.Body).Decode(&out) != nil {
		return "", false
	}
	return out.Data.ID.String(), true
}

func productIDs(t *testing.T, port int) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	for page := 1; ; page++ {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/products?limit=1000&page=%d", port, page))
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Data []struct {
				ID json.Number `json:"id"`
			} `json:"data"`
		}
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range out.Data {
			ids[p.ID.String()] = true
		}
		if len(out.Data) < 1000 {
			return ids
		}
	}
}

// eventProductIDs reads the product events of the stream until it falls
// quiet and counts product.created events per product id.
func eventProductIDs(t *testing.T, port int) map[string]int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("http://127.0.0.1:%d/api/v1/events?topics=products", port), nil)
	req.Header.Set("Last-Event-ID", "0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	counts := map[string]int{}
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				return counts
			}
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			var e struct {
				Type string `json:"type"`
				Data struct {
					ID json.Number `json:"id"`
				} `json:"data"`
			}
			if err := json.Unmarshal([]byte(line[6:]), &e); err != nil {
				t.Fatalf("event %s: %v", line, err)
			}
			if e.Type == "product.created" {
				counts[e.Data.ID.String()]++
			}
		case <-time.After(time.Second):
			return counts
		}
	}
}
