package portstest

import (
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var adminCommentTests = []storeTest{
	{"List", testAdminComments},
	{"FollowsDeletes", testAdminCommentsFollowDeletes},
}

func adminCommentIDs(cs []ports.AdminComment) []int64 {
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.Comment.ID
	}
	return ids
}

// testAdminComments: every post's comments, drafts' included, newest id
// first (or oldest, by Sort) whatever their creation times, by post, by a
// set of posts, by author and together, paged, each with its author's
// e-mail and its post's title; the total stops one past countTo.
func testAdminComments(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	p1 := createPost(t, r, newPost(t, ann.ID, "First post", domain.StatusPublished, at(time.Hour)))
	p2 := createPost(t, r, newPost(t, bob.ID, "A draft", domain.StatusDraft, at(time.Hour)))
	// Creation times out of id order: the list follows ids.
	c1 := createComment(t, r, newComment(p1.ID(), bob.ID, "one <script>alert(1)</script>", at(5*time.Hour)))
	c2 := createComment(t, r, newComment(p1.ID(), ann.ID, "two", at(1*time.Hour)))
	c3 := createComment(t, r, newComment(p2.ID(), bob.ID, "three", at(3*time.Hour)))
	c4 := createComment(t, r, newComment(p1.ID(), bob.ID, "four", at(2*time.Hour)))
	c5 := createComment(t, r, newComment(p2.ID(), ann.ID, "five", at(4*time.Hour)))
	const all = 100
	cases := []struct {
		q       ports.AdminCommentQuery
		countTo int
		want    []int64
		total   int
	}{
		{ports.AdminCommentQuery{}, all, []int64{c5.ID, c4.ID, c3.ID, c2.ID, c1.ID}, 5},
		{ports.AdminCommentQuery{Page: ports.Page{Limit: 2}}, all, []int64{c5.ID, c4.ID}, 5},
		{ports.AdminCommentQuery{Page: ports.Page{Offset: 1, Limit: 2}}, all, []int64{c4.ID, c3.ID}, 5},
		{ports.AdminCommentQuery{Page: ports.Page{Offset: 5, Limit: 2}}, all, []int64{}, 5},
		{ports.AdminCommentQuery{PostID: p1.ID()}, all, []int64{c4.ID, c2.ID, c1.ID}, 3},
		{ports.AdminCommentQuery{PostID: p2.ID(), Page: ports.Page{Offset: 1}}, all, []int64{c3.ID}, 2},
		{ports.AdminCommentQuery{UserID: bob.ID}, all, []int64{c4.ID, c3.ID, c1.ID}, 3},
		{ports.AdminCommentQuery{UserID: ann.ID, Page: ports.Page{Limit: 1}}, all, []int64{c5.ID}, 2},
		{ports.AdminCommentQuery{PostID: p1.ID(), UserID: bob.ID}, all, []int64{c4.ID, c1.ID}, 2},
		{ports.AdminCommentQuery{PostID: p2.ID(), UserID: ann.ID}, all, []int64{c5.ID}, 1},
		{ports.AdminCommentQuery{PostID: p2.ID() + p1.ID() + 100}, all, []int64{}, 0},
		{ports.AdminCommentQuery{UserID: ann.ID + bob.ID + 100}, all, []int64{}, 0},
		// The count stops at countTo + 1: above countTo means more.
		{ports.AdminCommentQuery{Page: ports.Page{Limit: 1}}, 2, []int64{c5.ID}, 3},
		{ports.AdminCommentQuery{}, 4, []int64{c5.ID, c4.ID, c3.ID, c2.ID, c1.ID}, 5},
		{ports.AdminCommentQuery{}, 5, []int64{c5.ID, c4.ID, c3.ID, c2.ID, c1.ID}, 5},
		{ports.AdminCommentQuery{PostID: p1.ID()}, 1, []int64{c4.ID, c2.ID, c1.ID}, 2},
		{ports.AdminCommentQuery{UserID: bob.ID}, 0, []int64{c4.ID, c3.ID, c1.ID}, 1},
		{ports.AdminCommentQuery{PostID: p1.ID(), UserID: bob.ID}, 1, []int64{c4.ID, c1.ID}, 2},
		// A set of posts, alone, with an author, and with one post.
		{ports.AdminCommentQuery{PostIDs: []int64{p1.ID()}}, all, []int64{c4.ID, c2.ID, c1.ID}, 3},
		{ports.AdminCommentQuery{PostIDs: []int64{p2.ID(), p1.ID()}}, all, []int64{c5.ID, c4.ID, c3.ID, c2.ID, c1.ID}, 5},
		{ports.AdminCommentQuery{PostIDs: []int64{p1.ID(), p2.ID()}, Page: ports.Page{Offset: 1, Limit: 2}}, all, []int64{c4.ID, c3.ID}, 5},
		{ports.AdminCommentQuery{PostIDs: []int64{p1.ID(), p2.ID()}}, 2, []int64{c5.ID, c4.ID, c3.ID, c2.ID, c1.ID}, 3},
		{ports.AdminCommentQuery{PostIDs: []int64{p1.ID(), p2.ID()}, UserID: bob.ID}, all, []int64{c4.ID, c3.ID, c1.ID}, 3},
		{ports.AdminCommentQuery{PostIDs: []int64{p2.ID(), p1.ID() + p2.ID() + 100}, UserID: ann.ID}, all, []int64{c5.ID}, 1},
		{ports.AdminCommentQuery{PostIDs: []int64{p1.ID(), p2.ID()}, UserID: bob.ID}, 1, []int64{c4.ID, c3.ID, c1.ID}, 2},
		{ports.AdminCommentQuery{PostIDs: []int64{p1.ID() + p2.ID() + 100}}, all, []int64{}, 0},
		{ports.AdminCommentQuery{PostID: p2.ID(), PostIDs: []int64{p1.ID(), p2.ID()}}, all, []int64{c5.ID, c3.ID}, 2},
		{ports.AdminCommentQuery{PostID: p2.ID(), PostIDs: []int64{p1.ID()}}, all, []int64{}, 0},
		{ports.AdminCommentQuery{PostID: p2.ID(), PostIDs: []int64{p1.ID()}, UserID: bob.ID}, all, []int64{}, 0},
		// Oldest first, by every filter, paged and counted alike.
		{ports.AdminCommentQuery{Sort: ports.AdminSortOldest}, all, []int64{c1.ID, c2.ID, c3.ID, c4.ID, c5.ID}, 5},
		{ports.AdminCommentQuery{Sort: ports.AdminSortNewest}, all, []int64{c5.ID, c4.ID, c3.ID, c2.ID, c1.ID}, 5},
		{ports.AdminCommentQuery{Sort: ports.AdminSortOldest, Page: ports.Page{Offset: 1, Limit: 2}}, 2, []int64{c2.ID, c3.ID}, 3},
		{ports.AdminCommentQuery{Sort: ports.AdminSortOldest, UserID: bob.ID}, all, []int64{c1.ID, c3.ID, c4.ID}, 3},
		{ports.AdminCommentQuery{Sort: ports.AdminSortOldest, UserID: bob.ID, Page: ports.Page{Offset: 1, Limit: 1}}, all, []int64{c3.ID}, 3},
		{ports.AdminCommentQuery{Sort: ports.AdminSortOldest, PostID: p1.ID()}, all, []int64{c1.ID, c2.ID, c4.ID}, 3},
		{ports.AdminCommentQuery{Sort: ports.AdminSortOldest, PostID: p1.ID(), UserID: bob.ID}, all, []int64{c1.ID, c4.ID}, 2},
		{ports.AdminCommentQuery{Sort: ports.AdminSortOldest, PostIDs: []int64{p2.ID(), p1.ID()}, Page: ports.Page{Limit: 3}}, all, []int64{c1.ID, c2.ID, c3.ID}, 5},
		{ports.AdminCommentQuery{Sort: ports.AdminSortOldest, PostIDs: []int64{p1.ID(), p2.ID()}, UserID: ann.ID}, all, []int64{c2.ID, c5.ID}, 2},
	}
	for _, tc := range cases {
		got, total, err := r.Admin.Comments(ctx, tc.q, tc.countTo)
		must(t, "Admin.Comments", err)
		what := fmt.Sprintf("Admin.Comments(%+v, %d)", tc.q, tc.countTo)
		check(t, what, adminCommentIDs(got), tc.want)
		check(t, what+" total", total, tc.total)
	}
	got, _, err := r.Admin.Comments(ctx, ports.AdminCommentQuery{UserID: bob.ID, Page: ports.Page{Offset: 2}}, all)
	must(t, "Admin.Comments", err)
	check(t, "Admin.Comments round trip", got, []ports.AdminComment{{Comment: c1, AuthorEmail: bob.Email, PostTitle: p1.Title()}})
	got, _, err = r.Admin.Comments(ctx, ports.AdminCommentQuery{PostID: p2.ID(), UserID: ann.ID}, all)
	must(t, "Admin.Comments", err)
	check(t, "Admin.Comments round trip of a draft's comment", got, []ports.AdminComment{{Comment: c5, AuthorEmail: ann.Email, PostTitle: p2.Title()}})
}

