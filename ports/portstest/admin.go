package portstest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var adminTests = []storeTest{
	{"SetAdmin", testAdminSetAdmin},
	{"Audit", testAdminAudit},
	{"AuditRollsBack", testAdminAuditRollsBack},
	{"Users", testAdminUsers},
	{"Export", testAdminExport},
	{"Posts", testAdminPosts},
	{"PostSearch", testAdminPostSearch},
	{"Sorts", testAdminSorts},
	{"Webhooks", testAdminWebhooks},
	{"Mails", testAdminMails},
	{"Sessions", testAdminSessions},
	{"Counts", testAdminCounts},
}

func userIDs(us []domain.User) []int64 {
	ids := make([]int64, len(us))
	for i, u := range us {
		ids[i] = u.ID
	}
	return ids
}

// testAdminSetAdmin: only SetAdmin makes an admin; Create and Update leave
// the right alone, and Admins lists the admins in id order.
func testAdminSetAdmin(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	eager := newUser("Eve", "eve@example.com")
	eager.IsAdmin = true
	eve := createUser(t, r, eager)
	got, err := r.Users.ByID(ctx, eve.ID)
	must(t, "Users.ByID", err)
	if got.IsAdmin {
		t.Errorf("Users.Create with IsAdmin set: the user is an admin")
	}
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	admins, err := r.Admin.Admins(ctx)
	must(t, "Admin.Admins", err)
	check(t, "Admin.Admins with none", admins, []domain.User{})

	must(t, "Admin.SetAdmin(bob)", r.Admin.SetAdmin(ctx, bob.ID, true))
	must(t, "Admin.SetAdmin(ann)", r.Admin.SetAdmin(ctx, ann.ID, true))
	ann.IsAdmin, bob.IsAdmin = true, true
	got, err = r.Users.ByID(ctx, ann.ID)
	must(t, "Users.ByID", err)
	check(t, "Users.ByID of an admin", got, ann)
	admins, err = r.Admin.Admins(ctx)
	must(t, "Admin.Admins", err)
	check(t, "Admin.Admins", admins, []domain.User{ann, bob})

	// Update writes every field but the right.
	changed := ann
	changed.Name, changed.IsAdmin, changed.UpdatedAt = "Ann B.", false, at(time.Minute)
	must(t, "Users.Update", r.Users.Update(ctx, changed))
	got, err = r.Users.ByID(ctx, ann.ID)
	must(t, "Users.ByID", err)
	changed.IsAdmin = true
	check(t, "Users.ByID after Update", got, changed)

	must(t, "Admin.SetAdmin(ann, false)", r.Admin.SetAdmin(ctx, ann.ID, false))
	admins, err = r.Admin.Admins(ctx)
	must(t, "Admin.Admins", err)
	check(t, "Admin.Admins after a revoke", userIDs(admins), []int64{bob.ID})

	for _, w := range bothPlaces {
		err := w.run(ctx, st, func(r ports.Repos) error { return r.Admin.SetAdmin(ctx, missingID, true) })
		checkErr(t, "Admin.SetAdmin of a missing user "+w.name, err, domain.ErrNotFound)
	}
}

func auditEntry(n int, action domain.AuditAction) domain.AuditEntry {
	return domain.NewAuditEntry(domain.User{ID: int64(100 + n), Email: fmt.Sprintf("admin%d@example.com", n)},
		action, domain.SubjectPost, int64(n), "203.0.113.7", at(time.Duration(n)*time.Second))
}

