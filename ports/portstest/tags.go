package portstest

import (
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
