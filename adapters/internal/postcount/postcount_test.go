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