// testAdminAudit: every field round-trips, the log reads newest first, a
// page at a time, with its total counted up to the bound asked.
func testAdminAudit(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	entries, total, err := r.Admin.Audit(ctx, ports.Page{}, 100)
	must(t, "Admin.Audit", err)
	if len(entries) != 0 || total != 0 {
		t.Errorf("Admin.Audit of an empty log: %d rows, total %d", len(entries), total)
	}
	actions := []domain.AuditAction{domain.AuditAdminLogin, domain.AuditPostUnpublish, domain.AuditUserTokensRevoke, domain.AuditMailRetry, domain.AuditUserSendReset}
	var want []domain.AuditEntry
	for i, a := range actions {
		e := auditEntry(i, a)
		e.Address = fmt.Sprintf("2001:db8::%d", i)
		must(t, "Admin.AppendAudit", r.Admin.AppendAudit(ctx, &e))
		if e.ID == 0 || (i > 0 && e.ID <= want[0].ID) {
			t.Fatalf("AppendAudit id %d: want set and growing", e.ID)
		}
		want = append([]domain.AuditEntry{e}, want...)
	}
	got, total, err := r.Admin.Audit(ctx, ports.Page{}, 100)
	must(t, "Admin.Audit", err)
	check(t, "Admin.Audit", got, want)
	check(t, "Admin.Audit total", total, len(want))
	got, total, err = r.Admin.Audit(ctx, ports.Page{Offset: 1, Limit: 2}, 100)
	must(t, "Admin.Audit page", err)
	check(t, "Admin.Audit page 2 of 2", got, want[1:3])
	check(t, "Admin.Audit page total", total, len(want))
	// The count stops one past countTo, "more than countTo".
	got, total, err = r.Admin.Audit(ctx, ports.Page{Limit: 2}, 3)
	must(t, "Admin.Audit counted to 3", err)
	check(t, "Admin.Audit counted to 3", got, want[:2])
	check(t, "Admin.Audit total counted to 3", total, 4)
	_, total, err = r.Admin.Audit(ctx, ports.Page{Limit: 2}, len(want))
	must(t, "Admin.Audit counted to every row", err)
	check(t, "Admin.Audit total counted to every row", total, len(want))
	got, _, err = r.Admin.Audit(ctx, ports.Page{Offset: 10, Limit: 2}, 100)
	must(t, "Admin.Audit past the end", err)
	check(t, "Admin.Audit past the end", len(got), 0)
}

// testAdminAuditRollsBack: a row written in a transaction that fails is
// gone with it.
func testAdminAuditRollsBack(t *testing.T, st ports.Store) {
	ctx := t.Context()
	boom := errors.New("boom")
	err := st.InTx(ctx, func(r ports.Repos) error {
		e := auditEntry(1, domain.AuditPostDelete)
		must(t, "Admin.AppendAudit", r.Admin.AppendAudit(ctx, &e))
		return boom
	})
	checkErr(t, "InTx", err, boom)
	got, total, err := st.Repos().Admin.Audit(ctx, ports.Page{}, 100)
	must(t, "Admin.Audit", err)
	if len(got) != 0 || total != 0 {
		t.Errorf("Admin.Audit after a rollback: %d rows, total %d", len(got), total)
	}
}

