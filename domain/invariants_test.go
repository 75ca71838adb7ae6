package domain

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

// fieldsOf returns the violations of err, which must be an Invalid domain
// error or nil.
func fieldsOf(t *testing.T, err error) []Violation {
	t.Helper()
	if err == nil {
		return nil
	}
	de, ok := AsError(err)
	if !ok || de.Kind != Invalid {
		t.Fatalf("got %v, want an Invalid domain error", err)
	}
	return de.Fields
}

func TestNewPostRules(t *testing.T) {
	title255, title256 := strings.Repeat("é", 255), strings.Repeat("é", 256)
	for _, tc := range []struct {
		name        string
		title, body string
		status      PostStatus
		want        []Violation
	}{
		{"valid", "Title", "Body", StatusDraft, nil},
		{"255 characters of title", title255, "Body", StatusPublished, nil},
		{"256 characters of title", title256, "Body", StatusDraft, []Violation{{"title", "max:255"}}},
		{"empty title", "", "Body", StatusDraft, []Violation{{"title", "required"}}},
		{"blank title", " \t", "Body", StatusDraft, []Violation{{"title", "required"}}},
		{"blank body", "Title", "  ", StatusDraft, []Violation{{"body", "required"}}},
		{"no status", "Title", "Body", "", []Violation{{"status", "required"}}},
		{"unknown status", "Title", "Body", "archived", []Violation{{"status", "in:draft,published"}}},
		{"every field at once, in order", "", "", "Draft", []Violation{{"title", "required"}, {"body", "required"}, {"status", "in:draft,published"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewPost(7, tc.title, tc.body, tc.status, t0)
			if got := fieldsOf(t, err); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPostEditRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(p *Post) error
		want []Violation
	}{
		{"retitle", func(p *Post) error { return p.Retitle("New", t0) }, nil},
		{"retitle blank", func(p *Post) error { return p.Retitle(" ", t0) }, []Violation{{"title", "required"}}},
		{"retitle too long", func(p *Post) error { return p.Retitle(strings.Repeat("x", 256), t0) }, []Violation{{"title", "max:255"}}},
		{"rewrite", func(p *Post) error { return p.Rewrite("New", t0) }, nil},
		{"rewrite blank", func(p *Post) error { return p.Rewrite("", t0) }, []Violation{{"body", "required"}}},
		{"unknown status", func(p *Post) error { return p.SetStatus("archived", t0) }, []Violation{{"status", "in:draft,published"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPost(7, "Old", "Old body", StatusDraft, t0)
			if err != nil {
				t.Fatal(err)
			}
			before := p
			err = tc.edit(&p)
			if got := fieldsOf(t, err); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if err != nil && p != before {
				t.Errorf("a refused edit changed the post: got %+v, want %+v", p.State(), before.State())
			}
		})
	}
	p, _ := NewPost(7, "Old", "Body", StatusDraft, t0)
	if err := p.SetStatus("archived", t0); !errors.Is(err, ErrInvalidTransition) {
		t.Errorf("SetStatus(archived): got %v, want ErrInvalidTransition", err)
	}
}

func TestTagRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		tag  string
		want []Violation
	}{
		{"valid", "Go", nil},
		{"50 characters", strings.Repeat("ü", 50), nil},
		{"51 characters", strings.Repeat("ü", 51), []Violation{{"name", "max:50"}}},
		{"empty", "", []Violation{{"name", "required"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tag, err := NewTag(tc.tag, t0)
			if got := fieldsOf(t, err); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if err == nil && (tag.Name != tc.tag || tag.Slug != Slugify(tc.tag)) {
				t.Errorf("got %+v, want the name and its slug", tag)
			}
		})
	}
}

func TestCommentRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		want []Violation
	}{
		{"valid", "Nice", nil},
		{"5000 characters", strings.Repeat("é", 5000), nil},
		{"5001 characters", strings.Repeat("é", 5001), []Violation{{"body", "max:5000"}}},
		{"blank", "\n", []Violation{{"body", "required"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewComment(1, 2, tc.body, t0)
			if got := fieldsOf(t, err); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("NewComment: got %v, want %v", got, tc.want)
			}
			if err == nil && (c.PostID != 1 || c.UserID != 2 || c.Body != tc.body || !c.CreatedAt.Equal(t0)) {
				t.Errorf("NewComment: got %+v", c)
			}
			edited := Comment{Body: "Old", UpdatedAt: t0}
			t1 := t0.Add(time.Hour)
			err = edited.Edit(tc.body, t1)
			if got := fieldsOf(t, err); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Edit: got %v, want %v", got, tc.want)
			}
			want := Comment{Body: tc.body, UpdatedAt: t1}
			if err != nil {
				want = Comment{Body: "Old", UpdatedAt: t0}
			}
			if edited != want {
				t.Errorf("Edit: got %+v, want %+v", edited, want)
			}
		})
	}
}
