package ports

// Counted is one page of a list with how many rows the whole list holds,
// as the use case counted them, so that no caller counts again. A list
// whose count would cost more than its page stops counting at a bound the
// use case chooses: then AtLeast is true and Total is a lower bound, the
// list holding more than Total rows. Otherwise Total is exact.
type Counted[T any] struct {
	Rows    []T
	Total   int
	AtLeast bool
}

// Exact is rows, a page of a list of total rows counted to the last.
func Exact[T any](rows []T, total int) Counted[T] {
	return Counted[T]{Rows: rows, Total: total}
}

// CountedUpTo is rows with n, a count that stopped at bound + 1 as
// BoundedTotal gives it: more than bound rows when n is above bound (and
// bound above 0), n exactly otherwise.
func CountedUpTo[T any](rows []T, n, bound int) Counted[T] {
	if bound > 0 && n > bound {
		return Counted[T]{Rows: rows, Total: bound, AtLeast: true}
	}
	return Counted[T]{Rows: rows, Total: n}
}
