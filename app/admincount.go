package app

import (
	"slices"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// How far the console's lists count. An exact total is the expensive part
// of a page wherever no store keeps the count: the console's lists say
// "more than" a bound instead, as ports.Counted carries it, and the
// measurements that chose the bounds are in docs/ARCHITECTURE.md (Counted
// lists).

// AdminSearchCount is how many matches a searched console list (users,
// posts) counts at least before it says only "more than that": the page
// needs a few dozen rows, where the exact count of a common word reads
// every title holding it. 200 is four pages.
const AdminSearchCount = 200

// AdminListCounted is how many rows past the start of its page a list that
// no store keeps a count of (comments, the audit log) counts: the count
// then costs no more than the page's own OFFSET, and still tells whether a
// next page exists.
const AdminListCounted = 1000

// searchBound is how far a console list searched for term counts on page
// p: AdminSearchCount, or the end of the page when it lies further, so that
// the count always says whether a next page exists; an unsearched list's
// total is a kept count that costs nothing to give exactly (0).
func searchBound(term string, p ports.Page) int {
	if term == "" {
		return 0
	}
	return max(AdminSearchCount, p.Offset+p.Limit)
}

// listBound is how far a list without a kept count counts on page p.
func listBound(p ports.Page) int {
	return max(p.Offset, 0) + AdminListCounted
}

// checkSort returns the order of a console list, the default (the first
// of allowed) when s is empty; domain.Invalid on field sort for an order
// outside allowed, and for any but the default with a search, whose
// matches are found newest first.
func checkSort(s ports.AdminSort, allowed []ports.AdminSort, search string) (ports.AdminSort, error) {
	if s == "" {
		return allowed[0], nil
	}
	if slices.Contains(allowed, s) && (search == "" || s == allowed[0]) {
		return s, nil
	}
	if search != "" {
		allowed = allowed[:1]
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return "", domain.InvalidField("sort", domain.RuleOf(domain.RuleIn, names...))
}
