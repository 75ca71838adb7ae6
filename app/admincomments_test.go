package app_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/app"
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

// A post title keeps the comments on the posts whose title holds it, as
// the posts' search compares titles (any letter's case, % and _ as
// themselves), drafts' included, with the author filters and one post's
// id, in either order. More matching posts than the use case reads keep
// the comments of the newest of them, and the answer says how many it
// read. A title or an order the list cannot take is refused by field.
func TestAdminCommentsByPostTitle(t *testing.T) {
	for _, s := range directoryStores {
		t.Run(s.Name, func(t *testing.T) {
			ctx := t.Context()
			w := newAdminWorld(t, s.Open(t))
			c := w.caller()
			ann, bob := domain.Actor{User: w.ann}, domain.Actor{User: w.bob}
			post := func(title string, status domain.PostStatus) domain.Post {
				t.Helper()
				p, err := w.svc.Posts.Create(ctx, ann, ports.PostInput{Title: title, Body: "Body", Status: status})
				if err != nil {
					t.Fatal(err)
				}
				return p.Post
			}
			comment := func(who domain.Actor, p domain.Post) int64 {
				t.Helper()
				cm, err := w.svc.Comments.Create(ctx, who, p.ID(), "On "+p.Title())
				if err != nil {
					t.Fatal(err)
				}
				return cm.Comment.ID
			}
			sure, pages := post("100% sure", domain.StatusPublished), post("100 pages", domain.StatusPublished)
			snake, camel := post("snake_case", domain.StatusDraft), post("snakeXcase", domain.StatusPublished)
			summer := post("Été à Paris", domain.StatusPublished)
			onSure, onPages := comment(bob, sure), comment(ann, pages)
			onSnake, onCamel := comment(ann, snake), comment(bob, camel)
			onSummer, bobOnSure := comment(ann, summer), comment(bob, sure)
			ids := func(page ports.AdminComments) []int64 {
				out := []int64{}
				for _, r := range page.Rows {
					out = append(out, r.Comment.ID)
				}
				return out
			}
			for _, tc := range []struct {
				name string
				q    ports.AdminCommentQuery
				want []int64
			}{
				{"another case", ports.AdminCommentQuery{PostTitle: "OUT THERE"}, []int64{w.comment.ID}},
				{"a percent sign", ports.AdminCommentQuery{PostTitle: "100%"}, []int64{bobOnSure, onSure}},
				{"an underscore, a draft's", ports.AdminCommentQuery{PostTitle: "e_c"}, []int64{onSnake}},
				{"two posts", ports.AdminCommentQuery{PostTitle: "100"}, []int64{bobOnSure, onPages, onSure}},
				{"two posts, oldest first", ports.AdminCommentQuery{PostTitle: "100", Sort: ports.AdminSortOldest}, []int64{onSure, onPages, bobOnSure}},
				{"two posts, a page", ports.AdminCommentQuery{PostTitle: "100", Page: ports.Page{Offset: 1, Limit: 1}}, []int64{onPages}},
				{"letters of every script", ports.AdminCommentQuery{PostTitle: "ÉTÉ À"}, []int64{onSummer}},
				{"and an author's id", ports.AdminCommentQuery{PostTitle: "snake", UserID: w.bob.ID}, []int64{onCamel}},
				{"and an author's e-mail", ports.AdminCommentQuery{PostTitle: "100", AuthorEmail: "BOB@example.com"}, []int64{bobOnSure, onSure}},
				{"and another author's", ports.AdminCommentQuery{PostTitle: "snake", AuthorEmail: w.ann.Email}, []int64{onSnake}},
				{"and nobody's", ports.AdminCommentQuery{PostTitle: "snake", AuthorEmail: "nobody@example.com"}, []int64{}},
				{"and its post's id", ports.AdminCommentQuery{PostTitle: "100", PostID: pages.ID()}, []int64{onPages}},
				{"and another post's id", ports.AdminCommentQuery{PostTitle: "100", PostID: camel.ID()}, []int64{}},
				{"held by no title", ports.AdminCommentQuery{PostTitle: "nowhere"}, []int64{}},
				{"a wildcard held by no title", ports.AdminCommentQuery{PostTitle: "1%s"}, []int64{}},
			} {
				page, err := w.svc.Admin.Comments(ctx, c, tc.q)
				if err != nil || !slices.Equal(ids(page), tc.want) || page.TitlePosts != 0 || page.AtLeast {
					t.Errorf("%s: %v (of %d, capped at %d posts), %v; want %v", tc.name, ids(page), page.Total, page.TitlePosts, err, tc.want)
				}
			}
			if page, err := w.svc.Admin.Comments(ctx, c, ports.AdminCommentQuery{PostTitle: "100", Page: ports.Page{Limit: 1}}); err != nil || page.Total != 3 {
				t.Errorf("the total of a title's comments: %d, %v; want 3", page.Total, err)
			}

			// One more matching post than the use case reads: the oldest's
			// comment is left out, and the answer says so.
			var first int64
			for i := range app.AdminCommentTitlePosts + 1 {
				id := comment(bob, post(fmt.Sprintf("Many %d", i), domain.StatusPublished))
				if i == 0 {
					first = id
				}
			}
			page, err := w.svc.Admin.Comments(ctx, c, ports.AdminCommentQuery{PostTitle: "many", Page: ports.Page{Limit: 1000}})
			if err != nil || page.TitlePosts != app.AdminCommentTitlePosts || len(page.Rows) != app.AdminCommentTitlePosts ||
				page.Total != app.AdminCommentTitlePosts || slices.Contains(ids(page), first) {
				t.Errorf("more matching posts than read: %d rows of %d, capped at %d posts, %v; want the comments of the newest %d",
					len(page.Rows), page.Total, page.TitlePosts, err, app.AdminCommentTitlePosts)
			}
			page, err = w.svc.Admin.Comments(ctx, c, ports.AdminCommentQuery{PostTitle: "many 1", Page: ports.Page{Limit: 1000}})
			if err != nil || page.TitlePosts != 0 || len(page.Rows) != 12 || !slices.Contains(ids(page), first+1) {
				t.Errorf("a title of a dozen posts: %d rows, capped at %d posts, %v; want 12, uncapped", len(page.Rows), page.TitlePosts, err)
			}

			for name, q := range map[string]ports.AdminCommentQuery{
				"a NUL":              {PostTitle: "a\x00b"},
				"bytes of no UTF-8":  {PostTitle: "a\xffb"},
				"a control":          {PostTitle: "a\x1bb"},
				"300 characters":     {PostTitle: strings.Repeat("é", 300)},
				"and bad with email": {PostTitle: "a\x00", AuthorEmail: w.bob.Email},
			} {
				_, err := w.svc.Admin.Comments(ctx, c, q)
				var de *domain.Error
				if !errors.As(err, &de) || de.Kind != domain.Invalid || len(de.Fields) == 0 || de.Fields[0].Field != "title" {
					t.Errorf("a title with %s: got %v, want invalid title", name, err)
				}
			}
			for _, sort := range []ports.AdminSort{ports.AdminSortEmail, "title", "-id"} {
				_, err := w.svc.Admin.Comments(ctx, c, ports.AdminCommentQuery{Sort: sort})
				var de *domain.Error
				if !errors.As(err, &de) || de.Kind != domain.Invalid || len(de.Fields) == 0 || de.Fields[0].Field != "sort" {
					t.Errorf("comments sorted by %q: got %v, want invalid sort", sort, err)
				}
			}
			for who, o := range w.outsiders(t) {
				if _, err := w.svc.Admin.Comments(ctx, o, ports.AdminCommentQuery{PostTitle: "100"}); !errors.Is(err, domain.ErrForbidden) {
					t.Errorf("a title's comments read by %s: %v, want forbidden", who, err)
				}
			}
		})
	}
}
