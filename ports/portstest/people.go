package portstest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var personTests = []storeTest{
	{"RoundTrip", testPersonRoundTrip},
	{"NotFound", testPersonNotFound},
	{"EmailTaken", testPersonEmailTaken},
	{"Update", testPersonUpdate},
	{"Delete", testPersonDelete},
	{"ListPages", testPersonListPages},
	{"ListSearch", testPersonListSearch},
	{"ListSort", testPersonListSort},
}

func testPersonRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	cases := []struct {
		name   string
		person domain.Person
	}{
		{"every field set", domain.Person{
			Name:      "Zoë Ångström",
			Email:     "Zoe.Angstrom@Example.com",
			Age:       ptr(42),
			Address:   &domain.Address{Street: "1 Main St", City: "Oslo", Zip: "0150", Country: "NO"},
			CreatedAt: base,
			UpdatedAt: at(2*time.Second + 654321*time.Microsecond),
		}},
		{"no age, no address", domain.Person{
			Name:      "Bare",
			Email:     "bare@example.com",
			CreatedAt: at(time.Minute),
			UpdatedAt: at(time.Minute),
		}},
		{"age zero, partial address", domain.Person{
			Name:      "Newborn",
			Email:     "newborn@example.com",
			Age:       ptr(0),
			Address:   &domain.Address{City: "Bergen"},
			CreatedAt: at(2 * time.Minute),
			UpdatedAt: at(3 * time.Minute),
		}},
	}
	seen := map[int64]string{}
	for _, tc := range cases {
		p := tc.person
		if err := r.People.Create(ctx, &p); err != nil {
			t.Fatalf("%s: People.Create: %v", tc.name, err)
		}
		if p.ID <= 0 {
			t.Errorf("%s: People.Create set ID %d, want a positive id", tc.name, p.ID)
		}
		if other, ok := seen[p.ID]; ok {
			t.Errorf("%s: People.Create set ID %d, already given to %s", tc.name, p.ID, other)
		}
		seen[p.ID] = tc.name
		want := tc.person
		want.ID = p.ID
		got, err := r.People.Get(ctx, p.ID)
		if checkErr(t, tc.name+": People.Get", err, nil) {
			check(t, tc.name+": People.Get", got, want)
		}
	}
}

func testPersonNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	existing := createPerson(t, st.Repos(), newPerson("Ann", "ann@example.com"))
	calls := []struct {
		name string
		call func(r ports.Repos) error
	}{
		{"Get", func(r ports.Repos) error { _, err := r.People.Get(ctx, missingID); return err }},
		{"Update", func(r ports.Repos) error {
			p := existing
			p.ID, p.Email = missingID, "someone-else@example.com"
			return r.People.Update(ctx, p)
		}},
		{"Delete", func(r ports.Repos) error { return r.People.Delete(ctx, missingID) }},
	}
	for _, c := range calls {
		for _, w := range bothPlaces {
			checkErr(t, fmt.Sprintf("People.%s of a missing record %s", c.name, w.name), w.run(ctx, st, c.call), domain.ErrNotFound)
		}
	}
	got, err := st.Repos().People.Get(ctx, existing.ID)
	if checkErr(t, "People.Get of the existing record", err, nil) {
		check(t, "existing record after the failed calls", got, existing)
	}
}

