package portstest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var commentTests = []storeTest{
	{"RoundTrip", testCommentRoundTrip},
	{"NotFound", testCommentNotFound},
	{"Update", testCommentUpdate},
	{"Lock", testCommentLock},
	{"Delete", testCommentDelete},
	{"ListByPost", testCommentListByPost},
}

func testCommentRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	p := createPost(t, r, newPost(t, ann.ID, "Commented", domain.StatusPublished, base))
	cases := []struct {
		name    string
		comment domain.Comment
	}{
		{"every field set", domain.Comment{
			PostID:    p.ID(),
			UserID:    bob.ID,
			Body:      "Zoë says: <b>nice</b> 😀\n\tsecond line",
			CreatedAt: base,
			UpdatedAt: at(2*time.Second + 654321*time.Microsecond),
		}},
		{"the longest body", domain.Comment{
			PostID:    p.ID(),
			UserID:    ann.ID,
			Body:      strings.Repeat("ü", 5000),
			CreatedAt: at(time.Minute),
			UpdatedAt: at(time.Minute),
		}},
	}
	seen := map[int64]string{}
	var want []domain.Comment
	for _, tc := range cases {
		c := tc.comment
		if err := r.Comments.Create(ctx, &c); err != nil {
			t.Fatalf("%s: Comments.Create: %v", tc.name, err)
		}
		if c.ID <= 0 {
			t.Errorf("%s: Comments.Create set ID %d, want a positive id", tc.name, c.ID)
		}
		if other, ok := seen[c.ID]; ok {
			t.Errorf("%s: Comments.Create set ID %d, already given to %s", tc.name, c.ID, other)
		}
		seen[c.ID] = tc.name
		w := tc.comment
		w.ID = c.ID
		check(t, tc.name+": the created comment (Create sets only the ID)", c, w)
		want = append(want, w)
		got, err := r.Comments.Get(ctx, c.ID)
		if checkErr(t, tc.name+": Comments.Get", err, nil) {
			check(t, tc.name+": Comments.Get", got, w)
		}
	}
	got, total, err := r.Comments.ListByPost(ctx, p.ID(), ports.Page{Limit: 10})
	if checkErr(t, "Comments.ListByPost", err, nil) {
		if total != 2 {
			t.Errorf("Comments.ListByPost: got total %d, want 2", total)
		}
		check(t, "Comments.ListByPost", got, withAuthors(t, want, ann, bob))
	}
}

func testCommentNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	p := createPost(t, r, newPost(t, ann.ID, "Commented", domain.StatusPublished, base))
	existing := createComment(t, r, newComment(p.ID(), ann.ID, "existing", base))
	calls := []struct {
		name string
		call func(r ports.Repos) error
	}{
		{"Create on a missing post", func(r ports.Repos) error {
			c := newComment(missingID, ann.ID, "orphan", base)
			return r.Comments.Create(ctx, &c)
		}},
		{"Create by a missing user", func(r ports.Repos) error {
			c := newComment(p.ID(), missingID, "orphan", base)
			return r.Comments.Create(ctx, &c)
		}},
		{"Get", func(r ports.Repos) error { _, err := r.Comments.Get(ctx, missingID); return err }},
		{"Lock", func(r ports.Repos) error { _, err := r.Comments.Lock(ctx, missingID); return err }},
		{"Update", func(r ports.Repos) error {
			c := existing
			c.ID, c.Body = missingID, "changed"
			return r.Comments.Update(ctx, c)
		}},
		{"Delete", func(r ports.Repos) error { return r.Comments.Delete(ctx, missingID) }},
	}
	for _, c := range calls {
		for _, w := range bothPlaces {
			checkErr(t, fmt.Sprintf("Comments.%s %s", c.name, w.name), w.run(ctx, st, c.call), domain.ErrNotFound)
		}
	}
	got, total, err := r.Comments.ListByPost(ctx, p.ID(), ports.Page{Limit: 10})
	if checkErr(t, "Comments.ListByPost after the failed calls", err, nil) {
		if total != 1 {
			t.Errorf("Comments.ListByPost after the failed calls: got total %d, want 1", total)
		}
		check(t, "Comments.ListByPost after the failed calls", got, withAuthors(t, []domain.Comment{existing}, ann))
	}
}

