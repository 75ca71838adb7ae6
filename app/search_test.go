package app_test

import (
	"strings"
	"testing"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// A search term domain.CheckSearch refuses is an Invalid error on the
// request's field from every list use case that searches, on every store,
// whichever transport calls it: PostgreSQL would answer SQLSTATE 22021 to
// the NUL and the invalid UTF-8, SQLite cut the term at its NUL.
func TestSearchTermsAreChecked(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			w := newAdminWorld(t, s.Open(t))
			c := w.caller()
			ann := domain.Actor{User: w.ann}
			page := ports.Page{Limit: 10}
			for _, term := range []string{"a\x00b", "\xff\xfe", "\xc0\xaf", "a\x1bb", strings.Repeat("q", 256)} {
				want := domain.CheckSearch(term)
				checks := []struct {
					name, field string
					err         error
				}{
					{"Admin.Users", "q", second(w.svc.Admin.Users(ctx, c, ports.AdminUserQuery{Search: term, Page: page}))},
					{"Admin.Posts", "q", second(w.svc.Admin.Posts(ctx, c, ports.AdminPostQuery{Search: term, Status: domain.StatusDraft, Page: page}))},
					{"Posts.List", "search", third(w.svc.Posts.List(ctx, ann, ports.PostFilter{Search: term}, page))},
					{"Posts.ListAfter", "search", third(w.svc.Posts.ListAfter(ctx, ann, ports.PostFilter{Search: term}, nil, 10))},
				}
				for _, tc := range checks {
					de, ok := domain.AsError(tc.err)
					if !ok || de.Kind != domain.Invalid || len(de.Fields) != len(want) || de.Fields[0].Field != tc.field || de.Fields[0].Rule != want[0] {
						t.Errorf("%s(%q): got %v, want Invalid %s %v", tc.name, term, tc.err, tc.field, want)
					}
				}
			}
		})
	}
}

// third is the error of a call that returns two values and an error.
func third[A, B any](_ A, _ B, err error) error { return err }