// testAdminCommentsFollowDeletes: a deleted comment, post or author takes
// its comments off the list and out of the total.
func testAdminCommentsFollowDeletes(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	p1 := createPost(t, r, newPost(t, ann.ID, "First", domain.StatusPublished, at(time.Hour)))
	p2 := createPost(t, r, newPost(t, ann.ID, "Second", domain.StatusPublished, at(time.Hour)))
	c1 := createComment(t, r, newComment(p1.ID(), bob.ID, "one", at(time.Hour)))
	c2 := createComment(t, r, newComment(p2.ID(), bob.ID, "two", at(time.Hour)))
	c3 := createComment(t, r, newComment(p2.ID(), ann.ID, "three", at(time.Hour)))
	c4 := createComment(t, r, newComment(p1.ID(), ann.ID, "four", at(time.Hour)))
	list := func(what string, want []int64) {
		t.Helper()
		got, total, err := r.Admin.Comments(ctx, ports.AdminCommentQuery{}, 100)
		must(t, "Admin.Comments", err)
		check(t, what, adminCommentIDs(got), want)
		check(t, what+" total", total, len(want))
	}
	list("every comment", []int64{c4.ID, c3.ID, c2.ID, c1.ID})
	must(t, "Comments.Delete", r.Comments.Delete(ctx, c3.ID))
	list("after a comment's delete", []int64{c4.ID, c2.ID, c1.ID})
	must(t, "Posts.Delete", r.Posts.Delete(ctx, p1.ID()))
	list("after a post's delete", []int64{c2.ID})
	must(t, "Users.Delete", r.Users.Delete(ctx, bob.ID))
	list("after its author's delete", []int64{})
}
