package demo

import "context"

// Seeder is implemented by stores that can load generated demonstration and
// benchmark data in bulk, faster than the repositories' one-row inserts
// would. It is optional: `inkwell seed` asserts it on the store.
// It lives here, beside the plan it writes, rather than in ports: the core
// neither seeds nor knows of demonstration data.
type Seeder interface {
	// Seed writes every row of plan: users, tags, posts with their tag
	// links, and comments, with ids from the store's own sequences. It
	// returns ErrNotEmpty, writing nothing, when the store already
	// holds users, tags, posts or comments, and plan.Validate's error for a
	// plan that cannot be generated. Other failures roll back what the
	// store's current transaction wrote; a store that commits in batches
	// (SQLite, so that a running server can write in between) keeps the
	// batches committed before the failure.
	//
	// progress, when not nil, is called from time to time with the rows
	// written so far and plan.Rows(), never from two goroutines at once.
	// done reaches total when the last row is sent; the store may then
	// still build indexes and commit before Seed returns.
	Seed(ctx context.Context, plan Plan, progress func(done, total int)) error
}
