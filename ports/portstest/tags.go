package portstest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var tagTests = []storeTest{
	{"RoundTrip", testTagRoundTrip},
	{"NameTaken", testTagNameTaken},
	{"List", testTagList},
	{"ByIDs", testTagByIDs},
	{"LockAndByName", testTagLockAndByName},
	{"Update", testTagUpdate},
	{"Move", testTagMove},
	{"MoveTrashed", testTagMoveTrashed},
	{"Delete", testTagDelete},
	{"Counted", testTagCounted},
}

func testTagRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	cases := []domain.Tag{
		{Name: "Zoë’s Ångström", Slug: "zoes-angstrom", CreatedAt: base, UpdatedAt: at(2*time.Second + 654321*time.Microsecond)},
		{Name: "Go", Slug: "go", CreatedAt: at(time.Minute), UpdatedAt: at(time.Minute)},
	}
	seen := map[int64]string{}
	var want []domain.Tag
	for _, tc := range cases {
		tag := tc
		if err := r.Tags.Create(ctx, &tag); err != nil {
			t.Fatalf("Tags.Create(%q): %v", tc.Name, err)
		}
		if tag.ID <= 0 {
			t.Errorf("Tags.Create(%q) set ID %d, want a positive id", tc.Name, tag.ID)
		}
		if other, ok := seen[tag.ID]; ok {
			t.Errorf("Tags.Create(%q) set ID %d, already given to %q", tc.Name, tag.ID, other)
		}
		seen[tag.ID] = tc.Name
		w := tc
		w.ID = tag.ID
		check(t, fmt.Sprintf("Tags.Create(%q): the created tag (Create sets only the ID)", tc.Name), tag, w)
		want = append(want, w)
		got, err := r.Tags.ByIDs(ctx, []int64{tag.ID})
		if checkErr(t, fmt.Sprintf("Tags.ByIDs of %q", tc.Name), err, nil) {
			check(t, fmt.Sprintf("Tags.ByIDs of %q", tc.Name), got, []domain.Tag{w})
		}
	}
	got, err := r.Tags.List(ctx)
	if checkErr(t, "Tags.List", err, nil) {
		check(t, "Tags.List", got, []domain.Tag{want[1], want[0]})
	}
}

func testTagNameTaken(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	golang := createTag(t, r, "Go", base)
	for _, name := range []string{"go", "GO", "Go"} {
		for _, w := range bothPlaces {
			err := w.run(ctx, st, func(r ports.Repos) error {
				tag := newTag(t, name, at(time.Hour))
				return r.Tags.Create(ctx, &tag)
			})
			checkErr(t, fmt.Sprintf("Tags.Create(%q) after %q %s", name, "Go", w.name), err, domain.ErrTagTaken)
		}
	}
	got, err := r.Tags.List(ctx)
	if checkErr(t, "Tags.List after the refused creates", err, nil) {
		check(t, "Tags.List after the refused creates", got, []domain.Tag{golang})
	}
	// A name that only contains a taken one, or slugifies alike, is free.
	for _, name := range []string{"Golang", "Go!"} {
		tag := newTag(t, name, base)
		checkErr(t, fmt.Sprintf("Tags.Create(%q) after %q", name, "Go"), r.Tags.Create(ctx, &tag), nil)
	}
}

func testTagList(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	got, err := r.Tags.List(ctx)
	if checkErr(t, "Tags.List of no tags", err, nil) && len(got) != 0 {
		t.Errorf("Tags.List of no tags: got %q, want none", tagNames(got))
	}
	// Names are chosen to sort alike in byte order and in every common
	// collation: the port does not name one. Creation order differs from
	// name order.
	var tags []domain.Tag
	for i, name := range []string{"SQL", "Go", "Rust", "Docker", "Go Lang", "Kubernetes"} {
		tags = append(tags, createTag(t, r, name, at(time.Duration(i)*time.Second)))
	}
	got, err = r.Tags.List(ctx)
	if checkErr(t, "Tags.List", err, nil) {
		want := []domain.Tag{tags[3], tags[1], tags[4], tags[5], tags[2], tags[0]}
		if !check(t, "Tags.List ordered by name", tagNames(got), tagNames(want)) {
			return
		}
		check(t, "Tags.List", got, want)
	}
}

