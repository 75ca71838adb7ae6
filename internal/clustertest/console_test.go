package clustertest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// testConsoleAcrossReplicas is an operator's day on the console of the
// cluster: rights granted with the binary's own command against the
// cluster's database, a sign-in on one replica, and the same cookie used
// on another replica and through the balancer, with each form's _token
// from its page and the Origin a browser sends. What the console does is
// then seen through the API on a third path.
func testConsoleAcrossReplicas(t *testing.T, bin string, env []string, nodes []*replica, lb string) {
	const pass = "console-password1"
	register := func(base, name, email string) string {
		r := call(t, "POST", base+"/api/v1/register", jsonBody(map[string]any{
			"name": name, "email": email, "password": pass, "password_confirmation": pass,
		}))
		r.want(t, http.StatusCreated)
		return "Bearer " + r.body["token"].(string)
	}
	register(nodes[0].url, "Olive Operator", "olive@example.com")
	dana := register(lb, "Dana Console", "dana@example.com")
	cli := call(t, "POST", nodes[1].url+"/api/v1/tokens", jsonBody(map[string]any{"name": "dana-cli"}), "Authorization", dana)
	cli.want(t, http.StatusCreated)
	cliToken := "Bearer " + cli.body["token"].(string)
	post := call(t, "POST", nodes[0].url+"/api/v1/posts", jsonBody(map[string]any{
		"title": "Console target", "body": "B", "status": "published",
	}), "Authorization", dana)
	post.want(t, http.StatusCreated)
	postID := int64(post.body["data"].(map[string]any)["id"].(float64))
	comment := call(t, "POST", fmt.Sprintf("%s/api/v1/posts/%d/comments", nodes[2].url, postID), jsonBody(map[string]any{"body": "<b>Dana</b> was here"}), "Authorization", cliToken)
	comment.want(t, http.StatusCreated)
	commentID := int64(comment.body["data"].(map[string]any)["id"].(float64))

	// The console is closed to an account without rights, which its
	// sign-in refuses as it refuses a wrong password.
	b := &consoleBrowser{jar: map[string]string{}}
	b.signIn(t, nodes[0].url, "olive@example.com", pass).want(t, http.StatusUnprocessableEntity)

	// As an operator grants them: the binary's command on the database.
	grant := exec.Command(bin, "admin", "grant", "--email", "olive@example.com")
	grant.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	grant.Dir = t.TempDir()
	if out, err := grant.CombinedOutput(); err != nil || !bytes.Contains(out, []byte("olive@example.com")) {
		t.Fatalf("inkwell admin grant: %v\n%s", err, out)
	}

	// Signed in on the first replica.
	b = &consoleBrowser{jar: map[string]string{}}
	r := b.signIn(t, nodes[0].url, "olive@example.com", pass)
	r.want(t, http.StatusSeeOther)
	if got := r.header.Get("Location"); got != "/admin" {
		t.Fatalf("sign-in goes to %q, want /admin", got)
	}

	// On the second replica, the same cookie: find Dana, revoke her
	// command-line token.
	r, doc := b.page(t, nodes[1].url, "/admin/users?q=dana+con")
	r.want(t, http.StatusOK)
	link := doc.Find("#users tbody a")
	if link.Length() != 1 || strings.TrimSpace(link.Text()) != "Dana Console" {
		t.Fatalf("search for Dana on %s: %.1500s", nodes[1].url, r.raw)
	}
	userPage := link.AttrOr("href", "")
	r, doc = b.page(t, nodes[1].url, userPage)
	r.want(t, http.StatusOK)
	var revoke *goquery.Selection
	doc.Find("#tokens tbody tr").Each(func(_ int, row *goquery.Selection) {
		if strings.TrimSpace(row.Find("td").Eq(1).Text()) == "dana-cli" {
			revoke = row.Find("form")
		}
	})
	if revoke == nil || revoke.Length() != 1 {
		t.Fatalf("no revoke form for dana-cli on %s: %.2000s", userPage, r.raw)
	}
	r = b.submit(t, nodes[1].url, revoke)
	r.want(t, http.StatusSeeOther)
	if got := r.header.Get("Location"); got != userPage {
		t.Errorf("the revoke goes back to %q, want %q", got, userPage)
	}
	// A third path: the API on the third replica and through the
	// balancer refuses the token; Dana's other token still works.
	call(t, "GET", nodes[2].url+"/api/v1/user", nil, "Authorization", cliToken).want(t, http.StatusUnauthorized)
	call(t, "GET", lb+"/api/v1/user", nil, "Authorization", cliToken).want(t, http.StatusUnauthorized)
	call(t, "GET", nodes[2].url+"/api/v1/user", nil, "Authorization", dana).want(t, http.StatusOK)

	// The post is in the public list before the console unpublishes it.
	publicIDs := func(base string) []int64 {
		r := call(t, "GET", base+"/api/v1/posts", nil)
		r.want(t, http.StatusOK)
		var ids []int64
		data, _ := r.body["data"].([]any)
		for _, d := range data {
			if m, ok := d.(map[string]any); ok {
				id, _ := m["id"].(float64)
				ids = append(ids, int64(id))
			}
		}
		return ids
	}
	// Anonymous reads may come from the standby, up to its lag behind.
	waitPublic := func(base string, listed bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for slices.Contains(publicIDs(base), postID) != listed {
			if time.Now().After(deadline) {
				t.Fatalf("post %d listed on %s: got %v, want %v within 10s", postID, base, !listed, listed)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitPublic(nodes[2].url, true)

	// Through the balancer, the same cookie: the comment shows on the
	// list of the post's comments as text, and the post is unpublished.
	r, doc = b.page(t, lb, "/admin/comments?post="+strconv.FormatInt(postID, 10))
	r.want(t, http.StatusOK)
	if got := doc.Find("#comment-" + strconv.FormatInt(commentID, 10) + " td.body").Text(); got != "<b>Dana</b> was here" {
		t.Errorf("the comment's body through the balancer: %q in %.1500s", got, r.raw)
	}
	r, doc = b.page(t, lb, "/admin/posts?status=published&q=console+target")
	r.want(t, http.StatusOK)
	unpublish := doc.Find("#post-" + strconv.FormatInt(postID, 10) + ` form[action$="/unpublish"]`)
	if unpublish.Length() != 1 {
		t.Fatalf("no unpublish form for post %d: %.2000s", postID, r.raw)
	}
	r = b.submit(t, lb, unpublish)
	r.want(t, http.StatusSeeOther)
	waitPublic(nodes[2].url, false)
	waitPublic(lb, false)
	call(t, "GET", fmt.Sprintf("%s/api/v1/posts/%d", nodes[1].url, postID), nil, "Authorization", dana).want(t, http.StatusOK)

	// The audit log, read on the third replica, holds both actions.
	r, doc = b.page(t, nodes[2].url, "/admin/audit")
	r.want(t, http.StatusOK)
	var actions []string
	doc.Find("#audit tbody td.action").Each(func(_ int, s *goquery.Selection) { actions = append(actions, strings.TrimSpace(s.Text())) })
	if got := strings.Join(actions, " "); !strings.HasPrefix(got, "post.unpublish token.revoke admin.login") {
		t.Errorf("audit: %s", got)
	}
}

// consoleBrowser is a browser on the console: it keeps cookies across
// hosts (a browser's cookies ignore the port), follows no redirect, and
// posts forms as their page would, with the page's _token and Origin.
type consoleBrowser struct{ jar map[string]string }

var noRedirects = &http.Client{
	Timeout:       20 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

func (b *consoleBrowser) do(t *testing.T, method, base, path string, form url.Values) response {
	t.Helper()
	var body *strings.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	} else {
		body = strings.NewReader("")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", base)
	}
	for k, v := range b.jar {
		req.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatalf("%s %s%s: %v", method, base, path, err)
	}
	defer resp.Body.Close()
	var raw bytes.Buffer
	if _, err := raw.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	for _, c := range resp.Cookies() {
		if c.Value == "" || c.MaxAge < 0 || (!c.Expires.IsZero() && c.Expires.Before(time.Now())) {
			delete(b.jar, c.Name)
		} else {
			b.jar[c.Name] = c.Value
		}
	}
	return response{status: resp.StatusCode, header: resp.Header, raw: raw.Bytes()}
}

// page gets a console page and parses it.
func (b *consoleBrowser) page(t *testing.T, base, path string) (response, *goquery.Document) {
	t.Helper()
	r := b.do(t, http.MethodGet, base, path, nil)
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(r.raw))
	if err != nil {
		t.Fatal(err)
	}
	return r, doc
}

// submit posts a form of a page with its fields, _token included.
func (b *consoleBrowser) submit(t *testing.T, base string, form *goquery.Selection) response {
	t.Helper()
	values := url.Values{}
	form.Find("input[name]").Each(func(_ int, in *goquery.Selection) {
		values.Add(in.AttrOr("name", ""), in.AttrOr("value", ""))
	})
	if values.Get("_token") == "" {
		t.Fatalf("the form to %s carries no _token", form.AttrOr("action", ""))
	}
	return b.do(t, http.MethodPost, base, form.AttrOr("action", ""), values)
}

// signIn fills the sign-in form of base.
func (b *consoleBrowser) signIn(t *testing.T, base, email, password string) response {
	t.Helper()
	r, doc := b.page(t, base, "/admin/login")
	r.want(t, http.StatusOK)
	form := doc.Find(`form[action="/admin/login"]`)
	form.Find(`input[name="email"]`).SetAttr("value", email)
	form.Find(`input[name="password"]`).SetAttr("value", password)
	return b.submit(t, base, form)
}