func testCommentUpdate(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	p := createPost(t, r, newPost(t, ann.ID, "Commented", domain.StatusPublished, base))
	q := createPost(t, r, newPost(t, bob.ID, "Elsewhere", domain.StatusPublished, base))
	orig := createComment(t, r, newComment(p.ID(), ann.ID, "original", base))
	other := createComment(t, r, newComment(p.ID(), bob.ID, "other", at(time.Second)))

	steps := []struct {
		name    string
		comment domain.Comment
	}{
		{"body and time changed, the rest handed in changed too", domain.Comment{
			ID:        orig.ID,
			PostID:    q.ID(), // must be ignored
			UserID:    bob.ID, // must be ignored
			Body:      "edited <i>once</i>",
			CreatedAt: at(100 * time.Hour), // must be ignored
			UpdatedAt: at(time.Hour + time.Microsecond),
		}},
		{"unknown post and user handed in", domain.Comment{
			ID:        orig.ID,
			PostID:    missingID, // must be ignored, not refused
			UserID:    missingID, // must be ignored, not refused
			Body:      "edited twice",
			UpdatedAt: at(2 * time.Hour),
		}},
	}
	for _, s := range steps {
		if err := r.Comments.Update(ctx, s.comment); err != nil {
			t.Fatalf("%s: Comments.Update: %v", s.name, err)
		}
		want := orig
		want.Body, want.UpdatedAt = s.comment.Body, s.comment.UpdatedAt
		got, err := r.Comments.Get(ctx, orig.ID)
		if checkErr(t, s.name+": Comments.Get", err, nil) {
			check(t, s.name+": Comments.Get (Update writes the body and UpdatedAt only)", got, want)
		}
	}
	list, total, err := r.Comments.ListByPost(ctx, q.ID(), ports.Page{Limit: 10})
	if checkErr(t, "Comments.ListByPost of the post handed to Update", err, nil) && (len(list) != 0 || total != 0) {
		t.Errorf("Comments.ListByPost of the post handed to Update: got %d comments of %d, want none", len(list), total)
	}
	got, err := r.Comments.Get(ctx, other.ID)
	if checkErr(t, "Comments.Get of the other comment", err, nil) {
		check(t, "the other comment after the updates", got, other)
	}
}

func testCommentDelete(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	p := createPost(t, r, newPost(t, ann.ID, "Commented", domain.StatusPublished, base))
	doomed := createComment(t, r, newComment(p.ID(), ann.ID, "doomed", base))
	kept := createComment(t, r, newComment(p.ID(), ann.ID, "kept", at(time.Second)))

	checkErr(t, "Comments.Delete", r.Comments.Delete(ctx, doomed.ID), nil)
	_, err := r.Comments.Get(ctx, doomed.ID)
	checkErr(t, "Comments.Get of a deleted comment", err, domain.ErrNotFound)
	checkErr(t, "Comments.Delete of a deleted comment", r.Comments.Delete(ctx, doomed.ID), domain.ErrNotFound)
	list, total, err := r.Comments.ListByPost(ctx, p.ID(), ports.Page{Limit: 10})
	if checkErr(t, "Comments.ListByPost after a delete", err, nil) {
		if total != 1 {
			t.Errorf("Comments.ListByPost after a delete: got total %d, want 1", total)
		}
		check(t, "Comments.ListByPost after a delete", list, withAuthors(t, []domain.Comment{kept}, ann))
	}
	got, err := r.Posts.Get(ctx, p.ID())
	if checkErr(t, "Posts.Get of the commented post", err, nil) {
		check(t, "the post after deleting a comment", got.State(), p.State())
	}
}