func testTagByIDs(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	// Creation order is id order; the names sort the other way, so that
	// the result shows which order ByIDs keeps.
	c := createTag(t, r, "Cobol", base)
	b := createTag(t, r, "Basic", base)
	a := createTag(t, r, "Ada", base)
	cases := []struct {
		name string
		ids  []int64
		want []domain.Tag
	}{
		{"every tag, out of order", []int64{a.ID, c.ID, b.ID}, []domain.Tag{c, b, a}},
		{"unknown ids are left out", []int64{missingID, a.ID, missingID + 1, c.ID}, []domain.Tag{c, a}},
		{"an id given twice comes once", []int64{a.ID, a.ID, b.ID, a.ID}, []domain.Tag{b, a}},
		{"one tag", []int64{b.ID}, []domain.Tag{b}},
		{"only unknown ids", []int64{missingID}, nil},
		{"no ids", []int64{}, nil},
		{"nil", nil, nil},
	}
	for _, tc := range cases {
		for _, w := range bothPlaces {
			var got []domain.Tag
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				got, err = r.Tags.ByIDs(ctx, tc.ids)
				return err
			})
			what := fmt.Sprintf("Tags.ByIDs, %s, %s", tc.name, w.name)
			if !checkErr(t, what, err, nil) {
				continue
			}
			// Nothing found may come back nil or empty: the port does not
			// say, and the use cases treat both alike.
			if len(tc.want) == 0 {
				if len(got) != 0 {
					t.Errorf("%s: got %q, want none", what, tagNames(got))
				}
				continue
			}
			check(t, what, got, tc.want)
		}
	}
}

func testTagLockAndByName(t *testing.T, st ports.Store) {
	ctx := t.Context()
	golang := createTag(t, st.Repos(), "Go Lang", base)
	createTag(t, st.Repos(), "Rust", base)
	for _, w := range bothPlaces {
		var got domain.Tag
		err := w.run(ctx, st, func(r ports.Repos) error {
			var err error
			got, err = r.Tags.Lock(ctx, golang.ID)
			return err
		})
		if checkErr(t, "Tags.Lock "+w.name, err, nil) {
			check(t, "Tags.Lock "+w.name, got, golang)
		}
		err = w.run(ctx, st, func(r ports.Repos) error {
			_, err := r.Tags.Lock(ctx, missingID)
			return err
		})
		checkErr(t, "Tags.Lock of a missing tag "+w.name, err, domain.ErrNotFound)
		for _, name := range []string{"Go Lang", "go lang", "GO LANG"} {
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				got, err = r.Tags.ByName(ctx, name)
				return err
			})
			if checkErr(t, fmt.Sprintf("Tags.ByName(%q) %s", name, w.name), err, nil) {
				check(t, fmt.Sprintf("Tags.ByName(%q) %s", name, w.name), got, golang)
			}
		}
		for _, name := range []string{"Go", "Go Lang ", "go%", ""} {
			err := w.run(ctx, st, func(r ports.Repos) error {
				_, err := r.Tags.ByName(ctx, name)
				return err
			})
			checkErr(t, fmt.Sprintf("Tags.ByName(%q) %s", name, w.name), err, domain.ErrNotFound)
		}
	}
}

func testTagUpdate(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	golang := createTag(t, r, "Go", base)
	rust := createTag(t, r, "Rust", base)
	renamed := golang
	must(t, "Tag.Rename", renamed.Rename("Zoë’s Go", at(time.Hour+time.Microsecond)))
	checkErr(t, "Tags.Update", r.Tags.Update(ctx, renamed), nil)
	got, err := r.Tags.ByIDs(ctx, []int64{golang.ID, rust.ID})
	if checkErr(t, "Tags.ByIDs after Update", err, nil) {
		check(t, "Tags.ByIDs after Update (name, slug and UpdatedAt change, CreatedAt stays)", got, []domain.Tag{renamed, rust})
	}
	// The old name is free, the new one taken, ignoring case.
	checkErr(t, "Tags.ByName of the old name", func() error { _, err := r.Tags.ByName(ctx, "go"); return err }(), domain.ErrNotFound)
	if got, err := r.Tags.ByName(ctx, "ZOË’S GO"); checkErr(t, "Tags.ByName of the new name", err, nil) {
		check(t, "Tags.ByName of the new name", got, renamed)
	}
	again := newTag(t, "go", base)
	checkErr(t, "Tags.Create of the old name", r.Tags.Create(ctx, &again), nil)
	// A tag may change the case of its own name.
	upper := renamed
	must(t, "Tag.Rename", upper.Rename("ZOË’S GO", at(2*time.Hour)))
	checkErr(t, "Tags.Update changing only the case", r.Tags.Update(ctx, upper), nil)
	for _, w := range bothPlaces {
		for _, name := range []string{"Rust", "rust", "GO"} {
			taken := upper
			must(t, "Tag.Rename", taken.Rename(name, at(3*time.Hour)))
			err := w.run(ctx, st, func(r ports.Repos) error { return r.Tags.Update(ctx, taken) })
			checkErr(t, fmt.Sprintf("Tags.Update to %q %s", name, w.name), err, domain.ErrTagTaken)
		}
		missing := upper
		missing.ID = missingID
		err := w.run(ctx, st, func(r ports.Repos) error { return r.Tags.Update(ctx, missing) })
		checkErr(t, "Tags.Update of a missing tag "+w.name, err, domain.ErrNotFound)
	}
	got, err = r.Tags.ByIDs(ctx, []int64{golang.ID, rust.ID})
	if checkErr(t, "Tags.ByIDs after the refused updates", err, nil) {
		check(t, "Tags.ByIDs after the refused updates", got, []domain.Tag{upper, rust})
	}
}

