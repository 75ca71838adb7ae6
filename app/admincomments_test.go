package app_test

import (
	"errors"
	"testing"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The list of comments is an admin's read like the others: refused with
// domain.ErrForbidden to whoever holds no admin rights now, a page capped
// at 100 rows, every post's comments with their author's e-mail and their
// post's title, and the total bounded past the page.
func TestAdminComments(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			w := newAdminWorld(t, s.Open(t))
			for who, o := range w.outsiders(t) {
				got, _, err := w.svc.Admin.Comments(ctx, o, ports.AdminCommentQuery{})
				if !errors.Is(err, domain.ErrForbidden) || got != nil {
					t.Errorf("comments read by %s: got %v, %v, want forbidden", who, got, err)
				}
			}
			revoked := w.caller()
			if _, err := w.stack.Operator.Admins.Revoke(ctx, w.root.Email); err != nil {
				t.Fatal(err)
			}
			if _, _, err := w.svc.Admin.Comments(ctx, revoked, ports.AdminCommentQuery{}); !errors.Is(err, domain.ErrForbidden) {
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
			page, total, err := w.svc.Admin.Comments(ctx, c, ports.AdminCommentQuery{Page: ports.Page{Limit: 1000}})
			if err != nil || len(page) != 100 || total != 121 {
				t.Errorf("an uncapped page: %d rows of %d, %v; want 100 of 121", len(page), total, err)
			}
			page, total, err = w.svc.Admin.Comments(ctx, c, ports.AdminCommentQuery{UserID: w.bob.ID})
			want := []ports.AdminComment{{Comment: w.comment, AuthorEmail: w.bob.Email, PostTitle: w.published.Title()}}
			if err != nil || total != 1 || len(page) != 1 || page[0].Comment.ID != want[0].Comment.ID ||
				page[0].AuthorEmail != want[0].AuthorEmail || page[0].PostTitle != want[0].PostTitle || page[0].Comment.Body != "Nice one" {
				t.Errorf("bob's comments: %+v of %d, %v; want %+v", page, total, err, want)
			}
			if _, total, err := w.svc.Admin.Comments(ctx, c, ports.AdminCommentQuery{PostID: w.draft.ID()}); err != nil || total != 0 {
				t.Errorf("the draft's comments: %d, %v", total, err)
			}
		})
	}
}
