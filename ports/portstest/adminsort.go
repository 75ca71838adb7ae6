package portstest

import (
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// testAdminSorts: the unsearched lists of accounts and posts in each
// order the console offers, paged, with the same totals; "" is newest
// first. Accounts by e-mail follow the address's key, whatever the case
// of its letters or the order they were made in.
func testAdminSorts(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	cy := createUser(t, r, newUser("Cy", "cy@example.com"))
	ann := createUser(t, r, newUser("Ann", "Ann@example.com"))
	bo := createUser(t, r, newUser("Bo", "bo@example.com"))
	users := []struct {
		q    ports.AdminUserQuery
		want []int64
	}{
		{ports.AdminUserQuery{}, []int64{bo.ID, ann.ID, cy.ID}},
		{ports.AdminUserQuery{Sort: ports.AdminSortNewest}, []int64{bo.ID, ann.ID, cy.ID}},
		{ports.AdminUserQuery{Sort: ports.AdminSortOldest}, []int64{cy.ID, ann.ID, bo.ID}},
		{ports.AdminUserQuery{Sort: ports.AdminSortOldest, Page: ports.Page{Offset: 1, Limit: 1}}, []int64{ann.ID}},
		{ports.AdminUserQuery{Sort: ports.AdminSortEmail}, []int64{ann.ID, bo.ID, cy.ID}},
		{ports.AdminUserQuery{Sort: ports.AdminSortEmail, Page: ports.Page{Offset: 1, Limit: 2}}, []int64{bo.ID, cy.ID}},
	}
	for _, tc := range users {
		got, total, err := r.Admin.Users(ctx, tc.q)
		must(t, "Admin.Users", err)
		what := fmt.Sprintf("Admin.Users(%+v)", tc.q)
		check(t, what, userIDs(got), tc.want)
		check(t, what+" total", total, 3)
	}

	// p2 and p3 share their time: the id breaks the tie, both ways.
	p1 := createPost(t, r, newPost(t, ann.ID, "First", domain.StatusPublished, at(3*time.Hour)))
	p2 := createPost(t, r, newPost(t, bo.ID, "Second", domain.StatusDraft, at(1*time.Hour)))
	p3 := createPost(t, r, newPost(t, cy.ID, "Third", domain.StatusPublished, at(1*time.Hour)))
	p4 := createPost(t, r, newPost(t, ann.ID, "Fourth", domain.StatusDraft, at(2*time.Hour)))
	posts := []struct {
		q     ports.AdminPostQuery
		want  []int64
		total int
	}{
		{ports.AdminPostQuery{}, []int64{p1.ID(), p4.ID(), p3.ID(), p2.ID()}, 4},
		{ports.AdminPostQuery{Sort: ports.AdminSortNewest}, []int64{p1.ID(), p4.ID(), p3.ID(), p2.ID()}, 4},
		{ports.AdminPostQuery{Sort: ports.AdminSortOldest}, []int64{p2.ID(), p3.ID(), p4.ID(), p1.ID()}, 4},
		{ports.AdminPostQuery{Sort: ports.AdminSortOldest, Page: ports.Page{Offset: 1, Limit: 2}}, []int64{p3.ID(), p4.ID()}, 4},
		{ports.AdminPostQuery{Sort: ports.AdminSortOldest, Status: domain.StatusPublished}, []int64{p3.ID(), p1.ID()}, 2},
		{ports.AdminPostQuery{Sort: ports.AdminSortOldest, Status: domain.StatusDraft}, []int64{p2.ID(), p4.ID()}, 2},
		{ports.AdminPostQuery{Sort: ports.AdminSortOldest, Status: domain.StatusDraft, Page: ports.Page{Offset: 1}}, []int64{p4.ID()}, 2},
	}
	for _, tc := range posts {
		got, total, err := r.Admin.Posts(ctx, tc.q)
		must(t, "Admin.Posts", err)
		what := fmt.Sprintf("Admin.Posts(%+v)", tc.q)
		check(t, what, postIDs(got), tc.want)
		check(t, what+" total", total, tc.total)
	}
}
