package httpapi_test

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// avatarURL matches the URL of a stored avatar.
var avatarURL = regexp.MustCompile(`^http://example\.com/storage/avatars/[0-9a-f]{32}(\.[a-z]+)$`)

// storedFiles lists the files kept in dir below the storage folder.
func (h *harness) storedFiles(dir string) []string {
	h.t.Helper()
	entries, err := os.ReadDir(filepath.Join(h.storage, dir))
	if err != nil && !os.IsNotExist(err) {
		h.t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestProfileUpdate(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, id := h.v1Account("Ann")
		h.v1Account("Taken")
		h.do("PUT", "/api/v1/user", map[string]any{"name": "X"}).expect(t, http.StatusUnauthorized, map[string]any{"message": "Unauthenticated."})

		r := h.do("PUT", "/api/v1/user", map[string]any{"name": "  Ann Lee  ", "email": "ann@example.com"}, as(token)...)
		r.expect(t, http.StatusOK, map[string]any{"message": "Profile updated successfully."})
		if u := r.body["user"].(map[string]any); u["id"] != id || u["name"] != "Ann Lee" || u["email"] != "ann@example.com" {
			t.Errorf("user: got %v", u)
		}
		if _, has := r.body["token"]; has {
			t.Errorf("a profile update without a password change answers a token: %s", r.raw)
		}

		long := strings.Repeat("a", 256)
		for _, tc := range []struct {
			name string
			body map[string]any
			want map[string][]string
		}{
			{"blank name", map[string]any{"name": "  "}, map[string][]string{"name": {"The name field is required."}}},
			{"null e-mail", map[string]any{"email": nil}, map[string][]string{
				"email": {"The email field is required."}, "current_password": {"The current password field is required."},
			}},
			{"long name, bad e-mail", map[string]any{"name": long, "email": "nope", "current_password": "password1"}, map[string][]string{
				"name":  {"The name field must not be greater than 255 characters."},
				"email": {"The email field must be a valid email address."},
			}},
			{"new e-mail without the current password", map[string]any{"email": "new@example.com"}, map[string][]string{
				"current_password": {"The current password field is required."},
			}},
			{"new e-mail with a wrong current password", map[string]any{"email": "new@example.com", "current_password": "password2"}, map[string][]string{
				"current_password": {"The password is incorrect."},
			}},
			{"e-mail taken, ignoring case", map[string]any{"email": "TAKEN@example.com", "current_password": "password1"}, map[string][]string{
				"email": {"The email has already been taken."},
			}},
			{"password confirmation mismatch", map[string]any{"password": "password2", "password_confirmation": "password3", "current_password": "password1"}, map[string][]string{
				"password": {"The password field confirmation does not match."},
			}},
			{"short password without the current one", map[string]any{"password": "short", "password_confirmation": "short"}, map[string][]string{
				"password":         {"The password field must be at least 8 characters."},
				"current_password": {"The current password field is required."},
			}},
			{"password with a wrong current password", map[string]any{"password": "password2", "password_confirmation": "password2", "current_password": "password2"}, map[string][]string{
				"current_password": {"The password is incorrect."},
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h.do("PUT", "/api/v1/user", tc.body, as(token)...).expect(t, http.StatusUnprocessableEntity, v1Invalid(tc.want))
			})
		}
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, http.StatusOK, map[string]any{"name": "Ann Lee", "email": "ann@example.com"})

		r = h.do("PUT", "/api/v1/user", map[string]any{"email": "Ann.Lee@example.com", "current_password": "password1"}, as(token)...)
		r.expect(t, http.StatusOK, nil)
		if u := r.body["user"].(map[string]any); u["email"] != "Ann.Lee@example.com" {
			t.Errorf("user after an e-mail change: %v", u)
		}
		// The token survives an e-mail change; the new address logs in.
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, http.StatusOK, nil)
		h.login("ann.lee@example.com", "password1")
	})
}