// tagFixture is two tags and three posts: one under a, one under both, one
// under b and c.
type tagFixture struct {
	a, b, c             domain.Tag
	onlyA, both, others domain.Post
}

func newTagFixture(t *testing.T, r ports.Repos) tagFixture {
	t.Helper()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	var f tagFixture
	f.a = createTag(t, r, "Alpha", base)
	f.b = createTag(t, r, "Beta", at(time.Second))
	f.c = createTag(t, r, "Gamma", at(2*time.Second))
	f.onlyA = createPost(t, r, newPost(t, ann.ID, "Only alpha", domain.StatusPublished, base))
	f.both = createPost(t, r, newPost(t, ann.ID, "Both", domain.StatusDraft, at(time.Minute)))
	f.others = createPost(t, r, newPost(t, ann.ID, "Others", domain.StatusPublished, at(2*time.Minute)))
	setTags(t, r, f.onlyA, f.a)
	setTags(t, r, f.both, f.a, f.b)
	setTags(t, r, f.others, f.b, f.c)
	return f
}

// checkTagsOf compares the tags of each of posts, in their order, with
// want's (none for a post want leaves out).
func checkTagsOf(t *testing.T, what string, r ports.Repos, want map[int64][]domain.Tag, posts ...domain.Post) {
	t.Helper()
	ids := make([]int64, len(posts))
	for i, p := range posts {
		ids[i] = p.ID()
	}
	got, err := r.Tags.OfPosts(t.Context(), ids)
	if !checkErr(t, what, err, nil) {
		return
	}
	for _, p := range posts {
		g, w := got[p.ID()], want[p.ID()]
		if len(g) == 0 && len(w) == 0 {
			continue
		}
		check(t, fmt.Sprintf("%s: post %q", what, p.Title()), g, w)
	}
}

func testTagMove(t *testing.T, st ports.Store) {
	ctx := t.Context()
	f := newTagFixture(t, st.Repos())
	for _, w := range bothPlaces {
		for _, ids := range [][2]int64{{missingID, f.b.ID}, {f.a.ID, missingID}} {
			err := w.run(ctx, st, func(r ports.Repos) error {
				_, err := r.Tags.Move(ctx, ids[0], ids[1])
				return err
			})
			checkErr(t, fmt.Sprintf("Tags.Move(%d, %d) %s", ids[0], ids[1], w.name), err, domain.ErrNotFound)
		}
	}
	// A move that rolls back leaves every post as it was.
	errRollback := errors.New("roll back")
	err := st.InTx(ctx, func(r ports.Repos) error {
		if _, err := r.Tags.Move(ctx, f.a.ID, f.c.ID); err != nil {
			return err
		}
		return errRollback
	})
	checkErr(t, "InTx of a Move that fails", err, errRollback)
	before := map[int64][]domain.Tag{f.onlyA.ID(): {f.a}, f.both.ID(): {f.a, f.b}, f.others.ID(): {f.b, f.c}}
	checkTagsOf(t, "Tags.OfPosts after a Move rolled back", st.Repos(), before, f.onlyA, f.both, f.others)

	var moved int64
	err = st.InTx(ctx, func(r ports.Repos) error {
		var err error
		moved, err = r.Tags.Move(ctx, f.a.ID, f.b.ID)
		return err
	})
	if checkErr(t, "Tags.Move(a, b)", err, nil) {
		check(t, "posts Tags.Move(a, b) moved", moved, int64(2))
	}
	after := map[int64][]domain.Tag{f.onlyA.ID(): {f.b}, f.both.ID(): {f.b}, f.others.ID(): {f.b, f.c}}
	checkTagsOf(t, "Tags.OfPosts after Move(a, b)", st.Repos(), after, f.onlyA, f.both, f.others)
	// a is left without posts, and still there.
	moved, err = st.Repos().Tags.Move(ctx, f.a.ID, f.c.ID)
	if checkErr(t, "Tags.Move of a tag without posts", err, nil) {
		check(t, "posts Tags.Move of a tag without posts moved", moved, int64(0))
	}
	if got, err := st.Repos().Tags.ByIDs(ctx, []int64{f.a.ID}); checkErr(t, "Tags.ByIDs after Move", err, nil) {
		check(t, "Tags.ByIDs after Move", got, []domain.Tag{f.a})
	}
}