func testCommentListByPost(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	p := createPost(t, r, newPost(t, ann.ID, "Commented", domain.StatusPublished, base))
	q := createPost(t, r, newPost(t, bob.ID, "Elsewhere", domain.StatusPublished, base))
	silent := createPost(t, r, newPost(t, bob.ID, "Silent", domain.StatusPublished, base))
	// Creation order, the order of ids, differs from the order of
	// created_at, and two comments share a created_at. Oldest first they
	// come as 1, 3, 0, 2, 4.
	var all []domain.Comment
	for i, c := range []domain.Comment{
		newComment(p.ID(), ann.ID, "c0", at(2*time.Hour)),
		newComment(p.ID(), bob.ID, "c1", at(0)),
		newComment(p.ID(), bob.ID, "c2", at(2*time.Hour)),
		newComment(p.ID(), ann.ID, "c3", at(time.Hour)),
		newComment(p.ID(), bob.ID, "c4", at(3*time.Hour)),
	} {
		all = append(all, createComment(t, r, c))
		if i > 0 && all[i].ID <= all[i-1].ID {
			t.Fatalf("Comments.Create gave id %d after id %d; want ids growing with creation", all[i].ID, all[i-1].ID)
		}
	}
	elsewhere := createComment(t, r, newComment(q.ID(), ann.ID, "elsewhere", at(time.Hour)))
	pick := func(idx ...int) []domain.Comment {
		out := make([]domain.Comment, len(idx))
		for i, j := range idx {
			out[i] = all[j]
		}
		return out
	}
	cases := []struct {
		post  int64
		page  ports.Page
		want  []domain.Comment
		total int
	}{
		{p.ID(), ports.Page{Limit: 100}, pick(1, 3, 0, 2, 4), 5},
		{p.ID(), ports.Page{Offset: 0, Limit: 2}, pick(1, 3), 5},
		{p.ID(), ports.Page{Offset: 2, Limit: 2}, pick(0, 2), 5},
		{p.ID(), ports.Page{Offset: 4, Limit: 2}, pick(4), 5},
		{p.ID(), ports.Page{Offset: 5, Limit: 2}, nil, 5},
		{p.ID(), ports.Page{Offset: 50, Limit: 2}, nil, 5},
		{p.ID(), ports.Page{Offset: 1, Limit: 100}, pick(3, 0, 2, 4), 5},
		{p.ID(), ports.Page{Offset: 0, Limit: 0}, pick(1, 3, 0, 2, 4), 5}, // no limit
		{q.ID(), ports.Page{Limit: 100}, []domain.Comment{elsewhere}, 1},
		{silent.ID(), ports.Page{Limit: 100}, nil, 0},
		{missingID, ports.Page{Limit: 100}, nil, 0},
	}
	for _, tc := range cases {
		what := fmt.Sprintf("Comments.ListByPost(%d, Page%+v)", tc.post, tc.page)
		got, total, err := r.Comments.ListByPost(ctx, tc.post, tc.page)
		if !checkErr(t, what, err, nil) {
			continue
		}
		if total != tc.total {
			t.Errorf("%s: got total %d, want %d", what, total, tc.total)
		}
		if g, w := commentBodies(commentsOf(got)), commentBodies(tc.want); !slices.Equal(g, w) {
			t.Errorf("%s: got %q, want %q", what, g, w)
			continue
		}
		want := withAuthors(t, tc.want, ann, bob)
		for i := range got {
			check(t, fmt.Sprintf("%s: item %d", what, i), got[i], want[i])
		}
	}
}

func commentBodies(comments []domain.Comment) []string {
	out := make([]string, len(comments))
	for i, c := range comments {
		out[i] = c.Body
	}
	return out
}

func testCommentLock(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	p := createPost(t, r, newPost(t, ann.ID, "Commented", domain.StatusPublished, base))
	c := createComment(t, r, newComment(p.ID(), ann.ID, "locked", base))
	changed := c
	changed.Body, changed.UpdatedAt = "locked and changed", at(time.Hour)
	err := st.InTx(ctx, func(r ports.Repos) error {
		got, err := r.Comments.Lock(ctx, c.ID)
		if err != nil {
			return fmt.Errorf("Comments.Lock: %w", err)
		}
		check(t, "Comments.Lock", got, c)
		return r.Comments.Update(ctx, changed)
	})
	checkErr(t, "InTx locking and updating a comment", err, nil)
	got, err := st.Repos().Comments.Get(ctx, c.ID)
	if checkErr(t, "Comments.Get", err, nil) {
		check(t, "comment updated after Lock", got, changed)
	}
}
