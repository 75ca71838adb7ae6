package httpapi_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// commentIDs lists the ids of a post's comments as the v1 single read
// embeds them.
func commentIDs(post any) []string {
	var ids []string
	for _, c := range post.(map[string]any)["relationships"].(map[string]any)["comments"].([]any) {
		ids = append(ids, jsonNumber(c.(map[string]any)["id"]))
	}
	return ids
}

// listIDs lists the ids of a page of posts or comments.
func listIDs(r response) []string {
	var ids []string
	for _, p := range r.body["data"].([]any) {
		ids = append(ids, jsonNumber(p.(map[string]any)["id"]))
	}
	return ids
}

// trashedFiles lists the files kept in the file store's trash for posts.
func (h *harness) trashedFiles() []string {
	h.t.Helper()
	entries, err := os.ReadDir(filepath.Join(h.storage, ".trash", "posts"))
	if err != nil && !os.IsNotExist(err) {
		h.t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestTrashPostAndRestore(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v1Account("Ann")
		bob, _ := h.v1Account("Bob")
		tag := h.do("POST", "/api/v1/tags", map[string]any{"name": "Go"}, as(ann)...)
		tag.expect(t, http.StatusCreated, nil)
		tagID := tag.body["data"].(map[string]any)["id"]
		r := h.v1Send("POST", "/api/v1/posts", ann, v1Field("title", "Pictured"), v1Field("body", "Body"),
			v1Field("status", "published"), v1Field("tags[]", jsonNumber(tagID)), v1File("image", "a.png", v1PNG(t, 2, 2)))
		r.expect(t, http.StatusCreated, nil)
		id := jsonNumber(r.body["data"].(map[string]any)["id"])
		image := strings.TrimPrefix(v1Attrs(r.body["data"])["image_url"].(string), "http://example.com")
		path := "/api/v1/posts/" + id
		early := h.do("POST", path+"/comments", map[string]any{"body": "early"}, as(bob)...)
		early.expect(t, http.StatusCreated, nil)
		earlyID := jsonNumber(early.body["data"].(map[string]any)["id"])
		kept := h.do("POST", path+"/comments", map[string]any{"body": "kept"}, as(bob)...)
		kept.expect(t, http.StatusCreated, nil)
		keptID := jsonNumber(kept.body["data"].(map[string]any)["id"])
		before := h.do("GET", path, nil)
		before.expect(t, http.StatusOK, nil)

		// A comment trashed alone before its post stays trashed when the
		// post comes back.
		h.do("DELETE", "/api/v1/comments/"+earlyID, nil, as(bob)...).
			expect(t, http.StatusOK, map[string]any{"message": "Comment deleted successfully."})
		h.do("GET", "/api/v1/comments/"+earlyID, nil, as(bob)...).expect(t, http.StatusNotFound, nil)

		h.clock.Advance(time.Second)
		h.do("DELETE", path, nil, as(ann)...).expect(t, http.StatusOK, map[string]any{"message": "Post deleted successfully."})
		// Trashed, the post is nowhere: not found, not listed, not
		// searched, not counted, its comments gone and its image no
		// longer served.
		h.do("GET", path, nil).expect(t, http.StatusNotFound, map[string]any{"message": "Resource not found."})
		h.do("GET", path, nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		h.do("GET", "/api/v1/comments/"+keptID, nil, as(bob)...).expect(t, http.StatusNotFound, nil)
		h.do("GET", path+"/comments", nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		h.do("GET", "/api/v2/posts/"+id, nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		for _, q := range []string{"", "?search=pict", "?status=published"} {
			list := h.do("GET", "/api/v1/posts"+q, nil, as(ann)...)
			list.expect(t, http.StatusOK, nil)
			if ids := listIDs(list); len(ids) != 0 || jsonNumber(list.body["meta"].(map[string]any)["total"]) != "0" {
				t.Errorf("GET /api/v1/posts%s with the post trashed: %v, total %v", q, ids, list.body["meta"])
			}
		}
		v2 := h.do("GET", "/api/v2/posts?tag=go", nil, as(ann)...)
		v2.expect(t, http.StatusOK, nil)
		if ids := listIDs(v2); len(ids) != 0 {
			t.Errorf("GET /api/v2/posts?tag=go with the post trashed: %v", ids)
		}
		h.do("GET", image, nil).expect(t, http.StatusNotFound, nil)
		if files := h.v1StoredImages(); len(files) != 0 {
			t.Errorf("served files of a trashed post: %v", files)
		}
		if files := h.trashedFiles(); len(files) != 1 {
			t.Errorf("files in the trash: %v, want the post's image", files)
		}

		// The author lists the trash; nobody else sees it.
		only := h.do("GET", "/api/v1/posts?trashed=only", nil, as(ann)...)
		only.expect(t, http.StatusOK, nil)
		if ids := listIDs(only); len(ids) != 1 || ids[0] != id {
			t.Fatalf("trashed=only: %v, want [%s]", ids, id)
		}
		attrs := v1Attrs(only.body["data"].([]any)[0])
		if attrs["deleted_at"] == nil || attrs["title"] != "Pictured" {
			t.Errorf("a trashed post in the list: %v", attrs)
		}
		if ids := listIDs(h.do("GET", "/api/v1/posts?trashed=only", nil, as(bob)...)); len(ids) != 0 {
			t.Errorf("Bob's trash: %v, want none", ids)
		}
		h.do("GET", "/api/v1/posts?trashed=only", nil).expect(t, http.StatusUnauthorized, map[string]any{"message": "Unauthenticated."})
		h.do("GET", "/api/v1/posts?trashed=some", nil, as(ann)...).
			expect(t, http.StatusUnprocessableEntity, map[string]any{"errors": map[string]any{"trashed": []string{"The selected trashed is invalid."}}})
		live := h.v1Post(ann, map[string]any{"title": "Live", "body": "b", "status": "published"})
		h.v1Post(bob, map[string]any{"title": "Bob's", "body": "b", "status": "published"})
		with := h.do("GET", "/api/v1/posts?trashed=with&per_page=2", nil, as(ann)...)
		with.expect(t, http.StatusOK, nil)
		if ids := listIDs(with); len(ids) != 2 || jsonNumber(with.body["meta"].(map[string]any)["total"]) != "3" {
			t.Errorf("trashed=with: %v, meta %v, want two of three", ids, with.body["meta"])
		}
		with = h.do("GET", "/api/v1/posts?trashed=with&page=2&per_page=2", nil, as(ann)...)
		if ids := listIDs(with); len(ids) != 1 || ids[0] != id {
			t.Errorf("trashed=with, page 2: %v, want the trashed post last", ids)
		}
		h.do("GET", "/api/v1/posts?trashed=with&page=101", nil, as(ann)...).
			expect(t, http.StatusUnprocessableEntity, map[string]any{"errors": map[string]any{"page": []string{"The page field must not be greater than 66."}}})
		with = h.do("GET", "/api/v1/posts?trashed=with&search=live", nil, as(bob)...)
		if ids := listIDs(with); len(ids) != 1 || ids[0] != jsonNumber(live["id"]) {
			t.Errorf("Bob's trashed=with&search=live: %v, want Ann's live post only", ids)
		}

		// Nobody but the author restores; the author gets the post back as
		// it was, with its id, tags and the comments trashed with it.
		h.do("POST", path+"/restore", nil, as(bob)...).expect(t, http.StatusNotFound, nil)
		h.do("POST", "/api/v1/posts/"+jsonNumber(live["id"])+"/restore", nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		back := h.do("POST", path+"/restore", nil, as(ann)...)
		back.expect(t, http.StatusOK, nil)
		if got := commentIDs(back.body["data"]); len(got) != 1 || got[0] != keptID {
			t.Errorf("comments of the restored post: %v, want [%s]", got, keptID)
		}
		show := h.do("GET", path, nil)
		show.expect(t, http.StatusOK, nil)
		if !equalJSON(back.body["data"], show.body["data"]) {
			t.Errorf("restore answered\n\t%v\nGET answers\n\t%v", back.body["data"], show.body["data"])
		}
		wantShow := before.body["data"].(map[string]any)
		wantShow["relationships"].(map[string]any)["comments"] = []any{kept.body["data"]}
		if !equalJSON(show.body["data"], wantShow) {
			t.Errorf("the restored post:\n\t%v\nwant it as it was, without the earlier comment\n\t%v", show.body["data"], wantShow)
		}
		h.do("GET", image, nil).expect(t, http.StatusOK, nil)
		if files := h.trashedFiles(); len(files) != 0 {
			t.Errorf("files in the trash after the restore: %v", files)
		}
		h.do("POST", path+"/restore", nil, as(ann)...).expect(t, http.StatusNotFound, nil)

		// The earlier comment comes back on its own, by whoever could
		// delete it.
		h.do("POST", "/api/v1/comments/"+earlyID+"/restore", nil, as(h.mustAccount("Eve"))...).expect(t, http.StatusNotFound, nil)
		restored := h.do("POST", "/api/v1/comments/"+earlyID+"/restore", nil, as(bob)...)
		restored.expect(t, http.StatusOK, map[string]any{"data": early.body["data"]})
		list := h.do("GET", path+"/comments", nil, as(ann)...)
		if ids := listIDs(list); strings.Join(ids, ",") != earlyID+","+keptID {
			t.Errorf("comments after both restores: %v", ids)
		}
	})
}

// mustAccount registers name and returns its token.
func (h *harness) mustAccount(name string) string {
	h.t.Helper()
	token, _ := h.v1Account(name)
	return token
}

func TestTrashForceDelete(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v1Account("Ann")
		bob, _ := h.v1Account("Bob")
		post := func(title string) (string, string) {
			r := h.v1Send("POST", "/api/v1/posts", ann, v1Field("title", title), v1Field("body", "Body"),
				v1Field("status", "published"), v1File("image", "a.png", v1PNG(t, 2, 2)))
			r.expect(t, http.StatusCreated, nil)
			return jsonNumber(r.body["data"].(map[string]any)["id"]),
				strings.TrimPrefix(v1Attrs(r.body["data"])["image_url"].(string), "http://example.com")
		}
		live, liveImage := post("Live")
		c := h.do("POST", "/api/v1/posts/"+live+"/comments", map[string]any{"body": "hi"}, as(bob)...)
		c.expect(t, http.StatusCreated, nil)
		cid := jsonNumber(c.body["data"].(map[string]any)["id"])
		h.do("DELETE", "/api/v1/comments/"+cid, nil, as(bob)...).expect(t, http.StatusOK, nil)

		h.do("DELETE", "/api/v1/posts/"+live+"?force=maybe", nil, as(ann)...).
			expect(t, http.StatusUnprocessableEntity, map[string]any{"errors": map[string]any{"force": []string{"The force field must be true or false."}}})
		h.do("DELETE", "/api/v1/posts/"+live+"?force=true", nil, as(bob)...).expect(t, http.StatusForbidden, nil)
		h.do("DELETE", "/api/v1/posts/"+live+"?force=true", nil, as(ann)...).
			expect(t, http.StatusOK, map[string]any{"message": "Post deleted successfully."})
		h.do("GET", "/api/v1/posts/"+live, nil).expect(t, http.StatusNotFound, nil)
		h.do("POST", "/api/v1/posts/"+live+"/restore", nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		h.do("POST", "/api/v1/comments/"+cid+"/restore", nil, as(bob)...).expect(t, http.StatusNotFound, nil)
		h.do("GET", liveImage, nil).expect(t, http.StatusNotFound, nil)

		// A trashed post is purged by its author only; to anybody else it
		// does not exist.
		trashed, _ := post("Trashed")
		h.do("DELETE", "/api/v1/posts/"+trashed, nil, as(ann)...).expect(t, http.StatusOK, nil)
		h.do("DELETE", "/api/v1/posts/"+trashed+"?force=true", nil, as(bob)...).expect(t, http.StatusNotFound, nil)
		h.do("DELETE", "/api/v1/posts/"+trashed, nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		h.do("DELETE", "/api/v1/posts/"+trashed+"?force=1", nil, as(ann)...).expect(t, http.StatusOK, nil)
		h.do("POST", "/api/v1/posts/"+trashed+"/restore", nil, as(ann)...).expect(t, http.StatusNotFound, nil)
		if files := h.v1StoredImages(); len(files) != 0 {
			t.Errorf("served files after the purges: %v", files)
		}
		if files := h.trashedFiles(); len(files) != 0 {
			t.Errorf("files in the trash after the purges: %v", files)
		}
		if ids := listIDs(h.do("GET", "/api/v1/posts?trashed=only", nil, as(ann)...)); len(ids) != 0 {
			t.Errorf("the trash after the purges: %v", ids)
		}

		// Version 2: 204 for both, and its own restore.
		v2, _ := post("Second version")
		h.do("DELETE", "/api/v2/posts/"+v2, nil, as(ann)...).expect(t, http.StatusNoContent, nil)
		h.do("POST", "/api/v2/posts/"+v2+"/restore", nil, as(bob)...).expect(t, http.StatusNotFound, nil)
		back := h.do("POST", "/api/v2/posts/"+v2+"/restore", nil, as(ann)...)
		back.expect(t, http.StatusOK, nil)
		if !equalJSON(back.body["data"], h.do("GET", "/api/v2/posts/"+v2, nil, as(ann)...).body["data"]) {
			t.Errorf("v2 restore answered %v, not what GET answers", back.body["data"])
		}
		h.do("DELETE", "/api/v2/posts/"+v2+"?force=true", nil, as(ann)...).expect(t, http.StatusNoContent, nil)
		h.do("GET", "/api/v2/posts/"+v2, nil, as(ann)...).expect(t, http.StatusNotFound, nil)

		// A comment's purge, live or trashed.
		kept := h.v1Post(ann, map[string]any{"title": "Kept", "body": "b", "status": "published"})
		k := jsonNumber(kept["id"])
		for _, trash := range []bool{false, true} {
			c := h.do("POST", "/api/v1/posts/"+k+"/comments", map[string]any{"body": "bye"}, as(bob)...)
			c.expect(t, http.StatusCreated, nil)
			cid := jsonNumber(c.body["data"].(map[string]any)["id"])
			if trash {
				h.do("DELETE", "/api/v1/comments/"+cid, nil, as(bob)...).expect(t, http.StatusOK, nil)
			}
			h.do("DELETE", "/api/v1/comments/"+cid+"?force=true", nil, as(h.mustAccount("Eve"+cid))...).
				expect(t, map[bool]int{false: http.StatusForbidden, true: http.StatusNotFound}[trash], nil)
			h.do("DELETE", "/api/v1/comments/"+cid+"?force=true", nil, as(bob)...).expect(t, http.StatusOK, nil)
			h.do("POST", "/api/v1/comments/"+cid+"/restore", nil, as(bob)...).expect(t, http.StatusNotFound, nil)
		}
	})
}

func TestTrashEvents(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h = newHarness(t, h.store, options{appURL: "http://inkwell.test"})
		base := h.listen()
		ann, _ := h.v1Account("Ann")
		bob, _ := h.v1Account("Bob")
		annStream := subscribe(t, base, "topics=posts", "Authorization", "Bearer "+ann)
		other := subscribe(t, base, "topics=posts", "Authorization", "Bearer "+bob)

		draft := h.v1Post(ann, map[string]any{"title": "Draft", "body": "b", "status": "draft"})
		published := h.v1Post(ann, map[string]any{"title": "Published", "body": "b", "status": "published"})
		for _, p := range []map[string]any{draft, published} {
			path := "/api/v1/posts/" + jsonNumber(p["id"])
			h.do("DELETE", path, nil, as(ann)...).expect(t, http.StatusOK, nil)
			h.do("POST", path+"/restore", nil, as(ann)...).expect(t, http.StatusOK, nil)
		}
		h.do("DELETE", "/api/v1/posts/"+jsonNumber(published["id"])+"?force=true", nil, as(ann)...).expect(t, http.StatusOK, nil)

		// Whoever could read the post before learns it went to the trash,
		// and whoever can read it after learns it came back, with it.
		got, end := annStream.until("post.deleted")
		want := "post.created post.created post.trashed post.restored post.trashed post.restored"
		if strings.Join(got, " ") != want {
			t.Errorf("Ann's stream: %q, want %q", got, want)
		}
		if jsonNumber(end.data["data"].(map[string]any)["id"]) != jsonNumber(published["id"]) {
			t.Errorf("post.deleted: %v", end.data)
		}
		got, _ = other.until("post.deleted")
		want = "post.created post.trashed post.restored"
		if strings.Join(got, " ") != want {
			t.Errorf("Bob's stream: %q, want %q (Ann's published post's only)", got, want)
		}
		replay := subscribe(t, base, "post="+jsonNumber(published["id"]), "Authorization", "Bearer "+bob, "Last-Event-ID", "0")
		for _, typ := range []string{"post.created", "post.trashed", "post.restored"} {
			m := replay.next()
			if m.event != typ {
				t.Fatalf("replayed %s, want %s", m.event, typ)
			}
			if typ == "post.restored" && !equalJSON(v1Attrs(m.data["data"])["title"], "Published") {
				t.Errorf("post.restored carries %v, want the post", m.data["data"])
			}
		}
	})
}
