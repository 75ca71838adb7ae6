package app_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The list of comments is an admin's read like the others: refused with
// domain.ErrForbidden to whoever holds no admin rights now, a page capped
// at 100 rows, every post's comments with their author's e-mail and their
// post's title, and the total bounded past the page. An author's e-mail
// selects as their id does, whatever the case of its letters; an address
// nobody holds selects nothing, and one that is no address is refused.
func TestAdminComments(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			w := newAdminWorld(t, s.Open(t))
			for who, o := range w.outsiders(t) {
				got, err := w.svc.Admin.Comments(ctx, o, ports.AdminCommentQuery{})
				if !errors.Is(err, domain.ErrForbidden) || got.Rows != nil {
					t.Errorf("comments read by %s: got %v, %v, want forbidden", who, got, err)
				}
			}
			revoked := w.caller()
			if _, err := w.stack.Operator.Admins.Revoke(ctx, w.root.Email); err != nil {
				t.Fatal(err)
			}
			if _, err := w.svc.Admin.Comments(ctx, revoked, ports.AdminCommentQuery{}); !errors.Is(err, domain.ErrForbidden) {
				t.Errorf("comments read by a revoked admin: got %v, want forbidden", err)
			}
			if _, err := w.stack.Operator.Admins.Grant(ctx, w.root.Email); err != nil {
				t.Fatal(err)
			}

			ann := domain.Actor{User: w.ann}
			for range 120 {
				if _, err := w.svc.Comments.Create(ctx, ann, w.published.ID(), "More"); err != nil {
					t.Fatal(err)
				}
			}
			c := w.caller()
			page, err := w.svc.Admin.Comments(ctx, c, ports.AdminCommentQuery{Page: ports.Page{Limit: 1000}})
			if err != nil || len(page.Rows) != 100 || page.Total != 121 || page.AtLeast {
				t.Errorf("an uncapped page: %d rows of %d (at least: %v), %v; want 100 of exactly 121", len(page.Rows), page.Total, page.AtLeast, err)
			}
			want := ports.AdminComment{Comment: w.comment, AuthorEmail: w.bob.Email, PostTitle: w.published.Title()}
			for name, q := range map[string]ports.AdminCommentQuery{
				"id":               {UserID: w.bob.ID},
				"e-mail":           {AuthorEmail: strings.ToUpper(w.bob.Email)},
				"id and e-mail":    {UserID: w.bob.ID, AuthorEmail: w.bob.Email},
				"post and e-mail":  {PostID: w.published.ID(), AuthorEmail: w.bob.Email},
				"e-mail, page one": {AuthorEmail: w.bob.Email, Page: ports.Page{Limit: 1}},
			} {
				page, err := w.svc.Admin.Comments(ctx, c, q)
				if err != nil || page.Total != 1 || len(page.Rows) != 1 || page.Rows[0].Comment.ID != want.Comment.ID ||
					page.Rows[0].AuthorEmail != want.AuthorEmail || page.Rows[0].PostTitle != want.PostTitle || page.Rows[0].Comment.Body != "Nice one" {
					t.Errorf("bob's comments by %s: %+v, %v; want %+v", name, page, err, want)
				}
			}
			for name, q := range map[string]ports.AdminCommentQuery{
				"the draft's":              {PostID: w.draft.ID()},
				"nobody's address":         {AuthorEmail: "nobody@example.com"},
				"bob's address, ann's id":  {UserID: w.ann.ID, AuthorEmail: w.bob.Email},
				"bob's address, the draft": {PostID: w.draft.ID(), AuthorEmail: w.bob.Email},
			} {
				if page, err := w.svc.Admin.Comments(ctx, c, q); err != nil || page.Total != 0 || len(page.Rows) != 0 {
					t.Errorf("%s comments: %+v, %v, want none", name, page, err)
				}
			}
			_, err = w.svc.Admin.Comments(ctx, c, ports.AdminCommentQuery{AuthorEmail: "bob at example"})
			var de *domain.Error
			if !errors.As(err, &de) || de.Kind != domain.Invalid || len(de.Fields) == 0 || de.Fields[0].Field != "email" {
				t.Errorf("a filter by no address: got %v, want invalid email", err)
			}
		})
	}
}
