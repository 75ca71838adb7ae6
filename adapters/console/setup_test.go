package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// setupLink is the first admin's link serve would log, as a path and
// query below origin.
func (b *bench) setupLink() string {
	b.t.Helper()
	link, ok, err := b.svc.AdminSetup.Link(context.Background(), origin)
	if err != nil || !ok {
		b.t.Fatalf("setup link: %q %v %v", link, ok, err)
	}
	return strings.TrimPrefix(link, origin)
}

// setupForm is the setup form as a browser fills it.
func setupForm(name, email, pass, confirmation string) url.Values {
	return url.Values{"name": {name}, "email": {email}, "password": {pass}, "password_confirmation": {confirmation}}
}

// The setup link opens a form that makes the first admin, verified, and
// signs the browser in; bad input shows the form again with 422; a
// forged or expired link is refused; once an admin exists the link
// answers 410 and makes no other.
func TestSetupPage(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		b.register("Bob", "bob@example.com")
		link := b.setupLink()
		if !strings.HasPrefix(link, "/admin/setup?expires=") || !strings.Contains(link, "&signature=") {
			t.Fatalf("setup link: %q", link)
		}

		br := b.browser()
		login := br.get("/admin/login")
		if got := login.text("#admins-made"); !strings.Contains(got, "inkwell admin create") || !strings.Contains(got, "inkwell admin grant") {
			t.Errorf("the sign-in page on how admins are made: %q", got)
		}
		tampered := link[:len(link)-1] + map[bool]string{true: "0", false: "1"}[!strings.HasSuffix(link, "0")]
		wantPage(t, br.get(tampered), http.StatusForbidden)
		wantPage(t, br.get("/admin/setup"), http.StatusForbidden)

		a := br.get(link)
		wantPage(t, a, http.StatusOK)
		form := a.doc.Find("form#setup")
		if form.AttrOr("action", "") != link {
			t.Errorf("the form posts to %q, want %q", form.AttrOr("action", ""), link)
		}
		for _, name := range []string{"_token", "name", "email", "password", "password_confirmation"} {
			if form.Find(`input[name="`+name+`"]`).Length() != 1 {
				t.Errorf("the setup form has no %s field", name)
			}
		}

		refusals := []struct {
			name string
			form url.Values
			want string
		}{
			{"mismatch", setupForm("Ada", "ada@example.com", "a long secret 1", "a long secret 2"), "confirmation differ"},
			{"short", setupForm("Ada", "ada@example.com", "short", "short"), "at least 8 characters"},
			{"bad e-mail", setupForm("Ada", "not an address", password, password), "valid e-mail"},
			{"no name", setupForm("", "ada@example.com", password, password), "Enter the name"},
			{"taken", setupForm("Bob", "BOB@example.com", password, password), "already uses"},
		}
		for _, r := range refusals {
			a := br.submit(link, r.form)
			wantPage(t, a, http.StatusUnprocessableEntity)
			if got := a.text(".refusal"); !strings.Contains(got, r.want) {
				t.Errorf("%s: refusal %q, want it to say %q", r.name, got, r.want)
			}
		}
		wantPage(t, br.submit(link, setupForm("Ada", "ada@example.com", password, password), "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
		wantPage(t, br.submit(link, url.Values{"_token": {"stale"}, "name": {"Ada"}, "email": {"ada@example.com"}, "password": {password}, "password_confirmation": {password}}), 419)
		if admins, _ := b.stack.Operator.Admins.List(context.Background()); len(admins) != 0 {
			t.Fatalf("refused setups made admins: %v", admins)
		}

		wantRedirect(t, br.submit(link, setupForm("Ada", "ada@example.com", password, password)), "/admin")
		wantPage(t, br.get("/admin"), http.StatusOK)
		admins, err := b.stack.Operator.Admins.List(context.Background())
		if err != nil || len(admins) != 1 || admins[0].Email != "ada@example.com" || admins[0].EmailVerifiedAt == nil {
			t.Fatalf("admins after the setup: %v %v", admins, err)
		}

		other := b.browser()
		wantPage(t, other.get(link), http.StatusGone)
		other.get("/admin/login")
		wantPage(t, other.submit(link, setupForm("Zed", "zed@example.com", password, password)), http.StatusGone)
		if admins, _ := b.stack.Operator.Admins.List(context.Background()); len(admins) != 1 {
			t.Errorf("a second setup made another admin: %v", admins)
		}
		if _, ok, _ := b.svc.AdminSetup.Link(context.Background(), origin); ok {
			t.Error("a setup link is made while an admin exists")
		}
	})
}

// A setup link works for an hour.
func TestSetupLinkExpires(t *testing.T) {
	b := newBench(t, stores[0].Open(t))
	link := b.setupLink()
	br := b.browser()
	wantPage(t, br.get(link), http.StatusOK)
	b.stack.Clock.Advance(time.Hour)
	wantPage(t, br.get(link), http.StatusForbidden)
	wantPage(t, br.submit(link, setupForm("Ada", "ada@example.com", password, password)), http.StatusForbidden)
}

// Setups sent at once through the console make one admin; the others
// answer 410.
func TestConcurrentSetups(t *testing.T) {
	forEachStore(t, func(t *testing.T, b *bench) {
		link := b.setupLink()
		const n = 4
		browsers := make([]*browser, n)
		for i := range browsers {
			browsers[i] = b.browser()
			browsers[i].get(link)
		}
		statuses := make([]int, n)
		var wg sync.WaitGroup
		for i, br := range browsers {
			wg.Go(func() {
				email := string(rune('a'+i)) + "@example.com"
				statuses[i] = br.submit(link, setupForm("Admin", email, password, password)).status
			})
		}
		wg.Wait()
		made := 0
		for _, st := range statuses {
			switch st {
			case http.StatusSeeOther:
				made++
			case http.StatusGone:
			default:
				t.Errorf("a setup answered %d", st)
			}
		}
		admins, err := b.stack.Operator.Admins.List(context.Background())
		if made != 1 || err != nil || len(admins) != 1 {
			t.Errorf("%d setups succeeded, %d admins (%v); want one", made, len(admins), err)
		}
	})
}
