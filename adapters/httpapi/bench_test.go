package httpapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/inkwell/inkwell/adapters/clock"
	"github.com/inkwell/inkwell/adapters/httpapi"
	"github.com/inkwell/inkwell/adapters/localfs"
	"github.com/inkwell/inkwell/adapters/memory"
	"github.com/inkwell/inkwell/adapters/passwords"
	"github.com/inkwell/inkwell/adapters/random"
	"github.com/inkwell/inkwell/app"
)

// TestBenchCeiling checks that /bench/ceiling exists only with
// BenchEndpoints, and then answers exactly 1 KiB of JSON. The harness of the
// other tests never turns it on, so the document test does not see it.
func TestBenchCeiling(t *testing.T) {
	for _, tc := range []struct {
		on   bool
		want int
	}{
		{false, http.StatusNotFound},
		{true, http.StatusOK},
	} {
		srv := benchServer(t, tc.on)
		resp, err := srv.App().Test(httptest.NewRequest(http.MethodGet, "/bench/ceiling", nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Fatalf("BenchEndpoints %v: got %d, want %d", tc.on, resp.StatusCode, tc.want)
		}
		if !tc.on {
			continue
		}
		if len(raw) != 1024 || !json.Valid(raw) {
			t.Errorf("got %d bytes (valid JSON: %v), want 1024 bytes of JSON", len(raw), json.Valid(raw))
		}
		if got := resp.Header.Get("Content-Type"); got != "application/json" {
			t.Errorf("Content-Type: got %q, want application/json", got)
		}
	}
}

// benchServer builds the whole HTTP adapter over the memory store with
// BenchEndpoints set as asked.
func benchServer(t *testing.T, on bool) *httpapi.Server {
	store := memory.New()
	clk := clock.NewFixed(start)
	cfg := app.AccountsConfig{TokenLifetime: time.Hour, LoginMaxAttempts: 5}
	hasher := passwords.NewBcrypt(passwords.Config{Cost: bcrypt.MinCost})
	files := localfs.New(localfs.Config{Dir: t.TempDir()})
	accounts := app.NewAccounts(store, hasher, random.NewSecrets(), clk, cfg)
	return httpapi.New(httpapi.Config{RequestTimeout: time.Second, BodyLimit: 1 << 20, BenchEndpoints: on},
		slog.New(slog.NewTextHandler(io.Discard, nil)), httpapi.Services{
			Store:    store,
			Accounts: accounts,
			Tokens:   app.NewTokens(store, random.NewSecrets(), clk, cfg),
			People:   app.NewPeople(store, clk),
			Products: app.NewProducts(store, clk),
			Posts:    app.NewPosts(store, files, clk),
			Comments: app.NewComments(store, clk),
			Tags:     app.NewTags(store, clk),
			Profile:  app.NewProfile(store, hasher, random.NewSecrets(), files, clk, cfg),
			Sessions: app.NewSessions(store, accounts, random.NewSecrets(), clk, app.SessionsConfig{Lifetime: time.Hour}),
		})
}
