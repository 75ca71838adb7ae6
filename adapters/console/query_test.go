package console_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// Every query parameter of every console page passes the core's search
// rule before any store is asked: a NUL or other control character, bytes
// that are not UTF-8, an overlong value or too many parameters are the
// 400 page on every store, where PostgreSQL answered 500 (SQLSTATE 22021)
// and SQLite cut the term at its NUL.
func TestQueryParametersAreChecked(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		adaID, _ := b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		_, token := b.register("Bob", "bob@example.com")
		b.post(token, "Café Olé", "draft")
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		user := "/admin/users/" + strconv.FormatInt(adaID, 10)
		many := strings.Repeat("a=1&", 17)
		for _, path := range []string{
			"/admin/users?q=%00", "/admin/users?q=%ff%fe", "/admin/users?q=%c0%af", "/admin/users?q=a%01b",
			"/admin/users?q=a%09b", "/admin/users?q=%c2%85", "/admin/users?q=" + strings.Repeat("q", 256),
			"/admin/users?q=" + strings.Repeat("%c3%a9", 256), "/admin/users?" + many,
			"/admin/posts?q=%00", "/admin/posts?q=a%00b&status=draft", "/admin/posts?q=%ff&status=published",
			"/admin/posts?status=%00", "/admin/posts?status=draft%1b", "/admin/posts?page=%c0%af",
			"/admin/comments?post=%00", "/admin/comments?user=%ff", "/admin/comments?post=1&page=1%7f",
			"/admin/webhooks?page=%00", "/admin/webhooks/1?page=%ff", "/admin/mails?x=%00", "/admin/audit?%00=1",
			"/admin?q=%1b", user + "?tab=%ff%fe", "/admin/users.csv?q=%00", "/admin/posts.csv?x=%c0%af",
		} {
			a := br.get(path)
			wantPage(t, a, http.StatusBadRequest)
			if a.doc == nil || a.doc.Find("#error").AttrOr("data-status", "") != "400" {
				t.Errorf("%s: not the 400 page: %.300s", path, a.body)
			}
		}
		// A well-formed term of the bound's length, in any script, is a
		// search, and the page shows it.
		for _, tc := range []struct {
			path string
			rows int
		}{
			{"/admin/posts?q=caf%c3%a9&status=draft", 1},
			{"/admin/posts?q=" + strings.Repeat("%c3%a9", 255), 0},
			{"/admin/users?q=%e2%80%aebob", 0},
			{"/admin/users?q=+bob+", 1},
		} {
			a := br.get(tc.path)
			wantPage(t, a, http.StatusOK)
			if a.doc == nil {
				continue
			}
			if got := a.doc.Find("tbody tr[id], #users tbody tr:has(a)").Length(); got != tc.rows {
				t.Errorf("%s: %d rows, want %d", tc.path, got, tc.rows)
			}
		}
	})
}

// The CSRF token is read from the form's body only: in the query string,
// where it would reach access logs, proxies and Referer headers, it opens
// nothing. The action answers 419, the post stays published and no audit
// row is written; the same token in a urlencoded or multipart body works.
// The admin's password in the query string deletes no account either.
func TestTokenOnlyInTheBody(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		bobID, token := b.register("Bob", "bob@example.com")
		postID := b.post(token, "Kept", "published")
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		br.get("/admin/posts")
		unpublish := "/admin/posts/" + strconv.FormatInt(postID, 10) + "/unpublish"
		// The posts page offers to unpublish a published post only.
		status := func() string {
			t.Helper()
			a := br.get("/admin/posts")
			if a.doc.Find(`form[action="`+unpublish+`"]`).Length() == 1 {
				return "published"
			}
			return "draft"
		}

		a := br.postRaw(unpublish+"?_token="+br.token, "", "Origin", origin, "Sec-Fetch-Site", "same-origin")
		wantPage(t, a, 419)
		a = br.postRaw(unpublish+"?_token="+br.token, "back=%2Fadmin", "Origin", origin, "Sec-Fetch-Site", "same-origin")
		wantPage(t, a, 419)
		if got := status(); got != "published" {
			t.Errorf("after a token in the query string the post is %q", got)
		}
		a = br.get("/admin/audit")
		if n := a.doc.Find("#audit tbody td.action").Length(); n != 1 {
			t.Errorf("%d audit rows, want only the login", n)
		}

		// A forged token in the query string does not override the body's.
		user := "/admin/users/" + strconv.FormatInt(bobID, 10)
		br.get(user)
		a = br.postRaw(user+"/delete?_token=forged&password="+strings.ReplaceAll(password, " ", "+"),
			"_token="+br.token, "Origin", origin, "Sec-Fetch-Site", "same-origin")
		if a.status == http.StatusSeeOther {
			t.Errorf("the password in the query string deleted the account")
		}
		wantPage(t, br.get(user), http.StatusOK)

		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		_ = mw.WriteField("_token", br.token)
		_ = mw.Close()
		req := httptest.NewRequest("POST", origin+unpublish, &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Origin", origin)
		wantRedirect(t, br.do(req), "/admin/posts")
		if got := status(); got != "draft" {
			t.Errorf("after a multipart form with the token the post is %q", got)
		}
	})
}
