package portstest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var productTests = []storeTest{
	{"RoundTrip", testProductRoundTrip},
	{"NotFound", testProductNotFound},
	{"SKUTaken", testProductSKUTaken},
	{"Update", testProductUpdate},
	{"Lock", testProductLock},
	{"Delete", testProductDelete},
	{"List", testProductList},
	{"Search", testProductSearch},
}

func testProductRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	cases := []struct {
		name    string
		product domain.Product
	}{
		{"every field set", domain.Product{
			Name:        "Fountain pen — Ø 0.5",
			PriceCents:  1999,
			Description: "Refillable.\nComes with a converter.",
			Stock:       12,
			SKU:         ptr("INK-001"),
			CreatedAt:   base,
			UpdatedAt:   at(2*time.Second + 654321*time.Microsecond),
		}},
		{"no SKU, nothing in stock, free", domain.Product{
			Name:      "Sample",
			CreatedAt: at(time.Minute),
			UpdatedAt: at(time.Minute),
		}},
		{"large numbers", domain.Product{
			Name:       "Warehouse",
			PriceCents: 1 << 40,
			Stock:      1 << 35,
			SKU:        ptr("WH-1"),
			CreatedAt:  at(2 * time.Minute),
			UpdatedAt:  at(2 * time.Minute),
		}},
	}
	seen := map[int64]string{}
	for _, tc := range cases {
		p := tc.product
		if err := r.Products.Create(ctx, &p); err != nil {
			t.Fatalf("%s: Products.Create: %v", tc.name, err)
		}
		if p.ID <= 0 {
			t.Errorf("%s: Products.Create set ID %d, want a positive id", tc.name, p.ID)
		}
		if other, ok := seen[p.ID]; ok {
			t.Errorf("%s: Products.Create set ID %d, already given to %s", tc.name, p.ID, other)
		}
		seen[p.ID] = tc.name
		want := tc.product
		want.ID = p.ID
		got, err := r.Products.Get(ctx, p.ID)
		if checkErr(t, tc.name+": Products.Get", err, nil) {
			check(t, tc.name+": Products.Get", got, want)
		}
	}
}

func testProductNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	existing := createProduct(t, st.Repos(), newProduct("Pen", ptr("PEN-1")))
	calls := []struct {
		name string
		call func(r ports.Repos) error
	}{
		{"Get", func(r ports.Repos) error { _, err := r.Products.Get(ctx, missingID); return err }},
		{"Lock", func(r ports.Repos) error { _, err := r.Products.Lock(ctx, missingID); return err }},
		{"Update", func(r ports.Repos) error {
			p := existing
			p.ID, p.SKU = missingID, ptr("OTHER-1")
			return r.Products.Update(ctx, p)
		}},
		{"Delete", func(r ports.Repos) error { return r.Products.Delete(ctx, missingID) }},
	}
	for _, c := range calls {
		for _, w := range bothPlaces {
			checkErr(t, fmt.Sprintf("Products.%s of a missing product %s", c.name, w.name), w.run(ctx, st, c.call), domain.ErrNotFound)
		}
	}
	got, err := st.Repos().Products.Get(ctx, existing.ID)
	if checkErr(t, "Products.Get of the existing product", err, nil) {
		check(t, "existing product after the failed calls", got, existing)
	}
}

func testProductSKUTaken(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	pen := createProduct(t, r, newProduct("Pen", ptr("INK-001")))

	dup := newProduct("Pen copy", ptr("INK-001"))
	checkErr(t, "Products.Create with a taken SKU", r.Products.Create(ctx, &dup), domain.ErrSKUTaken)
	err := st.InTx(ctx, func(r ports.Repos) error {
		p := newProduct("Pen copy", ptr("INK-001"))
		return r.Products.Create(ctx, &p)
	})
	checkErr(t, "Products.Create with a taken SKU in a transaction", err, domain.ErrSKUTaken)

	// Products without a SKU don't collide.
	loose1 := createProduct(t, r, newProduct("Loose 1", nil))
	loose2 := createProduct(t, r, newProduct("Loose 2", nil))

	steal := loose1
	steal.SKU = ptr("INK-001")
	checkErr(t, "Products.Update to a taken SKU", r.Products.Update(ctx, steal), domain.ErrSKUTaken)
	got, err := r.Products.Get(ctx, loose1.ID)
	if checkErr(t, "Products.Get after the refused update", err, nil) {
		check(t, "product after the refused update", got, loose1)
	}

	// Keeping one's own SKU is no conflict.
	pen.Name, pen.UpdatedAt = "Pen renamed", at(time.Hour)
	checkErr(t, "Products.Update keeping its own SKU", r.Products.Update(ctx, pen), nil)

	// A SKU given up is free for another product.
	pen.SKU = nil
	must(t, "Products.Update", r.Products.Update(ctx, pen))
	loose2.SKU = ptr("INK-001")
	checkErr(t, "Products.Update to a SKU another product gave up", r.Products.Update(ctx, loose2), nil)

	list, total, err := r.Products.List(ctx, ports.Page{Limit: 10})
	if checkErr(t, "Products.List", err, nil) {
		if total != 3 {
			t.Errorf("Products.List: got total %d, want 3", total)
		}
		check(t, "Products.List after the SKU changes", list, []domain.Product{pen, loose1, loose2})
	}
}

