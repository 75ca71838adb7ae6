package domain

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSlugify(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Hello, World!", "hello-world"},
		{"  Café Olé  ", "cafe-ole"},
		{"Straße & Œuvre", "strasse-oeuvre"},
		{"Go 1.26 -- released", "go-1-26-released"},
		{"日本語", "post"},
		{"", "post"},
		{"---", "post"},
	} {
		if got := Slugify(tc.in); got != tc.want {
			t.Errorf("Slugify(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := Slugify(strings.Repeat("ab ", 200)); len(got) > 200 || strings.HasSuffix(got, "-") {
		t.Errorf("long slug: got %d bytes ending %q", len(got), got[len(got)-3:])
	}
}

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<p>Hello   <b>big</b>\n\nworld</p>", "Hello big world"},
		{"plain", "plain"},
		{"a<br>b", "ab"},
		{strings.Repeat("é", 150), strings.Repeat("é", 150)},
		{strings.Repeat("é", 151), strings.Repeat("é", 150) + "..."},
	} {
		if got := Excerpt(tc.in); got != tc.want {
			t.Errorf("Excerpt(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPostLifecycle(t *testing.T) {
	t0 := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	p, err := NewPost(7, "My Title", "<p>Body</p>", StatusDraft, t0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Slug() != "my-title" || p.Excerpt() != "Body" || p.PublishedAt() != nil || p.IsPublished() {
		t.Fatalf("new draft: got %+v", p.State())
	}
	t1 := t0.Add(time.Hour)
	if err := p.SetStatus(StatusPublished, t1); err != nil {
		t.Fatal(err)
	}
	if p.PublishedAt() == nil || !p.PublishedAt().Equal(t1) || !p.UpdatedAt().Equal(t1) {
		t.Errorf("published: got published_at %v, updated_at %v, want %v", p.PublishedAt(), p.UpdatedAt(), t1)
	}
	if err := p.Retitle("Another", t1); err != nil || p.Slug() != "my-title" {
		t.Errorf("retitle: got %v, slug %q, want the slug kept", err, p.Slug())
	}
	if err := p.Rewrite("New body", t1); err != nil || p.Excerpt() != "New body" {
		t.Errorf("rewrite: got %v, excerpt %q", err, p.Excerpt())
	}
	if err := p.SetStatus(StatusDraft, t1); err != nil || p.PublishedAt() != nil {
		t.Errorf("back to draft: got %v, published_at %v", err, p.PublishedAt())
	}
	if err := p.SetStatus("archived", t1); !errors.Is(err, ErrInvalidTransition) {
		t.Errorf("unknown status: got %v, want ErrInvalidTransition", err)
	}
	if got := p.WithSlugSuffix(3).Slug(); got != "another-3" {
		t.Errorf("WithSlugSuffix follows the current title: got %q", got)
	}
	own := func(id int64) Acting { return ByOwnRight(Actor{User: User{ID: id}}) }
	admin := func(id int64) Acting { return ByAdminRight(Actor{User: User{ID: id, IsAdmin: true}}, "") }
	if !p.VisibleTo(7) || p.VisibleTo(8) || p.VisibleTo(0) || !p.CanEdit(own(7)) || p.CanEdit(own(8)) || p.CanEdit(own(0)) {
		t.Error("a draft is visible to and editable by its author only")
	}
	if !p.CanEdit(admin(8)) || p.CanEdit(admin(0)) {
		t.Error("an admin acting by admin right edits anybody's post; nobody edits none")
	}
	if p.CanEdit(Acting{Actor: Actor{User: User{ID: 8, IsAdmin: true}}}) {
		t.Error("an admin acting by the zero right edits another's post")
	}
	if RestorePost(p.State()) != p {
		t.Error("RestorePost(State()) does not give the post back")
	}
	c := Comment{UserID: 9}
	if !c.CanEdit(9) || c.CanEdit(7) || !c.CanDelete(own(7), p) || !c.CanDelete(own(9), p) || c.CanDelete(own(8), p) {
		t.Error("comments: author edits; author or post author deletes")
	}
	if !c.CanDelete(admin(8), p) {
		t.Error("comments: an admin acting by admin right deletes any")
	}
}
