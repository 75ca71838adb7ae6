package console_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/inkwell/inkwell/app"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Sign-in: a wrong password shows the form again, an account without
// admin rights is refused as a wrong password and keeps no session, and an
// admin lands on the
// overview, signed in with an audited login, until signing out.
func TestSignIn(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		b.register("Bob", "bob@example.com")

		br := b.browser()
		br.get("/admin/login")
		a := br.submit("/admin/login", url.Values{"email": {"ada@example.com"}, "password": {"wrong password"}})
		wantPage(t, a, http.StatusUnprocessableEntity)
		if a.text("#login-error") == "" || a.doc.Find(`input[name="email"]`).AttrOr("value", "") != "ada@example.com" {
			t.Errorf("the form does not say why: %.400s", a.body)
		}
		wantRedirect(t, br.get("/admin"), "/admin/login")

		bob := b.browser()
		a = bob.signIn("bob@example.com")
		wantPage(t, a, http.StatusUnprocessableEntity)
		wantRedirect(t, bob.get("/admin"), "/admin/login")

		a = br.signIn("ada@example.com")
		wantRedirect(t, a, "/admin")
		a = br.get("/admin")
		wantPage(t, a, http.StatusOK)
		if got := a.text("#count-users"); got != "2" {
			t.Errorf("users counted: got %q, want 2", got)
		}
		a = br.get("/admin/audit")
		wantPage(t, a, http.StatusOK)
		if got := a.text("#audit tbody td.action"); got != "admin.login" {
			t.Errorf("audit's latest action: got %q, want admin.login", got)
		}

		// Another replica over the same store serves the same session.
		replica := br.b
		br.b = newBench(t, b.store)
		a = br.get("/admin/users")
		wantPage(t, a, http.StatusOK)
		if a.doc.Find("#users tbody tr").Length() != 2 {
			t.Errorf("the other replica's users page: %.500s", a.body)
		}
		br.b = replica

		wantRedirect(t, br.submit("/admin/logout", nil), "/admin/login")
		wantRedirect(t, br.get("/admin"), "/admin/login")
	})
}

// Sign-in shares the API's login throttle: past its attempts the console
// answers its 429 page with Retry-After, and the API refuses that e-mail
// too.
func TestSignInThrottle(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	b.register("Ada", "ada@example.com")
	b.grant("ada@example.com")
	br := b.browser()
	br.get("/admin/login")
	var a answer
	for range 6 {
		a = br.submit("/admin/login", url.Values{"email": {"ada@example.com"}, "password": {"wrong"}})
	}
	wantPage(t, a, http.StatusTooManyRequests)
	if a.header.Get("Retry-After") == "" {
		t.Error("no Retry-After on the 429 page")
	}
	if status, _ := b.api("POST", "/api/v1/login", "", map[string]any{"email": "ada@example.com", "password": password}); status != http.StatusTooManyRequests {
		t.Errorf("the API's login after the console's attempts: %d, want 429", status)
	}
}

// Rights are read on every request: a revoke ends the console session's
// access at once, with the 403 page, and no action goes through.
func TestRevokedAdminIsRefusedAtOnce(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		_, bobToken := b.register("Bob", "bob@example.com")
		postID := b.post(bobToken, "Kept", "published")
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		br.get("/admin/posts")
		if _, err := b.stack.Operator.Admins.Revoke(context.Background(), "ada@example.com"); err != nil {
			t.Fatal(err)
		}
		wantPage(t, br.get("/admin/users"), http.StatusForbidden)
		wantPage(t, br.submit("/admin/posts/"+strconv.FormatInt(postID, 10)+"/unpublish", nil), http.StatusForbidden)
		if status, out := b.api("GET", "/api/v1/posts/"+strconv.FormatInt(postID, 10), "", nil); status != http.StatusOK {
			t.Errorf("the post is gone from the API: %d %v", status, out)
		}
	})
}

// Another user's session cookie opens nothing: a non-admin's browser
// session from the API, put in the console's cookie, is no console
// session and leads to the sign-in form, as a cookie naming no session
// does.
func TestOtherUsersCookies(t *testing.T) {
	forEachStatefulStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		b.register("Bob", "bob@example.com")
		bob := b.browser()
		bob.get("/sanctum/csrf-cookie")
		req := httptest.NewRequest("POST", origin+"/login", strings.NewReader(`{"email":"bob@example.com","password":"`+password+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Origin", origin)
		xsrf, _ := url.QueryUnescape(bob.cookies["XSRF-TOKEN"])
		req.Header.Set("X-XSRF-TOKEN", xsrf)
		if a := bob.do(req); a.status != http.StatusOK {
			t.Fatalf("API session login: %d %s", a.status, a.body)
		}
		stolen := b.browser()
		stolen.cookies["inkwell_admin"] = bob.cookies["inkwell_session"]
		wantRedirect(t, stolen.get("/admin/users"), "/admin/login")
		forged := b.browser()
		forged.cookies["inkwell_admin"] = "not-a-session"
		wantRedirect(t, forged.get("/admin/users"), "/admin/login")
	})
}