// testAdminUsers: newest first, paged, with totals; the search matches a
// substring of the name in any ASCII case or of the e-mail's key, with %
// and _ taken literally.
func testAdminUsers(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann Lee", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@Lee.example"))
	pct := createUser(t, r, newUser("100% Carl", "carl_c@example.org"))
	dee := createUser(t, r, newUser("Dee", "dee@example.org"))
	cases := []struct {
		q     ports.AdminUserQuery
		want  []int64
		total int
	}{
		{ports.AdminUserQuery{}, []int64{dee.ID, pct.ID, bob.ID, ann.ID}, 4},
		{ports.AdminUserQuery{Page: ports.Page{Limit: 2}}, []int64{dee.ID, pct.ID}, 4},
		{ports.AdminUserQuery{Page: ports.Page{Offset: 2, Limit: 2}}, []int64{bob.ID, ann.ID}, 4},
		{ports.AdminUserQuery{Search: "LEE"}, []int64{bob.ID, ann.ID}, 2},
		{ports.AdminUserQuery{Search: "lee", Page: ports.Page{Limit: 1}}, []int64{bob.ID}, 2},
		{ports.AdminUserQuery{Search: "EXAMPLE.ORG"}, []int64{dee.ID, pct.ID}, 2},
		{ports.AdminUserQuery{Search: "%"}, []int64{pct.ID}, 1},
		{ports.AdminUserQuery{Search: "L_C"}, []int64{pct.ID}, 1},
		{ports.AdminUserQuery{Search: "n_@"}, []int64{}, 0},
		{ports.AdminUserQuery{Search: "carl_"}, []int64{pct.ID}, 1},
		{ports.AdminUserQuery{Search: "nobody"}, []int64{}, 0},
		{ports.AdminUserQuery{Search: "n_@"}, []int64{}, 0},
		// The bounded count: up to CountUpTo, then CountUpTo+1 for "more".
		{ports.AdminUserQuery{Search: "E", CountUpTo: 2, Page: ports.Page{Limit: 1}}, []int64{dee.ID}, 3},
		{ports.AdminUserQuery{Search: "e", CountUpTo: 2, Page: ports.Page{Offset: 2, Limit: 2}}, []int64{bob.ID, ann.ID}, 3},
		{ports.AdminUserQuery{Search: "example", CountUpTo: 3}, []int64{dee.ID, pct.ID, bob.ID, ann.ID}, 4},
		{ports.AdminUserQuery{Search: "example", CountUpTo: 4}, []int64{dee.ID, pct.ID, bob.ID, ann.ID}, 4},
		{ports.AdminUserQuery{Search: "EXAMPLE.", CountUpTo: 1, Page: ports.Page{Offset: 1, Limit: 1}}, []int64{pct.ID}, 2},
		{ports.AdminUserQuery{Search: "example.org", CountUpTo: 1, Page: ports.Page{Offset: 5, Limit: 1}}, []int64{}, 2},
		{ports.AdminUserQuery{CountUpTo: 2, Page: ports.Page{Limit: 1}}, []int64{dee.ID}, 3},
	}
	for _, tc := range cases {
		got, total, err := r.Admin.Users(ctx, tc.q)
		must(t, "Admin.Users", err)
		what := fmt.Sprintf("Admin.Users(%+v)", tc.q)
		check(t, what, userIDs(got), tc.want)
		check(t, what+" total", total, tc.total)
	}
	got, _, err := r.Admin.Users(ctx, ports.AdminUserQuery{Search: "ann@"})
	must(t, "Admin.Users", err)
	check(t, "Admin.Users round trip", got, []domain.User{ann})

	// The total follows deletions and ignores what a rollback undid.
	must(t, "Users.Delete", r.Users.Delete(ctx, ann.ID))
	boom := errors.New("boom")
	err = st.InTx(ctx, func(r ports.Repos) error {
		createUser(t, r, newUser("Gone", "gone@example.com"))
		return boom
	})
	checkErr(t, "InTx", err, boom)
	_, total, err := r.Admin.Users(ctx, ports.AdminUserQuery{Page: ports.Page{Limit: 1}})
	must(t, "Admin.Users", err)
	check(t, "Admin.Users total after a delete and a rollback", total, 3)
	counts, err := r.Admin.Counts(ctx)
	must(t, "Admin.Counts", err)
	check(t, "Admin.Counts users", counts.Users, 3)

	// The search follows a deletion and a change of name or e-mail.
	bob.Name, bob.Email = "Robert Stone", "rob@stone.example"
	must(t, "Users.Update", r.Users.Update(ctx, bob))
	for _, tc := range []struct {
		search string
		want   []int64
	}{
		{"ann lee", []int64{}},
		{"bob@lee", []int64{}},
		{"ROBERT S", []int64{bob.ID}},
		{"rob@stone", []int64{bob.ID}},
	} {
		got, _, err := r.Admin.Users(ctx, ports.AdminUserQuery{Search: tc.search})
		must(t, "Admin.Users", err)
		check(t, fmt.Sprintf("Admin.Users(%q) after changes", tc.search), userIDs(got), tc.want)
	}

	// Only ASCII letters fold in the name; the e-mail is compared by its
	// key (domain.EmailKey), which every store keeps lower-cased.
	elo := createUser(t, r, newUser("ÉLODIE Ünal", "Zoë.Ñ@Example.net"))
	for _, tc := range []struct {
		search string
		want   []int64
	}{
		{"Élodie", []int64{elo.ID}},
		{"élodie", []int64{}},
		{"LODIE ÜN", []int64{elo.ID}},
		{"ünal", []int64{}},
		{"zoë.ñ@", []int64{elo.ID}},
		{"ZOË", []int64{}},
	} {
		got, _, err := r.Admin.Users(ctx, ports.AdminUserQuery{Search: tc.search})
		must(t, "Admin.Users", err)
		check(t, fmt.Sprintf("Admin.Users(%q) outside ASCII", tc.search), userIDs(got), tc.want)
	}
}

