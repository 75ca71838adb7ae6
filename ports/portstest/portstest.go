// Package portstest is the contract suite of ports.Store. Every store adapter
// runs RunStore from its own tests, so that the memory, SQLite and PostgreSQL
// stores are held to one reading of the port's doc comments: exact round trips
// of every field, the domain errors each method names, ordering and paging,
// transactions, and the races the use cases rely on. RunFiles does the same
// for every ports.FileStore.
//
// Where a port leaves a choice open (where people without an age sort, for
// example) the suite accepts every choice the port allows and says so next to
// the check.
package portstest

import (
	"testing"

	"github.com/inkwell/inkwell/ports"
)

// storeTest is one contract check. It gets a store of its own, so checks run
// in parallel and never see each other's records.
type storeTest struct {
	name string
	run  func(t *testing.T, st ports.Store)
}

// RunStore runs the contract suite. newStore must return an empty, migrated
// store that no other test uses, and release it through tb.Cleanup; it is
// called once per subtest.
func RunStore(t *testing.T, newStore func(tb testing.TB) ports.Store) {
	groups := []struct {
		name  string
		tests []storeTest
	}{
		{"Users", userTests},
		{"Tokens", tokenTests},
		{"RateLimits", rateLimitTests},
		{"People", personTests},
		{"Products", productTests},
		{"Posts", postTests},
		{"Tags", tagTests},
		{"Comments", commentTests},
		{"Trash", trashTests},
		{"Sessions", sessionTests},
		{"Idempotency", idempotencyTests},
		{"Events", eventTests},
		{"Webhooks", webhookTests},
		{"IDs", idTests},
		{"Mails", mailTests},
		{"PasswordResets", passwordResetTests},
		{"Admin", adminTests},
		{"AdminComments", adminCommentTests},
		{"Store", storeTests},
		{"Concurrency", concurrencyTests},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			for _, tc := range g.tests {
				t.Run(tc.name, func(t *testing.T) {
					t.Parallel()
					tc.run(t, newStore(t))
				})
			}
		})
	}
}