// Deleting an account ends its console session at once: another admin
// deletes it, and its next request goes to the sign-in form.
func TestDeletedAdminLosesTheConsoleAtOnce(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		zedID, _ := b.register("Zed", "zed@example.com")
		b.grant("zed@example.com")
		ada, zed := b.browser(), b.browser()
		wantRedirect(t, ada.signIn("ada@example.com"), "/admin")
		wantRedirect(t, zed.signIn("zed@example.com"), "/admin")
		wantPage(t, zed.get("/admin/users"), http.StatusOK)
		user := "/admin/users/" + strconv.FormatInt(zedID, 10)
		ada.get(user)
		wantRedirect(t, ada.submit(user+"/delete", url.Values{"password": {password}}), "/admin/users")
		wantRedirect(t, zed.get("/admin/users"), "/admin/login")
		wantPage(t, zed.submit("/admin/posts/1/delete", nil), 419)
	})
}

// A password reset ends the account's console session at once: the reset
// link another admin sends from the console, used through the API, leaves
// the old session on the sign-in form.
func TestPasswordResetEndsTheConsoleSession(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		adaID, _ := b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		b.register("Zed", "zed@example.com")
		b.grant("zed@example.com")
		ada, zed := b.browser(), b.browser()
		wantRedirect(t, ada.signIn("ada@example.com"), "/admin")
		wantRedirect(t, zed.signIn("zed@example.com"), "/admin")
		user := "/admin/users/" + strconv.FormatInt(adaID, 10)
		zed.get(user)
		wantRedirect(t, zed.submit(user+"/send-reset", nil), user)
		if _, err := b.stack.Mail.SendDue(context.Background()); err != nil {
			t.Fatal(err)
		}
		var match []string
		link := regexp.MustCompile(`/password-reset/([A-Za-z0-9_-]+)\?email=ada%40example.com`)
		for _, m := range b.stack.Inbox.Sent() {
			if found := link.FindStringSubmatch(m.Text); found != nil {
				match = found
			}
		}
		if match == nil {
			t.Fatalf("no reset link was mailed to ada: %v", b.stack.Inbox.Sent())
		}
		status, out := b.api("POST", "/api/v1/reset-password", "", map[string]any{
			"token": match[1], "email": "ada@example.com", "password": "a brand new secret", "password_confirmation": "a brand new secret",
		})
		if status != http.StatusOK {
			t.Fatalf("reset: %d %v", status, out)
		}
		wantRedirect(t, ada.get("/admin"), "/admin/login")
	})
}