func testPersonEmailTaken(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createPerson(t, r, newPerson("Ann", "Ann@Example.com"))

	dup := newPerson("Ann Again", "ann@example.COM")
	checkErr(t, `People.Create("ann@example.COM") after "Ann@Example.com"`, r.People.Create(ctx, &dup), domain.ErrEmailTaken)
	err := st.InTx(ctx, func(r ports.Repos) error {
		p := newPerson("Ann Thrice", "ANN@EXAMPLE.COM")
		return r.People.Create(ctx, &p)
	})
	checkErr(t, `People.Create("ANN@EXAMPLE.COM") in a transaction`, err, domain.ErrEmailTaken)
	list, total, err := r.People.List(ctx, ports.PersonQuery{Page: ports.Page{Limit: 10}})
	if checkErr(t, "People.List after the refused creates", err, nil) {
		if total != 1 {
			t.Errorf("People.List after the refused creates: got total %d, want 1", total)
		}
		check(t, "People.List after the refused creates", list, []domain.Person{ann})
	}

	bob := createPerson(t, r, newPerson("Bob", "bob@example.com"))
	steal := bob
	steal.Name, steal.Email = "Bob Stealing", "ann@EXAMPLE.com"
	checkErr(t, "People.Update to another record's e-mail", r.People.Update(ctx, steal), domain.ErrEmailTaken)
	got, err := r.People.Get(ctx, bob.ID)
	if checkErr(t, "People.Get after the refused update", err, nil) {
		check(t, "record after the refused update", got, bob)
	}

	ann.Email = "ANN@example.com"
	if checkErr(t, "People.Update changing only the case of the e-mail", r.People.Update(ctx, ann), nil) {
		got, err = r.People.Get(ctx, ann.ID)
		if checkErr(t, "People.Get", err, nil) {
			check(t, "record after changing the case of the e-mail", got, ann)
		}
	}

	bob.Email = "robert@example.com"
	must(t, "People.Update", r.People.Update(ctx, bob))
	again := newPerson("Bob Again", "Bob@Example.com")
	checkErr(t, "People.Create with an address another record gave up", r.People.Create(ctx, &again), nil)
}

func testPersonUpdate(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	orig := createPerson(t, r, newPerson("Ann", "ann@example.com"))
	other := createPerson(t, r, domain.Person{
		Name: "Bob", Email: "bob@example.com", Age: ptr(30), Address: &domain.Address{City: "Oslo"},
		CreatedAt: base, UpdatedAt: base,
	})
	steps := []struct {
		name   string
		person domain.Person
	}{
		{"every field changed, nil to set", domain.Person{
			ID:        orig.ID,
			Name:      "Ann Changed",
			Email:     "Ann.Changed@Example.com",
			Age:       ptr(31),
			Address:   &domain.Address{Street: "2 High St", City: "Leeds", Zip: "LS1", Country: "GB"},
			CreatedAt: at(100 * time.Hour), // must be ignored
			UpdatedAt: at(5*time.Hour + time.Microsecond),
		}},
		{"address changed in part", domain.Person{
			ID:        orig.ID,
			Name:      "Ann Changed",
			Email:     "Ann.Changed@Example.com",
			Age:       ptr(32),
			Address:   &domain.Address{City: "York"},
			UpdatedAt: at(6 * time.Hour),
		}},
		{"set to nil", domain.Person{
			ID:        orig.ID,
			Name:      "Ann Plain",
			Email:     "ann@example.com",
			UpdatedAt: at(7 * time.Hour),
		}},
	}
	for _, s := range steps {
		if err := r.People.Update(ctx, s.person); err != nil {
			t.Fatalf("%s: People.Update: %v", s.name, err)
		}
		want := s.person
		want.CreatedAt = orig.CreatedAt
		got, err := r.People.Get(ctx, orig.ID)
		if checkErr(t, s.name+": People.Get", err, nil) {
			check(t, s.name+": People.Get (Update writes every field but ID and CreatedAt)", got, want)
		}
	}
	got, err := r.People.Get(ctx, other.ID)
	if checkErr(t, "People.Get of the other record", err, nil) {
		check(t, "the other record after the updates", got, other)
	}
}

func testPersonDelete(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createPerson(t, r, newPerson("Ann", "ann@example.com"))
	bob := createPerson(t, r, newPerson("Bob", "bob@example.com"))

	checkErr(t, "People.Delete", r.People.Delete(ctx, ann.ID), nil)
	_, err := r.People.Get(ctx, ann.ID)
	checkErr(t, "People.Get of a deleted record", err, domain.ErrNotFound)
	checkErr(t, "People.Delete of a deleted record", r.People.Delete(ctx, ann.ID), domain.ErrNotFound)
	got, err := r.People.Get(ctx, bob.ID)
	if checkErr(t, "People.Get of the other record", err, nil) {
		check(t, "the other record", got, bob)
	}
	again := newPerson("Ann Again", "ANN@example.com")
	checkErr(t, "People.Create with a deleted record's address", r.People.Create(ctx, &again), nil)
}