// testAdminExport: the keyset reads of the exports walk every row once,
// in id order, drafts included.
func testAdminExport(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	var users []domain.User
	for i := range 5 {
		users = append(users, createUser(t, r, newUser(fmt.Sprintf("U%d", i), fmt.Sprintf("u%d@example.com", i))))
	}
	var seen []domain.User
	for after := int64(0); ; {
		batch, err := r.Admin.UsersAfter(ctx, after, 2)
		must(t, "Admin.UsersAfter", err)
		seen = append(seen, batch...)
		if len(batch) < 2 {
			break
		}
		after = batch[len(batch)-1].ID
	}
	check(t, "Admin.UsersAfter in batches", seen, users)

	var posts []domain.Post
	for i := range 5 {
		status := domain.StatusPublished
		if i%2 == 0 {
			status = domain.StatusDraft
		}
		posts = append(posts, createPost(t, r, newPost(t, users[i].ID, fmt.Sprintf("Post %d", i), status, at(time.Duration(-i)*time.Hour))))
	}
	var seenPosts []domain.Post
	for after := int64(0); ; {
		batch, err := r.Admin.PostsAfter(ctx, after, 2)
		must(t, "Admin.PostsAfter", err)
		seenPosts = append(seenPosts, batch...)
		if len(batch) < 2 {
			break
		}
		after = batch[len(batch)-1].ID()
	}
	check(t, "Admin.PostsAfter in batches", statesOf(seenPosts), statesOf(posts))
	none, err := r.Admin.PostsAfter(ctx, posts[4].ID(), 10)
	must(t, "Admin.PostsAfter past the end", err)
	check(t, "Admin.PostsAfter past the end", len(none), 0)
}

// testAdminPosts: every author's drafts are listed, newest first, by
// status and title, with totals.
func testAdminPosts(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	p1 := createPost(t, r, newPost(t, ann.ID, "Go generics", domain.StatusPublished, at(1*time.Hour)))
	p2 := createPost(t, r, newPost(t, bob.ID, "Draft on Go", domain.StatusDraft, at(2*time.Hour)))
	p3 := createPost(t, r, newPost(t, ann.ID, "Rust notes", domain.StatusDraft, at(3*time.Hour)))
	p4 := createPost(t, r, newPost(t, bob.ID, "ÉCOLE 100%", domain.StatusPublished, at(3*time.Hour)))
	cases := []struct {
		q     ports.AdminPostQuery
		want  []int64
		total int
	}{
		{ports.AdminPostQuery{}, []int64{p4.ID(), p3.ID(), p2.ID(), p1.ID()}, 4},
		{ports.AdminPostQuery{Page: ports.Page{Offset: 1, Limit: 2}}, []int64{p3.ID(), p2.ID()}, 4},
		{ports.AdminPostQuery{Status: domain.StatusDraft}, []int64{p3.ID(), p2.ID()}, 2},
		{ports.AdminPostQuery{Status: domain.StatusPublished}, []int64{p4.ID(), p1.ID()}, 2},
		{ports.AdminPostQuery{Search: "GO"}, []int64{p2.ID(), p1.ID()}, 2},
		{ports.AdminPostQuery{Search: "go", Status: domain.StatusDraft}, []int64{p2.ID()}, 1},
		{ports.AdminPostQuery{Search: "go", Status: domain.StatusDraft, Page: ports.Page{Offset: 1}}, []int64{}, 1},
		{ports.AdminPostQuery{Search: "école"}, []int64{p4.ID()}, 1},
		{ports.AdminPostQuery{Search: "0%"}, []int64{p4.ID()}, 1},
		{ports.AdminPostQuery{Search: "o_n"}, []int64{}, 0},
	}
	for _, tc := range cases {
		got, total, err := r.Admin.Posts(ctx, tc.q)
		must(t, "Admin.Posts", err)
		what := fmt.Sprintf("Admin.Posts(%+v)", tc.q)
		check(t, what, postIDs(got), tc.want)
		check(t, what+" total", total, tc.total)
	}
	got, _, err := r.Admin.Posts(ctx, ports.AdminPostQuery{Search: "rust"})
	must(t, "Admin.Posts", err)
	check(t, "Admin.Posts round trip", statesOf(got), statesOf([]domain.Post{p3}))
}

