package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// bidiControls are the characters that reorder the text around them: the
// embeddings and overrides, the isolates, the marks.
const bidiControls = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"

// isolated reports whether n is, or lies inside, an element that keeps
// its text's direction from leaking out: <bdi>, or dir="auto".
func isolated(n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Type != html.ElementNode {
			continue
		}
		if n.Data == "bdi" {
			return true
		}
		for _, a := range n.Attr {
			if a.Key == "dir" && a.Val == "auto" {
				return true
			}
		}
	}
	return false
}

// rawBidi lists every text or attribute value of page that holds a bidi
// control outside an isolated element.
func rawBidi(t *testing.T, page string) []string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			if strings.ContainsAny(n.Data, bidiControls) && !isolated(n.Parent) {
				found = append(found, "<"+n.Parent.Data+">"+strconv.Quote(n.Data))
			}
		case html.ElementNode:
			for _, a := range n.Attr {
				if strings.ContainsAny(a.Val, bidiControls) && !isolated(n) {
					found = append(found, "<"+n.Data+" "+a.Key+">"+strconv.Quote(a.Val))
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return found
}

// No console page shows a bidi control of a user's text outside an
// isolated element, so that a name, a title, a comment, an e-mail, a token
// name or a webhook URL cannot reorder what surrounds it and display as
// another; on the users page, and on an account's, names and e-mails show
// their control characters as code points, so that two that differ only
// by one are told apart.
func TestNoRawBidiOnAnyPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		ctx := context.Background()
		b.register("Ada", "ada@example.com")
		b.grant("ada@example.com")
		eveName := "Eve \u202egnp.exe\u202c \u2067admin\u2069"
		eveID, eve := b.register(eveName, "eve@example.com")
		if code, out := b.api("POST", "/api/v1/tokens", eve, map[string]any{"name": "ci \u202edeen\u200f", "abilities": []string{"posts:read"}}); code != http.StatusCreated {
			t.Fatalf("token: %d %v", code, out)
		}
		postID := b.post(eve, "Title \u202etxet\u202c \u061cend", "published")
		b.comment(eve, postID, "Comment \u202ethat reads backwards\u202c \u2066x\u2069")
		hook := "http://127.0.0.1:1/hook?x=\u202eevil\u202c"
		if code, out := b.api("POST", "/api/v1/webhooks", eve, map[string]any{"url": hook, "events": []string{"post.created"}}); code != http.StatusCreated {
			t.Fatalf("webhook: %d %v", code, out)
		}
		b.post(eve, "Announced \u200e", "published")
		if _, err := b.stack.Webhooks.FanOut(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := b.stack.Webhooks.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
		// An address the API refuses, kept from before its rule or written
		// by another tool, is shown as carefully.
		now := time.Now().UTC().Truncate(time.Microsecond)
		mallory := domain.User{Name: "\u2067Mallory\u2069", Email: "mal\u202emoc.elpmaxe@lory", PasswordHash: "x", CreatedAt: now, UpdatedAt: now}
		if err := b.store.InTx(ctx, func(r ports.Repos) error { return r.Users.Create(ctx, &mallory) }); err != nil {
			t.Fatal(err)
		}

		br := b.browser()
		wantRedirect(t, br.signIn("ada@example.com"), "/admin")
		malloryPage := "/admin/users/" + strconv.FormatInt(mallory.ID, 10)
		br.get(malloryPage)
		wantRedirect(t, br.submit(malloryPage+"/send-reset", nil), malloryPage)

		a := br.get("/admin/webhooks")
		hookID := strings.TrimPrefix(a.doc.Find(`#webhooks a[href^="/admin/webhooks/"]`).First().AttrOr("href", ""), "/admin/webhooks/")
		pages := []string{
			"/admin", "/admin/users", "/admin/users?q=" + url.QueryEscape("\u202eeve"),
			"/admin/users/" + strconv.FormatInt(eveID, 10), malloryPage,
			"/admin/posts", "/admin/posts?q=" + url.QueryEscape("\u202etxet"), "/admin/comments",
			"/admin/comments?post=" + strconv.FormatInt(postID, 10), "/admin/webhooks", "/admin/webhooks/" + hookID,
			"/admin/mails", "/admin/audit",
		}
		shown := map[string]bool{}
		for _, path := range pages {
			a := br.get(path)
			wantPage(t, a, http.StatusOK)
			for _, raw := range rawBidi(t, a.body) {
				t.Errorf("%s: a bidi control outside an isolated element: %s", path, raw)
			}
			for _, want := range []string{"\u202egnp", "\u202etxet", "\u202ethat", "\u202eevil", "\u202edeen", "\u202emoc"} {
				shown[want] = shown[want] || strings.Contains(a.body, want)
			}
		}
		// Each hostile value did reach a page, isolated (the users page
		// shows names and e-mails visibly instead).
		for _, want := range []string{"\u202etxet", "\u202ethat", "\u202eevil", "\u202edeen", "\u202emoc"} {
			if !shown[want] {
				t.Errorf("no page shows %q", want)
			}
		}

		a = br.get("/admin/users")
		for _, want := range []string{"Eve ⟨U+202E⟩gnp.exe⟨U+202C⟩ ⟨U+2067⟩admin⟨U+2069⟩", "mal⟨U+202E⟩moc.elpmaxe@lory", "⟨U+2067⟩Mallory⟨U+2069⟩"} {
			if !strings.Contains(a.doc.Find("#users").Text(), want) {
				t.Errorf("the users page does not show %q: %s", want, a.doc.Find("#users").Text())
			}
		}
		a = br.get(malloryPage)
		if got := a.text("#email"); got != "mal⟨U+202E⟩moc.elpmaxe@lory" {
			t.Errorf("the account's e-mail shows as %q", got)
		}
		if got := a.text("h1"); got != "⟨U+2067⟩Mallory⟨U+2069⟩" {
			t.Errorf("the account's heading shows as %q", got)
		}

		// The sign-in form echoes a refused e-mail in a dir="auto" input.
		other := b.browser()
		other.get("/admin/login")
		a = other.submit("/admin/login", url.Values{"email": {"\u202eada@example.com"}, "password": {"wrong password"}})
		wantPage(t, a, http.StatusUnprocessableEntity)
		for _, raw := range rawBidi(t, a.body) {
			t.Errorf("/admin/login: a bidi control outside an isolated element: %s", raw)
		}
	})
}