func TestProfilePasswordChange(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.v1Account("Ann")
		bobToken, _ := h.v1Account("Bob")
		login := h.login("ann@example.com", "password1")
		session := h.browser(spaOrigin)
		session.signIn("ann@example.com")
		bobSession := h.browser(spaOrigin)
		bobSession.signIn("bob@example.com")
		// A token that may read posts and change the profile, and no more.
		r := session.do("POST", "/api/v1/tokens", map[string]any{"name": "profile", "abilities": []string{"posts:read", "profile:update"}})
		r.expect(t, http.StatusCreated, nil)
		narrow := r.body["token"].(string)

		r = h.do("PUT", "/api/v1/user", map[string]any{
			"password": "password2", "password_confirmation": "password2", "current_password": "password1",
		}, as(narrow)...)
		r.expect(t, http.StatusOK, map[string]any{"message": "Profile updated successfully."})
		fresh, _ := r.body["token"].(string)
		if !plainToken.MatchString(fresh) {
			t.Fatalf("token after a password change: got %q", fresh)
		}

		// Every earlier token and session of the user is refused; the
		// fresh token works and is as able as the one presented.
		for _, old := range []string{login, narrow} {
			h.do("GET", "/api/v1/user", nil, as(old)...).expect(t, http.StatusUnauthorized, nil)
		}
		session.do("GET", "/api/v1/user", nil).expect(t, http.StatusUnauthorized, nil)
		h.do("GET", "/api/v1/user", nil, as(fresh)...).expect(t, http.StatusOK, map[string]any{"email": "ann@example.com"})
		list := h.do("GET", "/api/v1/tokens", nil, as(fresh)...)
		list.expect(t, http.StatusOK, nil)
		tokens := list.body["data"].([]any)
		if len(tokens) != 1 || !equalJSON(tokens[0].(map[string]any)["abilities"], []any{"posts:read", "profile:update"}) || tokens[0].(map[string]any)["name"] != "auth_token" {
			t.Errorf("tokens after a password change: %s", list.raw)
		}
		// Bob keeps his.
		h.do("GET", "/api/v1/user", nil, as(bobToken)...).expect(t, http.StatusOK, nil)
		bobSession.do("GET", "/api/v1/user", nil).expect(t, http.StatusOK, nil)

		h.do("POST", "/api/v1/login", map[string]any{"email": "ann@example.com", "password": "password1"}).
			expect(t, http.StatusUnprocessableEntity, nil)
		h.login("ann@example.com", "password2")

		// A password change through a browser session ends that session
		// too, expiring its cookies, and answers a token with every ability.
		session.signInWith("ann@example.com", "password2")
		r = session.do("PUT", "/api/v1/user", map[string]any{
			"password": "password3", "password_confirmation": "password3", "current_password": "password2",
		})
		r.expect(t, http.StatusOK, nil)
		if c := setCookies(r)["inkwell_session"]; c == nil || c.Value != "" {
			t.Errorf("session cookie after a password change: %v", c)
		}
		fresh, _ = r.body["token"].(string)
		list = h.do("GET", "/api/v1/tokens", nil, as(fresh)...)
		if tokens := list.body["data"].([]any); len(tokens) != 1 || !equalJSON(tokens[0].(map[string]any)["abilities"], []any{"*"}) {
			t.Errorf("tokens after a session's password change: %s", list.raw)
		}
	})
}

func TestProfileAvatar(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		token, _ := h.v1Account("Ann")
		r := h.v1Send("POST", "/api/v1/user/avatar", token, v1File("avatar", "me.png", v1PNG(t, 2, 2)))
		r.expect(t, http.StatusOK, map[string]any{"message": "Avatar updated successfully."})
		first, _ := r.body["user"].(map[string]any)["avatar_url"].(string)
		if m := avatarURL.FindStringSubmatch(first); m == nil || m[1] != ".png" {
			t.Fatalf("avatar_url: got %q", first)
		}
		if files := h.storedFiles("avatars"); len(files) != 1 || !strings.HasSuffix(first, "/"+files[0]) {
			t.Errorf("stored avatars: %v, want the one of %s", files, first)
		}
		h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, http.StatusOK, map[string]any{"avatar_url": first})

		// A new avatar replaces the old one, whose file goes.
		r = h.v1Send("POST", "/api/v1/user/avatar", token, v1File("avatar", "me.webp", v1WebPLossy(8, 8)))
		r.expect(t, http.StatusOK, nil)
		second, _ := r.body["user"].(map[string]any)["avatar_url"].(string)
		if m := avatarURL.FindStringSubmatch(second); m == nil || m[1] != ".webp" {
			t.Errorf("second avatar_url: got %q", second)
		}
		if files := h.storedFiles("avatars"); len(files) != 1 || !strings.HasSuffix(second, "/"+files[0]) {
			t.Errorf("stored avatars after replacing: %v", files)
		}
		// Posts and comments show it with their author.
		post := h.v1Post(token, map[string]any{"title": "T", "body": "B", "status": "published"})
		author := post["relationships"].(map[string]any)["author"].(map[string]any)
		if v1Attrs(author)["avatar_url"] != second {
			t.Errorf("author of a post: %v", author)
		}

		required := []string{"The avatar field is required."}
		notImage := []string{"The avatar field must be an image.", "The avatar field must be a file of type: jpeg, png, gif, webp."}
		// A valid PNG header followed by padding: an image of 3 MB.
		threeMB := append(v1PNG(t, 2, 2), make([]byte, 3<<20)...)
		for _, tc := range []struct {
			name  string
			parts []v1Part
			want  []string
		}{
			{"missing", []v1Part{v1Field("name", "x")}, required},
			{"text", []v1Part{v1File("avatar", "me.png", []byte("not an image at all"))}, notImage},
			{"a string", []v1Part{v1Field("avatar", "me.png")}, notImage},
			{"3 MB", []v1Part{v1File("avatar", "big.png", threeMB)}, []string{"The avatar field must not be greater than 2048 kilobytes."}},
			{"too many pixels", []v1Part{v1File("avatar", "wide.webp", v1WebPExtended(10001, 1))}, []string{"The avatar field has invalid image dimensions."}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h.v1Send("POST", "/api/v1/user/avatar", token, tc.parts...).
					expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"avatar": tc.want}))
			})
		}
		h.do("POST", "/api/v1/user/avatar", map[string]any{}, as(token)...).
			expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"avatar": required}))
		if files := h.storedFiles("avatars"); len(files) != 1 || !strings.HasSuffix(second, "/"+files[0]) {
			t.Errorf("stored avatars after refused uploads: %v", files)
		}
		h.v1Send("POST", "/api/v1/user/avatar", "", v1File("avatar", "me.png", v1PNG(t, 2, 2))).expect(t, http.StatusUnauthorized, nil)
	})
}