func testProductUpdate(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	orig := createProduct(t, r, newProduct("Pen", nil))
	other := createProduct(t, r, newProduct("Ink", ptr("INK-9")))
	steps := []struct {
		name    string
		product domain.Product
	}{
		{"every field changed, nil to set", domain.Product{
			ID:          orig.ID,
			Name:        "Pen Deluxe",
			PriceCents:  4550,
			Description: "Gold nib.",
			Stock:       3,
			SKU:         ptr("PEN-DLX"),
			CreatedAt:   at(100 * time.Hour), // must be ignored
			UpdatedAt:   at(5*time.Hour + time.Microsecond),
		}},
		{"set to nil and zero", domain.Product{
			ID:        orig.ID,
			Name:      "Pen Plain",
			UpdatedAt: at(6 * time.Hour),
		}},
	}
	for _, s := range steps {
		if err := r.Products.Update(ctx, s.product); err != nil {
			t.Fatalf("%s: Products.Update: %v", s.name, err)
		}
		want := s.product
		want.CreatedAt = orig.CreatedAt
		got, err := r.Products.Get(ctx, orig.ID)
		if checkErr(t, s.name+": Products.Get", err, nil) {
			check(t, s.name+": Products.Get (Update writes every field but ID and CreatedAt)", got, want)
		}
	}
	got, err := r.Products.Get(ctx, other.ID)
	if checkErr(t, "Products.Get of the other product", err, nil) {
		check(t, "the other product after the updates", got, other)
	}
}

func testProductDelete(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	pen := createProduct(t, r, newProduct("Pen", ptr("PEN-1")))
	ink := createProduct(t, r, newProduct("Ink", ptr("INK-1")))

	checkErr(t, "Products.Delete", r.Products.Delete(ctx, pen.ID), nil)
	_, err := r.Products.Get(ctx, pen.ID)
	checkErr(t, "Products.Get of a deleted product", err, domain.ErrNotFound)
	checkErr(t, "Products.Delete of a deleted product", r.Products.Delete(ctx, pen.ID), domain.ErrNotFound)
	got, err := r.Products.Get(ctx, ink.ID)
	if checkErr(t, "Products.Get of the other product", err, nil) {
		check(t, "the other product", got, ink)
	}
	again := newProduct("Pen again", ptr("PEN-1"))
	checkErr(t, "Products.Create with a deleted product's SKU", r.Products.Create(ctx, &again), nil)
}