func testTagDelete(t *testing.T, st ports.Store) {
	ctx := t.Context()
	f := newTagFixture(t, st.Repos())
	for _, w := range bothPlaces {
		err := w.run(ctx, st, func(r ports.Repos) error { return r.Tags.Delete(ctx, missingID) })
		checkErr(t, "Tags.Delete of a missing tag "+w.name, err, domain.ErrNotFound)
	}
	errRollback := errors.New("roll back")
	err := st.InTx(ctx, func(r ports.Repos) error {
		if err := r.Tags.Delete(ctx, f.b.ID); err != nil {
			return err
		}
		return errRollback
	})
	checkErr(t, "InTx of a Delete that fails", err, errRollback)
	before := map[int64][]domain.Tag{f.onlyA.ID(): {f.a}, f.both.ID(): {f.a, f.b}, f.others.ID(): {f.b, f.c}}
	checkTagsOf(t, "Tags.OfPosts after a Delete rolled back", st.Repos(), before, f.onlyA, f.both, f.others)

	for i, w := range bothPlaces {
		tag := []domain.Tag{f.b, f.a}[i]
		err := w.run(ctx, st, func(r ports.Repos) error { return r.Tags.Delete(ctx, tag.ID) })
		checkErr(t, fmt.Sprintf("Tags.Delete(%q) %s", tag.Name, w.name), err, nil)
		err = w.run(ctx, st, func(r ports.Repos) error { return r.Tags.Delete(ctx, tag.ID) })
		checkErr(t, fmt.Sprintf("Tags.Delete(%q) again %s", tag.Name, w.name), err, domain.ErrNotFound)
	}
	checkTagsOf(t, "Tags.OfPosts after deleting a and b", st.Repos(), map[int64][]domain.Tag{f.others.ID(): {f.c}}, f.onlyA, f.both, f.others)
	got, err := st.Repos().Tags.List(ctx)
	if checkErr(t, "Tags.List after deleting a and b", err, nil) {
		check(t, "Tags.List after deleting a and b", got, []domain.Tag{f.c})
	}
	// The name is free again, and the posts take new tags.
	alpha := createTag(t, st.Repos(), "alpha", at(time.Hour))
	setTags(t, st.Repos(), f.onlyA, alpha)
	checkTagsOf(t, "Tags.OfPosts after a new tag of the old name", st.Repos(), map[int64][]domain.Tag{f.onlyA.ID(): {alpha}}, f.onlyA)
}

