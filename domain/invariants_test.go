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

func TestAccountRules(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		user, email, password string
		want                  []Violation
	}{
		{"valid", "Ann", "ann@example.com", "password", nil},
		{"255 characters of name", strings.Repeat("é", 255), "ann@example.com", "password", nil},
		{"256 characters of name", strings.Repeat("é", 256), "ann@example.com", "password", []Violation{{"name", "max:255"}}},
		{"blank name", " ", "ann@example.com", "password", []Violation{{"name", "required"}}},
		{"no e-mail", "Ann", "", "password", []Violation{{"email", "required"}}},
		{"not an e-mail", "Ann", "ann", "password", []Violation{{"email", "email"}}},
		{"7 characters of password", "Ann", "ann@example.com", "ééééééé", []Violation{{"password", "min:8"}}},
		{"8 characters of password", "Ann", "ann@example.com", "       x", nil},
		{"72 bytes of password", "Ann", "ann@example.com", strings.Repeat("é", 36), nil},
		{"73 bytes of password", "Ann", "ann@example.com", strings.Repeat("é", 36) + "x", []Violation{{"password", "max_bytes:72"}}},
		{"blank password", "Ann", "ann@example.com", "        ", []Violation{{"password", "required"}}},
		{"every field at once, in order", "", "x@y", "short", []Violation{{"name", "required"}, {"email", "email"}, {"password", "min:8"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckAccount(tc.user, tc.email, tc.password)
			if got := fieldsOf(t, err); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPersonRules(t *testing.T) {
	age := func(n int) *int { return &n }
	long := strings.Repeat("ü", 256)
	for _, tc := range []struct {
		name   string
		person Person
		want   []Violation
	}{
		{"valid", Person{Name: "Ann", Email: "ann@example.com"}, nil},
		{"every optional field", Person{Name: "Ann", Email: "ann@example.com", Age: age(150),
			Address: &Address{Street: strings.Repeat("ü", 255), City: "Paris", Zip: "75001", Country: "FR"}}, nil},
		{"age 0", Person{Name: "Ann", Email: "ann@example.com", Age: age(0)}, nil},
		{"negative age", Person{Name: "Ann", Email: "ann@example.com", Age: age(-1)}, []Violation{{"age", "min_value:0"}}},
		{"age 151", Person{Name: "Ann", Email: "ann@example.com", Age: age(151)}, []Violation{{"age", "max_value:150"}}},
		{"empty address", Person{Name: "Ann", Email: "ann@example.com", Address: &Address{}}, nil},
		{"long address lines", Person{Name: "Ann", Email: "ann@example.com", Address: &Address{Street: long, City: "Paris", Zip: long, Country: long}},
			[]Violation{{"address.street", "max:255"}, {"address.zip", "max:255"}, {"address.country", "max:255"}}},
		{"every field at once, in order", Person{Name: long, Email: "", Age: age(200), Address: &Address{City: long}},
			[]Violation{{"name", "max:255"}, {"email", "required"}, {"age", "max_value:150"}, {"address.city", "max:255"}}},
		{"no name, bad e-mail", Person{Email: "ann@localhost"}, []Violation{{"name", "required"}, {"email", "email"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fieldsOf(t, tc.person.Check()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestProductRules(t *testing.T) {
	sku := func(s string) *string { return &s }
	for _, tc := range []struct {
		name    string
		product Product
		want    []Violation
	}{
		{"valid", Product{Name: "Pen", PriceCents: 1999}, nil},
		{"at every bound", Product{Name: strings.Repeat("é", 255), PriceCents: MaxPrice * 100, Description: strings.Repeat("é", 5000),
			Stock: 1<<31 - 1, SKU: sku(strings.Repeat("é", 255))}, nil},
		{"free, out of stock", Product{Name: "Pen"}, nil},
		{"no name", Product{Name: " "}, []Violation{{"name", "required"}}},
		{"256 characters of name", Product{Name: strings.Repeat("é", 256)}, []Violation{{"name", "max:255"}}},
		{"negative price", Product{Name: "Pen", PriceCents: -1}, []Violation{{"price", "min_value:0"}}},
		{"price past the bound", Product{Name: "Pen", PriceCents: MaxPrice*100 + 1}, []Violation{{"price", "max_value:999999999999"}}},
		{"5001 characters of description", Product{Name: "Pen", Description: strings.Repeat("é", 5001)}, []Violation{{"description", "max:5000"}}},
		{"negative stock", Product{Name: "Pen", Stock: -1}, []Violation{{"stock", "min_value:0"}}},
		{"stock past 32 bits", Product{Name: "Pen", Stock: 1 << 31}, []Violation{{"stock", "max_value:2147483647"}}},
		{"blank SKU", Product{Name: "Pen", SKU: sku("")}, []Violation{{"sku", "required"}}},
		{"256 characters of SKU", Product{Name: "Pen", SKU: sku(strings.Repeat("é", 256))}, []Violation{{"sku", "max:255"}}},
		{"every field at once, in order", Product{PriceCents: -5, Description: strings.Repeat("x", 5001), Stock: -1, SKU: sku(" ")},
			[]Violation{{"name", "required"}, {"price", "min_value:0"}, {"description", "max:5000"}, {"stock", "min_value:0"}, {"sku", "required"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fieldsOf(t, tc.product.Check()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