// createPeople stores people in order and checks that ids grow with creation,
// which the expected orders below rely on.
func createPeople(t *testing.T, r ports.Repos, people []domain.Person) []domain.Person {
	t.Helper()
	out := make([]domain.Person, len(people))
	for i, p := range people {
		out[i] = createPerson(t, r, p)
		if i > 0 && out[i].ID <= out[i-1].ID {
			t.Fatalf("People.Create gave id %d after id %d; want ids growing with creation", out[i].ID, out[i-1].ID)
		}
	}
	return out
}

// pick returns the people at the given indexes of all, in that order.
func pick(all []domain.Person, idx ...int) []domain.Person {
	out := make([]domain.Person, len(idx))
	for i, j := range idx {
		out[i] = all[j]
	}
	return out
}

func personIDs(people []domain.Person) []int64 {
	ids := make([]int64, len(people))
	for i, p := range people {
		ids[i] = p.ID
	}
	return ids
}

// checkPeople compares a list by ids first, which says more than a field diff
// when the order is wrong, and then field by field.
func checkPeople(t *testing.T, what string, got, want []domain.Person) {
	t.Helper()
	if g, w := personIDs(got), personIDs(want); !slices.Equal(g, w) {
		t.Errorf("%s: got ids %v, want %v", what, g, w)
		return
	}
	for i := range got {
		check(t, fmt.Sprintf("%s: item %d", what, i), got[i], want[i])
	}
}

func testPersonListPages(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	var in []domain.Person
	for i := range 7 {
		p := newPerson(fmt.Sprintf("Person %d", i), fmt.Sprintf("person%d@example.com", i))
		p.Age = ptr(20 + i)
		p.CreatedAt = at(time.Duration(7-i) * time.Hour) // against id order: the default is id order
		in = append(in, p)
	}
	all := createPeople(t, r, in)
	cases := []struct {
		page ports.Page
		want []int
	}{
		{ports.Page{Offset: 0, Limit: 3}, []int{0, 1, 2}},
		{ports.Page{Offset: 3, Limit: 3}, []int{3, 4, 5}},
		{ports.Page{Offset: 6, Limit: 3}, []int{6}},
		{ports.Page{Offset: 7, Limit: 3}, nil},
		{ports.Page{Offset: 50, Limit: 3}, nil},
		{ports.Page{Offset: 2, Limit: 100}, []int{2, 3, 4, 5, 6}},
		{ports.Page{Offset: 0, Limit: 1}, []int{0}},
	}
	for _, tc := range cases {
		what := fmt.Sprintf("People.List(Page%+v)", tc.page)
		got, total, err := r.People.List(ctx, ports.PersonQuery{Page: tc.page})
		if !checkErr(t, what, err, nil) {
			continue
		}
		if total != 7 {
			t.Errorf("%s: got total %d, want 7", what, total)
		}
		checkPeople(t, what+" in id order", got, pick(all, tc.want...))
	}
}