// testAdminPostSearch: a title search over every status, long enough for
// a trigram index and not, answers as a plain scan does: Unicode case
// folded as PostFilter.Search folds it, %, _ and quotes taken literally,
// drafts included, by status, paged, and its total bounded by CountUpTo.
func testAdminPostSearch(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	a := createPost(t, r, newPost(t, ann.ID, "Notes on generics", domain.StatusPublished, at(1*time.Hour)))
	b := createPost(t, r, newPost(t, ann.ID, "NOTES from the field", domain.StatusDraft, at(2*time.Hour)))
	c := createPost(t, r, newPost(t, ann.ID, `Field notes 50%_off "quoted"`, domain.StatusPublished, at(3*time.Hour)))
	d := createPost(t, r, newPost(t, ann.ID, "Ünïcode NÔTES", domain.StatusDraft, at(4*time.Hour)))
	e := createPost(t, r, newPost(t, ann.ID, "notes", domain.StatusPublished, at(4*time.Hour)))
	pg := func(off, lim int) ports.Page { return ports.Page{Offset: off, Limit: lim} }
	cases := []struct {
		q     ports.AdminPostQuery
		want  []int64
		total int
	}{
		{ports.AdminPostQuery{Search: "notes"}, []int64{e.ID(), c.ID(), b.ID(), a.ID()}, 4},
		{ports.AdminPostQuery{Search: "NOTES", Status: domain.StatusDraft}, []int64{b.ID()}, 1},
		{ports.AdminPostQuery{Search: "Notes", Status: domain.StatusPublished}, []int64{e.ID(), c.ID(), a.ID()}, 3},
		{ports.AdminPostQuery{Search: "nôtes"}, []int64{d.ID()}, 1},
		{ports.AdminPostQuery{Search: "ÜNÏCODE"}, []int64{d.ID()}, 1},
		{ports.AdminPostQuery{Search: "ünï", Status: domain.StatusPublished}, []int64{}, 0},
		{ports.AdminPostQuery{Search: "es f"}, []int64{b.ID()}, 1},
		{ports.AdminPostQuery{Search: "50%_"}, []int64{c.ID()}, 1},
		{ports.AdminPostQuery{Search: "%_"}, []int64{c.ID()}, 1},
		{ports.AdminPostQuery{Search: `"quoted"`}, []int64{c.ID()}, 1},
		{ports.AdminPostQuery{Search: "s_o"}, []int64{}, 0},
		{ports.AdminPostQuery{Search: "5_%"}, []int64{}, 0},
		{ports.AdminPostQuery{Search: "otes on%"}, []int64{}, 0},
		{ports.AdminPostQuery{Search: "notes", Page: pg(1, 2)}, []int64{c.ID(), b.ID()}, 4},
		{ports.AdminPostQuery{Search: "notes", Page: pg(10, 2)}, []int64{}, 4},
		// The bounded count.
		{ports.AdminPostQuery{Search: "notes", CountUpTo: 2, Page: pg(0, 2)}, []int64{e.ID(), c.ID()}, 3},
		{ports.AdminPostQuery{Search: "notes", CountUpTo: 2, Page: pg(2, 2)}, []int64{b.ID(), a.ID()}, 3},
		{ports.AdminPostQuery{Search: "notes", CountUpTo: 3}, []int64{e.ID(), c.ID(), b.ID(), a.ID()}, 4},
		{ports.AdminPostQuery{Search: "notes", CountUpTo: 4}, []int64{e.ID(), c.ID(), b.ID(), a.ID()}, 4},
		{ports.AdminPostQuery{Search: "notes", CountUpTo: 1, Status: domain.StatusDraft}, []int64{b.ID()}, 1},
		{ports.AdminPostQuery{Search: "o", CountUpTo: 2, Page: pg(1, 3)}, []int64{d.ID(), c.ID(), b.ID()}, 3},
		{ports.AdminPostQuery{Search: "notes", CountUpTo: 1, Page: pg(4, 1)}, []int64{}, 2},
		{ports.AdminPostQuery{CountUpTo: 3, Status: domain.StatusDraft}, []int64{d.ID(), b.ID()}, 2},
		{ports.AdminPostQuery{CountUpTo: 3, Page: pg(0, 1)}, []int64{e.ID()}, 4},
	}
	for _, tc := range cases {
		got, total, err := r.Admin.Posts(ctx, tc.q)
		must(t, "Admin.Posts", err)
		what := fmt.Sprintf("Admin.Posts(%+v)", tc.q)
		check(t, what, postIDs(got), tc.want)
		check(t, what+" total", total, tc.total)
	}

	// A phrase across words, among drafts and published posts: the titles
	// holding both words apart, or joined without the space, are not
	// matches, whatever an index of the words or of their joins finds.
	g1 := createPost(t, r, newPost(t, ann.ID, "Graceful worker shutdown", domain.StatusDraft, at(7*time.Hour)))
	g2 := createPost(t, r, newPost(t, ann.ID, "A GRACEFUL Worker pool", domain.StatusPublished, at(8*time.Hour)))
	createPost(t, r, newPost(t, ann.ID, "Graceful shutdown of a worker", domain.StatusPublished, at(9*time.Hour)))
	g4 := createPost(t, r, newPost(t, ann.ID, "gracefulworker", domain.StatusDraft, at(10*time.Hour)))
	g5 := createPost(t, r, newPost(t, ann.ID, "Hopeful workers", domain.StatusDraft, at(11*time.Hour)))
	for _, tc := range []struct {
		q     ports.AdminPostQuery
		want  []int64
		total int
	}{
		{ports.AdminPostQuery{Search: "graceful worker"}, []int64{g2.ID(), g1.ID()}, 2},
		{ports.AdminPostQuery{Search: "Graceful Worker", CountUpTo: 1, Page: pg(0, 1)}, []int64{g2.ID()}, 2},
		{ports.AdminPostQuery{Search: "graceful worker", CountUpTo: 5, Page: pg(1, 1)}, []int64{g1.ID()}, 2},
		{ports.AdminPostQuery{Search: "graceful worker", Status: domain.StatusDraft}, []int64{g1.ID()}, 1},
		{ports.AdminPostQuery{Search: "graceful worker", Status: domain.StatusPublished, CountUpTo: 5}, []int64{g2.ID()}, 1},
		{ports.AdminPostQuery{Search: "graceful worker shut"}, []int64{g1.ID()}, 1},
		{ports.AdminPostQuery{Search: "ful wor"}, []int64{g5.ID(), g2.ID(), g1.ID()}, 3},
		{ports.AdminPostQuery{Search: "ful wor", CountUpTo: 10, Status: domain.StatusDraft}, []int64{g5.ID(), g1.ID()}, 2},
		{ports.AdminPostQuery{Search: "fulwor"}, []int64{g4.ID()}, 1},
		{ports.AdminPostQuery{Search: "shutdown worker", CountUpTo: 5}, []int64{}, 0},
	} {
		got, total, err := r.Admin.Posts(ctx, tc.q)
		must(t, "Admin.Posts", err)
		what := fmt.Sprintf("Admin.Posts(%+v)", tc.q)
		check(t, what, postIDs(got), tc.want)
		check(t, what+" total", total, tc.total)
	}

	// The search follows a retitle, an unpublish and a delete.
	must(t, "Post.Retitle", b.Retitle("Field trip", at(5*time.Hour)))
	must(t, "Posts.Update", r.Posts.Update(ctx, b))
	must(t, "Posts.Delete", r.Posts.Delete(ctx, a.ID()))
	got, total, err := r.Admin.Posts(ctx, ports.AdminPostQuery{Search: "notes"})
	must(t, "Admin.Posts", err)
	check(t, "Admin.Posts after changes", postIDs(got), []int64{e.ID(), c.ID()})
	check(t, "Admin.Posts after changes total", total, 2)
	got, _, err = r.Admin.Posts(ctx, ports.AdminPostQuery{Search: "field trip", Status: domain.StatusDraft})
	must(t, "Admin.Posts", err)
	check(t, "Admin.Posts retitled draft", statesOf(got), statesOf([]domain.Post{b}))
	// A post found under one status is found under the other once it
	// changes, and under no status no longer.
	must(t, "Post.SetStatus", c.SetStatus(domain.StatusDraft, at(6*time.Hour)))
	must(t, "Posts.Update", r.Posts.Update(ctx, c))
	must(t, "Post.SetStatus", d.SetStatus(domain.StatusPublished, at(6*time.Hour)))
	must(t, "Posts.Update", r.Posts.Update(ctx, d))
	for _, tc := range []struct {
		q    ports.AdminPostQuery
		want []int64
	}{
		{ports.AdminPostQuery{Search: "field notes", Status: domain.StatusDraft}, []int64{c.ID()}},
		{ports.AdminPostQuery{Search: "field notes", Status: domain.StatusPublished}, []int64{}},
		{ports.AdminPostQuery{Search: "nôtes", Status: domain.StatusPublished}, []int64{d.ID()}},
		{ports.AdminPostQuery{Search: "nôtes", Status: domain.StatusDraft}, []int64{}},
		{ports.AdminPostQuery{Search: "notes"}, []int64{e.ID(), c.ID()}},
	} {
		got, _, err := r.Admin.Posts(ctx, tc.q)
		must(t, "Admin.Posts", err)
		check(t, fmt.Sprintf("Admin.Posts(%+v) after status changes", tc.q), postIDs(got), tc.want)
	}
}