func testProductList(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	var all []domain.Product
	for i := range 5 {
		p := newProduct(fmt.Sprintf("Product %c", 'E'-i), ptr(fmt.Sprintf("SKU-%d", 5-i)))
		p.CreatedAt = at(time.Duration(5-i) * time.Hour) // against id order: the order is by id
		p.PriceCents = int64(100 * i)
		all = append(all, createProduct(t, r, p))
		if i > 0 && all[i].ID <= all[i-1].ID {
			t.Fatalf("Products.Create gave id %d after id %d; want ids growing with creation", all[i].ID, all[i-1].ID)
		}
	}
	cases := []struct {
		page ports.Page
		want []int
	}{
		{ports.Page{Offset: 0, Limit: 2}, []int{0, 1}},
		{ports.Page{Offset: 2, Limit: 2}, []int{2, 3}},
		{ports.Page{Offset: 4, Limit: 2}, []int{4}},
		{ports.Page{Offset: 5, Limit: 2}, nil},
		{ports.Page{Offset: 0, Limit: 100}, []int{0, 1, 2, 3, 4}},
	}
	for _, tc := range cases {
		what := fmt.Sprintf("Products.List(Page%+v)", tc.page)
		got, total, err := r.Products.List(ctx, tc.page)
		if !checkErr(t, what, err, nil) {
			continue
		}
		if total != 5 {
			t.Errorf("%s: got total %d, want 5", what, total)
		}
		want := make([]domain.Product, len(tc.want))
		for i, j := range tc.want {
			want[i] = all[j]
		}
		if g, w := productIDs(got), productIDs(want); !slices.Equal(g, w) {
			t.Errorf("%s: got ids %v, want %v", what, g, w)
			continue
		}
		for i := range got {
			check(t, fmt.Sprintf("%s: item %d", what, i), got[i], want[i])
		}
	}
}

func productIDs(products []domain.Product) []int64 {
	ids := make([]int64, len(products))
	for i, p := range products {
		ids[i] = p.ID
	}
	return ids
}

func testProductLock(t *testing.T, st ports.Store) {
	ctx := t.Context()
	p := createProduct(t, st.Repos(), newProduct("Pen", ptr("PEN-1")))
	changed := p
	changed.Stock, changed.UpdatedAt = p.Stock+1, p.UpdatedAt.Add(time.Hour)
	err := st.InTx(ctx, func(r ports.Repos) error {
		got, err := r.Products.Lock(ctx, p.ID)
		if err != nil {
			return fmt.Errorf("Products.Lock: %w", err)
		}
		check(t, "Products.Lock", got, p)
		return r.Products.Update(ctx, changed)
	})
	checkErr(t, "InTx locking and updating a product", err, nil)
	got, err := st.Repos().Products.Get(ctx, p.ID)
	if checkErr(t, "Products.Get", err, nil) {
		check(t, "product updated after Lock", got, changed)
	}
}

// testProductSearch: newest first (id descending, whatever the creation
// times say), the name holding the search with ASCII letters folded and %
// and _ taken literally, paged with the matches' total, a page past the
// end included.
func testProductSearch(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	var all []domain.Product
	for i, name := range []string{"Blue INK", "Red pen", "ink 100%", "Ink_jet", "Paper", "ÉCLAT ink"} {
		p := newProduct(name, nil)
		p.CreatedAt = at(time.Duration(10-i) * time.Hour) // against id order: the order is by id
		all = append(all, createProduct(t, r, p))
	}
	cases := []struct {
		search string
		page   ports.Page
		want   []int
		total  int
	}{
		{"", ports.Page{Limit: 10}, []int{5, 4, 3, 2, 1, 0}, 6},
		{"ink", ports.Page{Limit: 10}, []int{5, 3, 2, 0}, 4},
		{"INK", ports.Page{Offset: 1, Limit: 2}, []int{3, 2}, 4},
		{"ink", ports.Page{Offset: 4, Limit: 2}, nil, 4},
		{"%", ports.Page{Limit: 10}, []int{2}, 1},
		{"_", ports.Page{Limit: 10}, []int{3}, 1},
		{"éclat", ports.Page{Limit: 10}, nil, 0}, // only ASCII letters fold
		{"ÉCLAT", ports.Page{Limit: 10}, []int{5}, 1},
		{"nothing", ports.Page{Limit: 10}, nil, 0},
	}
	for _, tc := range cases {
		what := fmt.Sprintf("Products.Search(%q, Page%+v)", tc.search, tc.page)
		got, total, err := r.Products.Search(ctx, ports.ProductQuery{Search: tc.search, Page: tc.page})
		if !checkErr(t, what, err, nil) {
			continue
		}
		if total != tc.total {
			t.Errorf("%s: got total %d, want %d", what, total, tc.total)
		}
		want := make([]domain.Product, len(tc.want))
		for i, j := range tc.want {
			want[i] = all[j]
		}
		if g, w := productIDs(got), productIDs(want); !slices.Equal(g, w) {
			t.Errorf("%s: got ids %v, want %v", what, g, w)
			continue
		}
		for i := range got {
			check(t, fmt.Sprintf("%s: item %d", what, i), got[i], want[i])
		}
	}
}