// The vertical slice: find a user, see their tokens, revoke one, and the
// API refuses that token afterwards; find a post, unpublish it, and the
// API shows it no more to others; the audit page lists both.
func TestRevokeTokenAndUnpublishPost(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		bobID, bobToken := b.register("Bob Builder", "bob@example.com")
		b.register("Carol", "carol@example.com")
		postID := b.post(bobToken, "Bob's first post", "published")
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")

		a := br.get("/admin/users?q=builder")
		wantPage(t, a, http.StatusOK)
		if n := a.doc.Find("#users tbody tr").Length(); n != 1 || a.text("#users tbody a") != "Bob Builder" {
			t.Fatalf("search for builder: %d rows: %.600s", n, a.body)
		}
		href := a.doc.Find("#users tbody a").AttrOr("href", "")
		if href != "/admin/users/"+strconv.FormatInt(bobID, 10) {
			t.Fatalf("user link %q", href)
		}
		a = br.get(href)
		wantPage(t, a, http.StatusOK)
		if a.text("#email") != "bob@example.com" || a.doc.Find("#tokens tbody form").Length() != 1 || a.doc.Find("#posts tbody tr").Length() != 1 {
			t.Fatalf("user page: %.1500s", a.body)
		}
		action := a.doc.Find("#tokens tbody form").AttrOr("action", "")
		a = br.submit(action, url.Values{"back": {href}})
		wantRedirect(t, a, href)
		a = br.get(href)
		if a.text("#notice") != "The token was revoked." || a.doc.Find("#tokens tbody form").Length() != 0 {
			t.Errorf("after the revoke: %.1500s", a.body)
		}
		if a = br.get(href); a.text("#notice") != "" {
			t.Errorf("the notice shows twice")
		}
		if status, _ := b.api("GET", "/api/v1/user", bobToken, nil); status != http.StatusUnauthorized {
			t.Errorf("the revoked token still works: %d", status)
		}

		a = br.get("/admin/posts?status=published&q=first")
		wantPage(t, a, http.StatusOK)
		row := a.doc.Find("#post-" + strconv.FormatInt(postID, 10))
		if row.Length() != 1 {
			t.Fatalf("post not listed: %.1500s", a.body)
		}
		unpublish := row.Find(`form[action$="/unpublish"]`).AttrOr("action", "")
		version := url.Values{"version": {row.Find(`form[action$="/unpublish"] input[name="version"]`).AttrOr("value", "")}}
		b.stack.Clock.Advance(time.Second) // the unpublish makes a new version
		wantRedirect(t, br.submit(unpublish, version), "/admin/posts")
		a = br.get("/admin/posts?status=draft")
		if a.text("#notice") != "The post is a draft again." || a.doc.Find("#post-"+strconv.FormatInt(postID, 10)).Length() != 1 {
			t.Errorf("after unpublishing: %.1500s", a.body)
		}
		if status, _ := b.api("GET", "/api/v1/posts/"+strconv.FormatInt(postID, 10), "", nil); status != http.StatusNotFound {
			t.Errorf("the unpublished post is still public: %d", status)
		}
		// The button of the page that showed the post published is stale
		// now: it is refused with a page, and changes nothing.
		wantPage(t, br.submit(unpublish, version), http.StatusPreconditionFailed)

		a = br.get("/admin/audit")
		var actions []string
		a.doc.Find("#audit tbody td.action").Each(func(_ int, s *goquery.Selection) { actions = append(actions, strings.TrimSpace(s.Text())) })
		if strings.Join(actions, " ") != "post.unpublish token.revoke admin.login" {
			t.Errorf("audit: %v", actions)
		}
	})
}

// The other actions, each proven through the store and seen in the API.
func TestOtherActions(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		bobID, bobToken := b.register("Bob", "bob@example.com")
		_, _ = b.api("POST", "/api/v1/tokens", bobToken, map[string]any{"name": "second"})
		postID := b.post(bobToken, "To delete", "published")
		other := b.post(bobToken, "Commented", "published")
		status, out := b.api("POST", "/api/v1/posts/"+strconv.FormatInt(other, 10)+"/comments", bobToken, map[string]any{"body": "a comment"})
		if status != http.StatusCreated {
			t.Fatalf("comment: %d %v", status, out)
		}
		data, _ := out["data"].(map[string]any)
		commentID := int64(data["id"].(float64))
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		br.get("/admin")
		user := "/admin/users/" + strconv.FormatInt(bobID, 10)

		wantRedirect(t, br.submit("/admin/comments/"+strconv.FormatInt(commentID, 10)+"/delete", nil), "/admin/comments")
		if status, _ := b.api("GET", "/api/v1/comments/"+strconv.FormatInt(commentID, 10), bobToken, nil); status != http.StatusNotFound {
			t.Errorf("deleted comment: %d", status)
		}
		wantRedirect(t, br.submit("/admin/posts/"+strconv.FormatInt(postID, 10)+"/delete", nil), "/admin/posts")
		if status, _ := b.api("GET", "/api/v1/posts/"+strconv.FormatInt(postID, 10), "", nil); status != http.StatusNotFound {
			t.Errorf("deleted post: %d", status)
		}
		wantRedirect(t, br.submit(user+"/verify", nil), user)
		if _, me := b.api("GET", "/api/v1/user", bobToken, nil); me["email_verified_at"] == nil {
			if d, _ := me["data"].(map[string]any); d == nil || d["email_verified_at"] == nil {
				t.Errorf("not verified: %v", me)
			}
		}
		wantRedirect(t, br.submit(user+"/send-reset", nil), user)
		wantRedirect(t, br.submit(user+"/tokens/revoke", nil), user)
		if status, _ := b.api("GET", "/api/v1/user", bobToken, nil); status != http.StatusUnauthorized {
			t.Errorf("tokens still work after revoking all: %d", status)
		}
		// Deleting needs the admin's own password again.
		a := br.submit(user+"/delete", url.Values{"password": {"not mine"}})
		wantPage(t, a, http.StatusUnprocessableEntity)
		if wantRedirect(t, br.submit(user+"/delete", url.Values{"password": {password}}), "/admin/users"); true {
			if status, _ := b.api("POST", "/api/v1/login", "", map[string]any{"email": "bob@example.com", "password": password}); status == http.StatusOK {
				t.Errorf("the deleted account still logs in")
			}
		}
		a = br.get("/admin/audit")
		var actions []string
		a.doc.Find("#audit tbody td.action").Each(func(_ int, s *goquery.Selection) { actions = append(actions, strings.TrimSpace(s.Text())) })
		want := "user.delete user.tokens.revoke user.send_reset user.verify post.delete comment.delete admin.login"
		if strings.Join(actions, " ") != want {
			t.Errorf("audit: got %v, want %s", actions, want)
		}
	})
}