// testAdminWebhooks: disabled webhooks first, then by failures, most
// first, then by id; each with its owner's e-mail.
func testAdminWebhooks(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	ok := createWebhook(t, r, newWebhook(ann.ID, "https://example.com/ok"))
	flaky := createWebhook(t, r, newWebhook(bob.ID, "https://example.com/flaky"))
	dead := createWebhook(t, r, newWebhook(ann.ID, "https://example.com/dead"))
	worse := createWebhook(t, r, newWebhook(bob.ID, "https://example.com/worse"))
	flaky.Failed("500", 0, at(time.Minute))
	must(t, "Webhooks.Update", r.Webhooks.Update(ctx, flaky))
	for range 3 {
		worse.Failed("timeout", 0, at(time.Minute))
	}
	must(t, "Webhooks.Update", r.Webhooks.Update(ctx, worse))
	dead.Failed("refused", 1, at(time.Minute))
	must(t, "Webhooks.Update", r.Webhooks.Update(ctx, dead))

	got, total, err := r.Admin.Webhooks(ctx, ports.Page{})
	must(t, "Admin.Webhooks", err)
	check(t, "Admin.Webhooks", got, []ports.AdminWebhook{
		{Webhook: dead, OwnerEmail: ann.Email}, {Webhook: worse, OwnerEmail: bob.Email},
		{Webhook: flaky, OwnerEmail: bob.Email}, {Webhook: ok, OwnerEmail: ann.Email},
	})
	check(t, "Admin.Webhooks total", total, 4)
	got, total, err = r.Admin.Webhooks(ctx, ports.Page{Offset: 3, Limit: 2})
	must(t, "Admin.Webhooks page", err)
	check(t, "Admin.Webhooks last page", len(got), 1)
	check(t, "Admin.Webhooks page total", total, 4)
}

