package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSeedCommand(t *testing.T) {
	t.Setenv("DATABASE_URL", "sqlite://"+filepath.Join(t.TempDir(), "inkwell.db"))
	t.Setenv("BCRYPT_COST", "4")

	var out bytes.Buffer
	if err := run(context.Background(), []string{"seed", "--users", "3", "--posts", "10"}, &out); err != nil {
		t.Fatalf("seed: %v", err)
	}
	// Comments default to three per post.
	want := regexp.MustCompile(`^seeded 3 users, 20 tags, 10 posts with \d+ tag links, 30 comments: \d+ rows in \S+ \(\d+ rows/s\)\n$`)
	if !want.MatchString(out.String()) {
		t.Errorf("seed printed %q, want a match for %s", out.String(), want)
	}

	// A second run refuses the database it filled.
	err := run(context.Background(), []string{"seed", "--users", "3", "--posts", "10"}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "already holds") {
		t.Errorf("second seed: got %v, want a refusal", err)
	}
	for _, args := range [][]string{
		{"seed", "--posts", "-1"},
		{"seed", "--users", "0", "--posts", "5"},
		{"seed", "extra"},
		{"seed", "--bogus"},
	} {
		if err := run(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("inkwell %s: got no error", strings.Join(args, " "))
		}
	}

	base, stop := serveFor(t)
	defer stop()
	status, body := postJSON(t, base+"/api/v1/login", map[string]any{"email": "user2@example.com", "password": "password"})
	token, _ := body["token"].(string)
	if status != http.StatusOK || token == "" {
		t.Fatalf("login as a seeded user: got %d %v, want 200 with a token", status, body)
	}
	resp, err := http.Get(base + "/api/v1/posts?per_page=100")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []json.RawMessage `json:"data"`
		Meta struct {
			Total int `json:"total"`
		} `json:"meta"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || list.Meta.Total == 0 || list.Meta.Total > 10 || len(list.Data) != list.Meta.Total {
		t.Errorf("published posts: got %d, total %d, want 1-10", len(list.Data), list.Meta.Total)
	}
}