func testTagCounted(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	f := newTagFixture(t, r)
	// d has no posts and was made before the others; its name sorts
	// between b and c; "_" in a name must match only itself.
	d := createTag(t, r, "Delta_x", at(-time.Hour))
	a, b, c := ports.TagCount{Tag: f.a, Posts: 2}, ports.TagCount{Tag: f.b, Posts: 2}, ports.TagCount{Tag: f.c, Posts: 1}
	dc := ports.TagCount{Tag: d}
	page := ports.Page{Limit: 100}
	cases := []struct {
		name  string
		q     ports.TagQuery
		want  []ports.TagCount
		total int
	}{
		{"by name", ports.TagQuery{Page: page}, []ports.TagCount{a, b, dc, c}, 4},
		{"by name, named", ports.TagQuery{Sort: ports.SortKey{Field: "name"}, Page: page}, []ports.TagCount{a, b, dc, c}, 4},
		{"by name descending", ports.TagQuery{Sort: ports.SortKey{Field: "name", Desc: true}, Page: page}, []ports.TagCount{c, dc, b, a}, 4},
		{"by posts, ties by id", ports.TagQuery{Sort: ports.SortKey{Field: "posts"}, Page: page}, []ports.TagCount{dc, c, a, b}, 4},
		{"by posts descending, ties by id descending", ports.TagQuery{Sort: ports.SortKey{Field: "posts", Desc: true}, Page: page}, []ports.TagCount{b, a, c, dc}, 4},
		{"by creation", ports.TagQuery{Sort: ports.SortKey{Field: "created_at"}, Page: page}, []ports.TagCount{dc, a, b, c}, 4},
		{"by creation descending", ports.TagQuery{Sort: ports.SortKey{Field: "created_at", Desc: true}, Page: page}, []ports.TagCount{c, b, a, dc}, 4},
		{"a page", ports.TagQuery{Page: ports.Page{Offset: 1, Limit: 2}}, []ports.TagCount{b, dc}, 4},
		{"past the end", ports.TagQuery{Page: ports.Page{Offset: 10, Limit: 2}}, []ports.TagCount{}, 4},
		{"no limit", ports.TagQuery{}, []ports.TagCount{a, b, dc, c}, 4},
		{"search ignores case", ports.TagQuery{Search: "ALP", Page: page}, []ports.TagCount{a}, 1},
		{"search inside names", ports.TagQuery{Search: "ta", Page: page}, []ports.TagCount{b, dc}, 2},
		{"_ is literal", ports.TagQuery{Search: "_", Page: page}, []ports.TagCount{dc}, 1},
		{"% is literal", ports.TagQuery{Search: "%", Page: page}, []ports.TagCount{}, 0},
		{"a searched page", ports.TagQuery{Search: "a", Sort: ports.SortKey{Field: "posts", Desc: true}, Page: ports.Page{Offset: 1, Limit: 2}}, []ports.TagCount{a, c}, 4},
	}
	for _, tc := range cases {
		for _, w := range bothPlaces {
			var got []ports.TagCount
			var total int
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				got, total, err = r.Tags.Counted(ctx, tc.q)
				return err
			})
			what := fmt.Sprintf("Tags.Counted, %s, %s", tc.name, w.name)
			if !checkErr(t, what, err, nil) {
				continue
			}
			if len(tc.want) == 0 && len(got) == 0 {
				got = tc.want
			}
			check(t, what, got, tc.want)
			check(t, what+": total", total, tc.total)
		}
	}
	_, _, err := r.Tags.Counted(ctx, ports.TagQuery{Sort: ports.SortKey{Field: "slug"}})
	if domain.KindOf(err) != domain.Invalid {
		t.Errorf("Tags.Counted by slug: got %v, want an error of kind Invalid", err)
	}
}

// testTagMoveTrashed: a trashed post's tags follow a move, so that its
// restore brings it back under the tag it was moved to, once.
func testTagMoveTrashed(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	f := newTagFixture(t, r)
	for _, p := range []domain.Post{f.onlyA, f.both, f.others} {
		must(t, fmt.Sprintf("Trash.TrashPost(%q)", p.Title()), r.Trash.TrashPost(ctx, p.ID(), at(time.Hour)))
	}
	for _, w := range bothPlaces {
		var moved int64
		from, into := f.a.ID, f.b.ID
		if w.name != bothPlaces[0].name {
			from, into = f.c.ID, f.b.ID
		}
		err := w.run(ctx, st, func(r ports.Repos) error {
			var err error
			moved, err = r.Tags.Move(ctx, from, into)
			return err
		})
		if checkErr(t, "Tags.Move of trashed posts' tags "+w.name, err, nil) {
			check(t, "live posts Tags.Move moved "+w.name, moved, int64(0))
		}
	}
	want := map[int64][]int64{f.onlyA.ID(): {f.b.ID}, f.both.ID(): {f.b.ID}, f.others.ID(): {f.b.ID}}
	for _, p := range []domain.Post{f.onlyA, f.both, f.others} {
		got, err := r.Trash.Post(ctx, p.ID())
		if checkErr(t, fmt.Sprintf("Trash.Post(%q)", p.Title()), err, nil) {
			check(t, fmt.Sprintf("the trashed %q's tag ids after the moves", p.Title()), got.TagIDs, want[p.ID()])
		}
	}
	must(t, "Trash.RestorePost", st.InTx(ctx, func(r ports.Repos) error { return r.Trash.RestorePost(ctx, f.both.ID(), f.both.Slug()) }))
	checkTagsOf(t, "Tags.OfPosts of the restored post", r, map[int64][]domain.Tag{f.both.ID(): {f.b}}, f.both)
}