// testAdminMails: newest first, by status, with totals.
func testAdminMails(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	a := enqueueMail(t, r, newMail(11, "ann@example.com", base))
	b := enqueueMail(t, r, newMail(12, "bob@example.com", base))
	c := enqueueMail(t, r, newMail(13, "cy@example.com", base))
	b.Failed("550 no such user", false, time.Minute, at(time.Minute))
	must(t, "Mails.Update", r.Mails.Update(ctx, b))
	cases := []struct {
		q     ports.AdminMailQuery
		want  []domain.Mail
		total int
	}{
		{ports.AdminMailQuery{}, []domain.Mail{c, b, a}, 3},
		{ports.AdminMailQuery{Page: ports.Page{Offset: 1, Limit: 1}}, []domain.Mail{b}, 3},
		{ports.AdminMailQuery{Status: domain.MailPending}, []domain.Mail{c, a}, 2},
		{ports.AdminMailQuery{Status: domain.MailFailed}, []domain.Mail{b}, 1},
		{ports.AdminMailQuery{Status: domain.MailSent}, []domain.Mail{}, 0},
	}
	for _, tc := range cases {
		got, total, err := r.Admin.Mails(ctx, tc.q)
		must(t, "Admin.Mails", err)
		what := fmt.Sprintf("Admin.Mails(%+v)", tc.q)
		check(t, what, got, tc.want)
		check(t, what+" total", total, tc.total)
	}
}