func testPersonListSearch(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	all := createPeople(t, r, []domain.Person{
		newPerson("Ann Lee", "ann@example.com"),                         // 0
		newPerson("Bob 100% Sure", "bob@example.com"),                   // 1
		newPerson("Carl_Jr", "carl@example.com"),                        // 2
		newPerson("Dana", "Dana@EXAMPLE.org"),                           // 3
		newPerson(`Eve Back\slash`, "eve@example.com"),                  // 4
		newPerson("Frank", "frank.ANNex@example.net"),                   // 5
		newPerson("Gus 100 percent", "gus@example.com"),                 // 6
		newPerson("Hal CarlxJr", "hal@example.com"),                     // 7
		newPerson("Ida", "ida@example.com"),                             // 8
		newPerson("Jo Ann", "jo@example.com"),                           // 9
		newPerson("Kim", "kim@example.com"),                             // 10
		newPerson("Lou", "lou.percent-sign@example.com"),                // 11
		newPerson("Mo", "mo@example.com"),                               // 12
		newPerson("Nan Ann-Marie", "nan@example.com"),                   // 13
		newPerson("Olga", "olga@example.com"),                           // 14
		newPerson("Pat", "pat@example.com"),                             // 15
		newPerson("Quinn", "quinn@example.com"),                         // 16
		newPerson("Ray", "ray@example.com"),                             // 17
		newPerson("Sue", "sue@example.com"),                             // 18
		newPerson("Tom", "tom@example.com"),                             // 19
		newPerson("Uma", "uma@example.com"),                             // 20
		newPerson("Vic", "vic@example.com"),                             // 21
		newPerson("Wes", "wes@example.com"),                             // 22
		newPerson("Xia", "xia@example.com"),                             // 23
		newPerson("Yan", "yan@example.com"),                             // 24
		newPerson("Zed", "zed@example.com"),                             // 25
		newPerson("Ann Percent", "ann.percent@example.com"),             // 26
		newPerson("Underscore Ursula", "ursula_underscore@example.com"), // 27
	})
	everyone := make([]int, len(all))
	for i := range everyone {
		everyone[i] = i
	}
	cases := []struct {
		search string
		want   []int
	}{
		{"", everyone},
		{"ANN", []int{0, 5, 9, 13, 26}},        // name or e-mail, any case
		{"example.ORG", []int{3}},              // e-mail, any case
		{"%", []int{1}},                        // literal, not "anything"
		{"100%", []int{1}},                     // not "100" followed by anything
		{"_", []int{2, 27}},                    // literal, not "any one character"
		{"l_j", []int{2}},                      // not "l", any character, "j"
		{`\`, []int{4}},                        // an escape character is literal too
		{`k\s`, []int{4}},                      // and escapes nothing
		{"zzz", nil},                           // no match
		{"Ann Lee", []int{0}},                  // blanks are part of the text
		{"Ann-Marie", []int{13}},               // so is punctuation
		{"ann.percent@EXAMPLE.com", []int{26}}, // a whole address
		{"percent", []int{6, 11, 26}},          // the word, unlike the sign
	}
	for _, tc := range cases {
		what := fmt.Sprintf("People.List(Search %q)", tc.search)
		got, total, err := r.People.List(ctx, ports.PersonQuery{Search: tc.search, Page: ports.Page{Limit: 100}})
		if !checkErr(t, what, err, nil) {
			continue
		}
		if total != len(tc.want) {
			t.Errorf("%s: got total %d, want %d", what, total, len(tc.want))
		}
		checkPeople(t, what, got, pick(all, tc.want...))
	}

	// The total counts every match, not the page.
	got, total, err := r.People.List(ctx, ports.PersonQuery{Search: "ann", Page: ports.Page{Offset: 1, Limit: 2}})
	if checkErr(t, "People.List(Search \"ann\", second and third match)", err, nil) {
		if total != 5 {
			t.Errorf("People.List(Search \"ann\", a page): got total %d, want 5", total)
		}
		checkPeople(t, "People.List(Search \"ann\", second and third match)", got, pick(all, 5, 9))
	}
}

func testPersonListSort(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	// Names and e-mails are chosen to sort alike in byte order and in every
	// common collation: the port does not name one.
	all := createPeople(t, r, []domain.Person{
		{Name: "Carol", Email: "carol@example.com", Age: ptr(30), CreatedAt: at(2 * time.Hour), UpdatedAt: at(5 * time.Hour)}, // 0
		{Name: "Alice", Email: "alice@example.com", CreatedAt: at(1 * time.Hour), UpdatedAt: at(5 * time.Hour)},               // 1
		{Name: "Bob", Email: "bob@example.com", Age: ptr(25), CreatedAt: at(2 * time.Hour), UpdatedAt: at(3 * time.Hour)},     // 2
		{Name: "Alice", Email: "zed@example.com", Age: ptr(30), CreatedAt: at(0), UpdatedAt: at(4 * time.Hour)},               // 3
		{Name: "Dave", Email: "dave@example.com", Age: ptr(25), CreatedAt: at(3 * time.Hour), UpdatedAt: at(3 * time.Hour)},   // 4
		{Name: "Bob", Email: "bub@example.com", Age: ptr(41), CreatedAt: at(3 * time.Hour), UpdatedAt: at(6 * time.Hour)},     // 5
		{Name: "Eve", Email: "eve@example.com", CreatedAt: at(4 * time.Hour), UpdatedAt: at(2 * time.Hour)},                   // 6
	})
	// For each field: the expected order ascending and descending. Ties are
	// broken by id ascending in both directions, the order the port falls
	// back to. People without an age come after every age ascending and
	// before them descending: the port does not say so, but it is
	// PostgreSQL's default and every store follows it, so that a list sorted
	// by age reads the same whichever store serves it.
	orders := map[string]struct{ asc, desc []int }{
		"id":         {[]int{0, 1, 2, 3, 4, 5, 6}, []int{6, 5, 4, 3, 2, 1, 0}},
		"name":       {[]int{1, 3, 2, 5, 0, 4, 6}, []int{6, 4, 0, 2, 5, 1, 3}},
		"email":      {[]int{1, 2, 5, 0, 4, 6, 3}, []int{3, 6, 4, 0, 5, 2, 1}},
		"age":        {[]int{2, 4, 0, 3, 5, 1, 6}, []int{1, 6, 5, 0, 3, 2, 4}},
		"created_at": {[]int{3, 1, 0, 2, 4, 5, 6}, []int{6, 4, 5, 0, 2, 1, 3}},
		"updated_at": {[]int{6, 2, 4, 3, 0, 1, 5}, []int{5, 0, 1, 3, 2, 4, 6}},
	}
	for _, field := range ports.PersonFields {
		o, ok := orders[field]
		if !ok {
			t.Errorf("ports.PersonFields has %q, which the suite has no expected order for", field)
			continue
		}
		for _, desc := range []bool{false, true} {
			want := o.asc
			if desc {
				want = o.desc
			}
			key := ports.SortKey{Field: field, Desc: desc}
			what := fmt.Sprintf("People.List(Sort %+v)", key)
			got, total, err := r.People.List(ctx, ports.PersonQuery{Sort: []ports.SortKey{key}, Page: ports.Page{Limit: 100}})
			if !checkErr(t, what, err, nil) {
				continue
			}
			if total != len(all) {
				t.Errorf("%s: got total %d, want %d", what, total, len(all))
			}
			checkPeople(t, what, got, pick(all, want...))
		}
	}

	cases := []struct {
		name  string
		query ports.PersonQuery
		want  []int
		total int
	}{
		{"no sort is id order", ports.PersonQuery{Page: ports.Page{Limit: 100}}, []int{0, 1, 2, 3, 4, 5, 6}, 7},
		{"two keys", ports.PersonQuery{Sort: []ports.SortKey{{Field: "name"}, {Field: "email", Desc: true}}, Page: ports.Page{Limit: 100}}, []int{3, 1, 5, 2, 0, 4, 6}, 7},
		{"two keys, both descending", ports.PersonQuery{Sort: []ports.SortKey{{Field: "updated_at", Desc: true}, {Field: "created_at", Desc: true}}, Page: ports.Page{Limit: 100}}, []int{5, 0, 1, 3, 4, 2, 6}, 7},
		{"sorted page", ports.PersonQuery{Sort: []ports.SortKey{{Field: "name"}}, Page: ports.Page{Offset: 1, Limit: 3}}, []int{3, 2, 5}, 7},
		{"sorted search", ports.PersonQuery{Search: "BOB", Sort: []ports.SortKey{{Field: "created_at", Desc: true}}, Page: ports.Page{Limit: 100}}, []int{5, 2}, 2},
		{"sorted, searched page", ports.PersonQuery{Search: "e", Sort: []ports.SortKey{{Field: "email"}}, Page: ports.Page{Offset: 2, Limit: 2}}, []int{5, 0}, 7},
	}
	for _, tc := range cases {
		got, total, err := r.People.List(ctx, tc.query)
		if !checkErr(t, "People.List, "+tc.name, err, nil) {
			continue
		}
		if total != tc.total {
			t.Errorf("People.List, %s: got total %d, want %d", tc.name, total, tc.total)
		}
		checkPeople(t, "People.List, "+tc.name, got, pick(all, tc.want...))
	}

	// Only the fields of ports.PersonFields may sort, and a store refuses
	// the others rather than ignore them or pass them to its query.
	for _, field := range []string{"password", "name; DROP TABLE people", ""} {
		q := ports.PersonQuery{Sort: []ports.SortKey{{Field: field}}, Page: ports.Page{Limit: 100}}
		if _, _, err := r.People.List(ctx, q); domain.KindOf(err) != domain.Invalid {
			t.Errorf("People.List sorted by %q: got error %v, want one of kind %v", field, err, domain.Invalid)
		}
	}
}
