package clustertest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// testCacheAcrossReplicas starts two replicas with the cache of anonymous
// reads on (the service's default), through PgBouncer, with the standby
// for anonymous reads: a post written through writeURL (a replica without
// the cache), then its update, unpublishing and deletion, each reach the
// anonymous readers of both within a second, as each replica's reader of
// the outbox, woken by PostgreSQL's notification, evicts what changed;
// the replica that writes sees its own write at once.
func testCacheAcrossReplicas(t *testing.T, bin string, env []string, writeURL, writer string) {
	cached := []*replica{startReplica(t, bin, env), startReplica(t, bin, env)}
	for _, n := range cached {
		n.waitReady(t)
	}
	post := call(t, "POST", writeURL+"/api/v1/posts", jsonBody(map[string]any{
		"title": "Cached v1", "body": "B", "status": "published",
	}), "Authorization", writer)
	post.want(t, http.StatusCreated)
	path := fmt.Sprintf("/api/v1/posts/%d", int64(post.body["data"].(map[string]any)["id"].(float64)))
	titleOf := func(r response) string {
		if r.status != http.StatusOK {
			return fmt.Sprintf("status %d", r.status)
		}
		return fmt.Sprint(r.body["data"].(map[string]any)["attributes"].(map[string]any)["title"])
	}
	// within waits for every cached replica to answer want, and fails
	// when one has not within a second of the write.
	within := func(what string, want func(response) bool, paths ...string) {
		t.Helper()
		deadline := time.Now().Add(time.Second)
		for _, n := range cached {
			for _, p := range paths {
				for r := call(t, "GET", n.url+p, nil); !want(r); r = call(t, "GET", n.url+p, nil) {
					if time.Now().After(deadline) {
						t.Fatalf("%s%s: %s not served within a second: %d %s", n.url, p, what, r.status, r.raw)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		}
	}
	hasTitle := func(title string) func(response) bool {
		return func(r response) bool { return titleOf(r) == title }
	}
	within("the new post", hasTitle("Cached v1"), path)
	// A read may come before the replica has read the creation's event,
	// which then evicts it; the next read after that is kept.
	within("the post from the cache", func(r response) bool { return r.header.Get("X-Cache") == "HIT" }, path, "/api/v1/posts")

	call(t, "PUT", writeURL+path, jsonBody(map[string]any{"title": "Cached v2"}), "Authorization", writer).want(t, http.StatusOK)
	within("the update", hasTitle("Cached v2"), path)
	within("the update in the list", func(r response) bool { return strings.Contains(string(r.raw), "Cached v2") }, "/api/v1/posts")

	// The replica that writes reads its own write at once.
	own := call(t, "PUT", cached[0].url+path, jsonBody(map[string]any{"title": "Cached v3"}), "Authorization", writer)
	own.want(t, http.StatusOK)
	if r := call(t, "GET", cached[0].url+path, nil); titleOf(r) != "Cached v3" {
		t.Fatalf("the writing replica, at once: %s", titleOf(r))
	}
	within("the other replica's write", hasTitle("Cached v3"), path)

	call(t, "PUT", writeURL+path, jsonBody(map[string]any{"status": "draft"}), "Authorization", writer).want(t, http.StatusOK)
	within("the unpublishing", func(r response) bool { return r.status == http.StatusNotFound }, path)
	call(t, "PUT", writeURL+path, jsonBody(map[string]any{"status": "published"}), "Authorization", writer).want(t, http.StatusOK)
	within("the publishing", hasTitle("Cached v3"), path)
	call(t, "DELETE", writeURL+path, nil, "Authorization", writer).want(t, http.StatusOK)
	within("the deletion", func(r response) bool { return r.status == http.StatusNotFound }, path)
}