// testAdminSessions: a user's sessions of both kinds, latest activity
// first, and none of another's.
func testAdminSessions(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	old := createSession(t, r, newSession(ann.ID, at(time.Minute)))
	recent := newSession(ann.ID, at(time.Hour))
	recent.Kind = domain.SessionConsole
	createSession(t, r, recent)
	createSession(t, r, newSession(bob.ID, at(2*time.Hour)))
	createSession(t, r, newSession(0, at(3*time.Hour)))
	got, err := r.Admin.Sessions(ctx, ann.ID)
	must(t, "Admin.Sessions", err)
	check(t, "Admin.Sessions", got, []domain.Session{recent, old})
	got, err = r.Admin.Sessions(ctx, missingID)
	must(t, "Admin.Sessions of nobody", err)
	check(t, "Admin.Sessions of nobody", len(got), 0)
}

// testAdminCounts: the overview's counts and recent failures follow what
// is stored.
func testAdminCounts(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	p := createPost(t, r, newPost(t, ann.ID, "Out", domain.StatusPublished, base))
	createPost(t, r, newPost(t, ann.ID, "In 1", domain.StatusDraft, base))
	createPost(t, r, newPost(t, bob.ID, "In 2", domain.StatusDraft, base))
	createComment(t, r, newComment(p.ID(), bob.ID, "Nice", base))
	w := createWebhook(t, r, newWebhook(ann.ID, "https://example.com/hook"))
	off := createWebhook(t, r, newWebhook(bob.ID, "https://example.com/off"))
	off.Disable(at(time.Minute))
	must(t, "Webhooks.Update", r.Webhooks.Update(ctx, off))
	events := sampleEvents(t)
	appendEvent(t, r, events[0])
	appendEvent(t, r, events[1])
	createDelivery(t, r, domain.NewDelivery(w, events[0], base))
	failed := createDelivery(t, r, domain.NewDelivery(w, events[1], base))
	failed.Fail(500, "500 Internal Server Error", 1, time.Minute, at(2*time.Minute))
	must(t, "Deliveries.Update", r.Deliveries.Update(ctx, failed))
	enqueueMail(t, r, newMail(21, "ann@example.com", base))
	bounced := enqueueMail(t, r, newMail(22, "bob@example.com", base))
	bounced.Failed("550 mailbox unavailable", false, time.Minute, at(3*time.Minute))
	must(t, "Mails.Update", r.Mails.Update(ctx, bounced))

	got, err := r.Admin.Counts(ctx)
	must(t, "Admin.Counts", err)
	check(t, "Admin.Counts", got, ports.AdminOverview{
		Users: 2, Published: 1, Drafts: 2,
		Comments: 1, Webhooks: 2, WebhooksDisabled: 1, EventBacklog: 2,
		DeliveriesPending: 1, DeliveriesFailed: 1, MailsPending: 1, MailsFailed: 1,
	})

	fails, err := r.Admin.RecentFailures(ctx, 10)
	must(t, "Admin.RecentFailures", err)
	check(t, "Admin.RecentFailures", fails, []ports.AdminFailure{
		{Subject: domain.SubjectMail, ID: bounced.ID, Target: "bob@example.com", Error: "550 mailbox unavailable", Attempts: 1, At: at(3 * time.Minute)},
		{Subject: domain.SubjectDelivery, ID: failed.ID, Target: w.URL, Error: "500 Internal Server Error", Attempts: 1, At: at(2 * time.Minute)},
	})
	fails, err = r.Admin.RecentFailures(ctx, 1)
	must(t, "Admin.RecentFailures(1)", err)
	check(t, "Admin.RecentFailures(1)", len(fails), 1)
}

// statesOf is what posts hold, in a form check compares.
func statesOf(posts []domain.Post) []domain.PostState {
	out := make([]domain.PostState, len(posts))
	for i, p := range posts {
		out[i] = p.State()
	}
	return out
}
