package postcount

import (
	"testing"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func TestOf(t *testing.T) {
	const ann, bob = 1, 2
	tests := []struct {
		name string
		f    ports.PostFilter
		want Tally
		ok   bool
	}{
		{"anonymous", ports.PostFilter{}, Tally{Published: true}, true},
		{"viewer", ports.PostFilter{Viewer: ann}, Tally{Published: true, Author: ann, AuthorDrafts: true}, true},
		{"published", ports.PostFilter{Viewer: ann, Status: domain.StatusPublished}, Tally{Published: true}, true},
		{"published by an author", ports.PostFilter{Status: domain.StatusPublished, AuthorID: bob}, Tally{Author: bob, AuthorPublished: true}, true},
		{"own drafts", ports.PostFilter{Viewer: ann, Status: domain.StatusDraft}, Tally{Author: ann, AuthorDrafts: true}, true},
		{"own drafts by author", ports.PostFilter{Viewer: ann, Status: domain.StatusDraft, AuthorID: ann}, Tally{Author: ann, AuthorDrafts: true}, true},
		{"another's drafts", ports.PostFilter{Viewer: ann, Status: domain.StatusDraft, AuthorID: bob}, Tally{}, true},
		{"anonymous drafts", ports.PostFilter{Status: domain.StatusDraft}, Tally{}, true},
		{"own posts", ports.PostFilter{Viewer: ann, AuthorID: ann}, Tally{Author: ann, AuthorPublished: true, AuthorDrafts: true}, true},
		{"another's posts", ports.PostFilter{Viewer: ann, AuthorID: bob}, Tally{Author: bob, AuthorPublished: true}, true},
		{"an author's posts, anonymously", ports.PostFilter{AuthorID: bob}, Tally{Author: bob, AuthorPublished: true}, true},
		{"unknown status", ports.PostFilter{Viewer: ann, Status: "archived"}, Tally{}, false},
		{"search", ports.PostFilter{Search: "go"}, Tally{}, false},
		{"tag", ports.PostFilter{Viewer: ann, TagSlug: "go"}, Tally{}, false},
	}
	for _, tc := range tests {
		got, ok := Of(tc.f)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Of(%+v): got %+v, %v, want %+v, %v", tc.name, tc.f, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSum(t *testing.T) {
	const published, authorPublished, authorDrafts = 100, 10, 3
	tests := []struct {
		t       Tally
		want    int64
		counted bool
	}{
		{Tally{}, 0, false},
		{Tally{Author: 7}, 0, false},
		{Tally{Published: true}, 100, true},
		{Tally{Author: 7, AuthorPublished: true}, 10, true},
		{Tally{Author: 7, AuthorDrafts: true}, 3, true},
		{Tally{Author: 7, AuthorPublished: true, AuthorDrafts: true}, 13, true},
		{Tally{Published: true, Author: 7, AuthorDrafts: true}, 103, true},
	}
	for _, tc := range tests {
		if got := tc.t.Sum(published, authorPublished, authorDrafts); got != tc.want {
			t.Errorf("%+v.Sum: got %d, want %d", tc.t, got, tc.want)
		}
		if got := tc.t.Counted(); got != tc.counted {
			t.Errorf("%+v.Counted: got %v, want %v", tc.t, got, tc.counted)
		}
	}
}

func TestWalkTo(t *testing.T) {
	cases := []struct {
		total, offset, limit int
		want                 Walk
		ok                   bool
	}{
		{total: 100, offset: 0, limit: 15, want: Walk{Skip: 0, Take: 15}, ok: true},
		{total: 100, offset: 50, limit: 15, want: Walk{Skip: 50, Take: 15}, ok: true},
		{total: 100, offset: 51, limit: 15, want: Walk{Skip: 34, Take: 15, Backward: true}, ok: true},
		{total: 100, offset: 90, limit: 15, want: Walk{Skip: 0, Take: 10, Backward: true}, ok: true},
		{total: 100, offset: 99, limit: 15, want: Walk{Skip: 0, Take: 1, Backward: true}, ok: true},
		{total: 100, offset: 100, limit: 15},
		{total: 0, offset: 0, limit: 15},
		{total: 100, offset: 10, limit: 0},
		{total: 3, offset: -5, limit: 15, want: Walk{Skip: 0, Take: 3}, ok: true},
	}
	for _, c := range cases {
		got, ok := WalkTo(c.total, c.offset, c.limit)
		if got != c.want || ok != c.ok {
			t.Errorf("WalkTo(%d, %d, %d) = %+v, %v; want %+v, %v", c.total, c.offset, c.limit, got, ok, c.want, c.ok)
		}
	}
}