// Hostile input renders as text, CSV cells that a spreadsheet would run
// are neutralised, and ids of missing records, bad queries and oversized
// forms get a clear page with nothing changed.
func TestHostileInput(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		evil := `<script>alert(1)</script><img src=x onerror=alert(2)>`
		_, token := b.register("=cmd|' /C calc'!A0 "+evil, "mallory@example.com")
		b.post(token, "@SUM(1+1) "+evil, "published")
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")

		for _, path := range []string{"/admin/users", "/admin/posts", "/admin/users?q=" + url.QueryEscape(evil)} {
			a := br.get(path)
			wantPage(t, a, http.StatusOK)
			if a.doc.Find("img, script:not([src])").Length() != 0 || !strings.Contains(a.doc.Text(), evil) {
				t.Errorf("%s: the markup was not shown as text", path)
			}
		}

		for _, tc := range []struct{ path, first string }{{"/admin/users.csv", "'=cmd"}, {"/admin/posts.csv", "'@SUM"}} {
			req := httptest.NewRequest("GET", origin+tc.path, nil)
			a := br.do(req)
			if a.status != http.StatusOK || a.header.Get("Content-Type") != "text/csv; charset=utf-8" {
				t.Fatalf("%s: %d %q", tc.path, a.status, a.header.Get("Content-Type"))
			}
			rows, err := csv.NewReader(strings.NewReader(a.body)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, row := range rows[1:] {
				for _, cell := range row {
					if strings.ContainsAny(cell[:min(len(cell), 1)], "=+-@") {
						t.Errorf("%s: cell %q starts a formula", tc.path, cell)
					}
					found = found || strings.HasPrefix(cell, tc.first)
				}
			}
			if !found {
				t.Errorf("%s: no cell starts %q: %s", tc.path, tc.first, a.body)
			}
		}

		for _, tc := range []struct {
			path   string
			status int
		}{
			{"/admin/users/999999", http.StatusNotFound},
			{"/admin/users/abc", http.StatusNotFound},
			{"/admin/users/-1", http.StatusNotFound},
			{"/admin/users?page=0", http.StatusBadRequest},
			{"/admin/users?page=x", http.StatusBadRequest},
			{"/admin/posts?status=archived", http.StatusBadRequest},
			{"/admin/users?q=" + strings.Repeat("q", 300), http.StatusBadRequest},
		} {
			wantPage(t, br.get(tc.path), tc.status)
		}
		for _, path := range []string{"/admin/posts/999999/unpublish", "/admin/posts/999999/delete", "/admin/comments/999999/delete", "/admin/tokens/999999/revoke", "/admin/webhooks/999999/disable", "/admin/deliveries/999999/retry", "/admin/mails/999999/retry", "/admin/users/999999/verify"} {
			wantPage(t, br.submit(path, nil), http.StatusNotFound)
		}
		// A form over the body limit is refused whole, before any handler,
		// with the console's page, and a malformed one carries no token.
		base := b.listen()
		body := "_token=" + br.token + "&password=" + strings.Repeat("x", 2<<20)
		req, _ := http.NewRequest("POST", base+"/admin/users/1/delete", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Cookie", "inkwell_admin="+br.cookies["inkwell_admin"])
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("oversized form: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		wantPage(t, br.postRaw("/admin/users/1/delete", "%zz=%%&_token", "Origin", origin), 419)
		a := br.get("/admin/audit")
		if n := a.doc.Find("#audit tbody td.action").Length(); n != 1 {
			t.Errorf("%d audit rows, want only the login", n)
		}
	})
}

// A search counts its matches up to app.AdminSearchCount: past it the
// pager says "more than" and still links the next page, and a page beyond
// the bound counts to its own end.
func TestSearchCountsUpToABound(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		adaID, _ := b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		const n = app.AdminSearchCount + 2
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		err := b.store.InTx(t.Context(), func(r ports.Repos) error {
			for i := range n {
				p, err := domain.NewPost(adaID, fmt.Sprintf("Field note %d", i), "<p>x</p>", domain.StatusDraft, start.Add(time.Duration(i)*time.Minute))
				if err != nil {
					return err
				}
				if err := r.Posts.Create(t.Context(), &p); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")

		a := br.get("/admin/posts?q=NOTE")
		wantPage(t, a, http.StatusOK)
		if got, want := a.text(".pager span"), fmt.Sprintf("Page 1 (more than %d in all)", app.AdminSearchCount); got != want {
			t.Errorf("first page pager %q", got)
		}
		if got := strings.TrimSpace(a.doc.Find("#posts tbody tr").First().Find("td").Eq(1).Text()); got != fmt.Sprintf("Field note %d", n-1) {
			t.Errorf("first page starts with %q", got)
		}
		next := a.doc.Find(`.pager a[rel="next"]`).AttrOr("href", "")
		if next != "/admin/posts?page=2&q=NOTE" {
			t.Errorf("next link %q", next)
		}
		// The last page within the bound, and the one after it.
		last := app.AdminSearchCount / 50
		a = br.get(fmt.Sprintf("/admin/posts?q=note&status=draft&page=%d", last))
		if got, want := a.text(".pager span"), fmt.Sprintf("Page %d (more than %d in all)", last, app.AdminSearchCount); got != want || a.doc.Find(`.pager a[rel="next"]`).Length() != 1 {
			t.Errorf("page %d: pager %q", last, got)
		}
		a = br.get(fmt.Sprintf("/admin/posts?q=note&status=draft&page=%d", last+1))
		if got, want := a.text(".pager span"), fmt.Sprintf("Page %d of %d (%d in all)", last+1, last+1, n); got != want || a.doc.Find(`.pager a[rel="next"]`).Length() != 0 {
			t.Errorf("page %d: pager %q", last+1, got)
		}
		if rows := a.doc.Find("#posts tbody tr").Length(); rows != n-app.AdminSearchCount {
			t.Errorf("page %d has %d rows, want %d", last+1, rows, n-app.AdminSearchCount)
		}
		// Fewer matches than the bound are counted exactly.
		a = br.get("/admin/posts?q=note+10")
		if got := a.text(".pager span"); got != "Page 1 of 1 (11 in all)" {
			t.Errorf("exact pager %q", got)
		}
		a = br.get("/admin/posts?q=note&status=published")
		if got := a.text(".pager span"); got != "Page 1 of 1 (0 in all)" {
			t.Errorf("no published match: pager %q", got)
		}
	})
}

// A non-admin's right password gets exactly the answer a wrong password
// gets: the same status, the same page (but for each form's own CSRF
// token) and no cookie set, and leaves no session of the account and no
// audit row; the form's session stays as it was.
func TestNonAdminSignInIsAWrongPassword(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		bobID, _ := b.register("Bob", "bob@example.com")

		attempt := func(pass string) (answer, string) {
			br := b.browser()
			br.get("/admin/login")
			token := br.token
			a := br.submit("/admin/login", url.Values{"email": {"bob@example.com"}, "password": {pass}})
			if br.token != token {
				t.Errorf("password %q: the form's session changed (token %q, then %q)", pass, token, br.token)
			}
			return a, strings.ReplaceAll(a.body, token, "TOKEN")
		}
		wrong, wrongBody := attempt("not bob's password")
		right, rightBody := attempt(password)
		if right.status != wrong.status || rightBody != wrongBody {
			t.Errorf("non-admin: got %d %q; a wrong password got %d %q", right.status, rightBody, wrong.status, wrongBody)
		}
		wantPage(t, right, http.StatusUnprocessableEntity)
		for _, a := range []answer{wrong, right} {
			if got := a.header.Values("Set-Cookie"); len(got) != 0 {
				t.Errorf("the refusal sets cookies: %q", got)
			}
		}
		if got := right.text("#login-error"); got != "These credentials do not match our records." {
			t.Errorf("refusal: got %q", got)
		}
		sessions, err := b.store.Repos().Admin.Sessions(context.Background(), bobID)
		if err != nil || len(sessions) != 0 {
			t.Errorf("bob's sessions after the refusal: %v, %v; want none", sessions, err)
		}
		audit, _, err := b.store.Repos().Admin.Audit(context.Background(), ports.Page{Limit: 10}, 10)
		if err != nil || len(audit) != 0 {
			t.Errorf("audit after the refusal: %v, %v; want nothing", audit, err)
		}
	})
}