func TestAccountDeletion(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ann, _ := h.v1Account("Ann")
		bob, _ := h.v1Account("Bob")
		h.v1Send("POST", "/api/v1/user/avatar", ann, v1File("avatar", "me.gif", v1GIF(t))).expect(t, http.StatusOK, nil)
		h.v1Send("POST", "/api/v1/user/avatar", bob, v1File("avatar", "me.png", v1PNG(t, 1, 1))).expect(t, http.StatusOK, nil)
		r := h.v1Send("POST", "/api/v1/posts", ann, v1Field("title", "Ann's"), v1Field("body", "B"), v1Field("status", "published"), v1File("image", "a.png", v1PNG(t, 2, 2)))
		r.expect(t, http.StatusCreated, nil)
		annPost := jsonNumber(r.body["data"].(map[string]any)["id"])
		r = h.v1Send("POST", "/api/v1/posts", bob, v1Field("title", "Bob's"), v1Field("body", "B"), v1Field("status", "published"), v1File("image", "b.jpg", v1JPEG(t)))
		r.expect(t, http.StatusCreated, nil)
		bobPost := jsonNumber(r.body["data"].(map[string]any)["id"])
		bobImage := strings.TrimPrefix(v1Attrs(r.body["data"])["image_url"].(string), "http://example.com/storage/posts/")
		h.commentOn(bob, annPost, "Bob on Ann's post")
		h.commentOn(ann, bobPost, "Ann on Bob's post")
		kept := h.commentOn(bob, bobPost, "Bob on his post")
		_, personal := h.v1ReadOnly("Ann")
		login := h.login("ann@example.com", "password1")
		session := h.browser(spaOrigin)
		session.signIn("ann@example.com")
		bobAvatar := h.storedFiles("avatars")
		if len(bobAvatar) != 2 || len(h.storedFiles("posts")) != 2 {
			t.Fatalf("files before: avatars %v, posts %v", bobAvatar, h.storedFiles("posts"))
		}

		h.do("DELETE", "/api/v1/user", map[string]any{}, as(login)...).
			expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"current_password": {"The current password field is required."}}))
		h.do("DELETE", "/api/v1/user", map[string]any{"current_password": "password2"}, as(login)...).
			expect(t, http.StatusUnprocessableEntity, v1Invalid(map[string][]string{"current_password": {"The password is incorrect."}}))
		h.do("DELETE", "/api/v1/user", nil).expect(t, http.StatusUnauthorized, nil)

		r = session.do("DELETE", "/api/v1/user", map[string]any{"current_password": "password1"})
		r.expect(t, http.StatusOK, map[string]any{"message": "Account deleted successfully."})
		if c := setCookies(r)["inkwell_session"]; c == nil || c.Value != "" {
			t.Errorf("session cookie after deleting the account: %v", c)
		}

		// Tokens, sessions, posts and comments are gone, and so are the
		// files; Bob's keep.
		for _, token := range []string{login, personal} {
			h.do("GET", "/api/v1/user", nil, as(token)...).expect(t, http.StatusUnauthorized, nil)
		}
		session.do("GET", "/api/v1/user", nil).expect(t, http.StatusUnauthorized, nil)
		h.do("GET", "/api/v1/posts/"+annPost, nil).expect(t, http.StatusNotFound, nil)
		r = h.do("GET", "/api/v1/posts/"+bobPost+"/comments", nil, as(bob)...)
		r.expect(t, http.StatusOK, nil)
		if comments := r.body["data"].([]any); len(comments) != 1 || comments[0].(map[string]any)["id"] != kept["id"] {
			t.Errorf("comments on Bob's post: %s", r.raw)
		}
		avatars := h.storedFiles("avatars")
		me := h.do("GET", "/api/v1/user", nil, as(bob)...)
		if len(avatars) != 1 || !strings.HasSuffix(me.body["avatar_url"].(string), "/"+avatars[0]) {
			t.Errorf("avatars after deletion: got %v, want Bob's only", avatars)
		}
		if posts := h.storedFiles("posts"); !slices.Equal(posts, []string{bobImage}) {
			t.Errorf("post images after deletion: got %v, want [%s]", posts, bobImage)
		}
		// The address is free again.
		h.v1Account("Ann")
	})
}
