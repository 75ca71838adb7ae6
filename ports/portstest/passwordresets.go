package portstest

import (
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var passwordResetTests = []storeTest{
	{"RoundTrip", testPasswordResetRoundTrip},
	{"NotFound", testPasswordResetNotFound},
}

func testPasswordResetRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	first := domain.NewPasswordReset(ann.ID, "first", base, time.Hour)
	must(t, "PasswordResets.Put", r.PasswordResets.Put(ctx, first))
	bobs := domain.NewPasswordReset(bob.ID, "bob's", base, time.Hour)
	must(t, "PasswordResets.Put", r.PasswordResets.Put(ctx, bobs))
	got, err := r.PasswordResets.ByUser(ctx, ann.ID)
	must(t, "PasswordResets.ByUser", err)
	check(t, "PasswordResets.ByUser", got, first)

	// A new reset replaces the one before.
	second := domain.NewPasswordReset(ann.ID, "second", at(time.Minute), 2*time.Hour)
	must(t, "PasswordResets.Put again", r.PasswordResets.Put(ctx, second))
	got, err = r.PasswordResets.ByUser(ctx, ann.ID)
	must(t, "PasswordResets.ByUser", err)
	check(t, "PasswordResets.ByUser after a new request", got, second)
	if got.Accepts("first", at(time.Minute)) || !got.Accepts("second", at(time.Minute)) {
		t.Errorf("the replaced token still works, or the new one does not")
	}

	must(t, "PasswordResets.DeleteByUser", r.PasswordResets.DeleteByUser(ctx, ann.ID))
	_, err = r.PasswordResets.ByUser(ctx, ann.ID)
	checkErr(t, "PasswordResets.ByUser after DeleteByUser", err, domain.ErrNotFound)
	must(t, "PasswordResets.DeleteByUser of none", r.PasswordResets.DeleteByUser(ctx, ann.ID))
	got, err = r.PasswordResets.ByUser(ctx, bob.ID)
	must(t, "PasswordResets.ByUser of another user", err)
	check(t, "another user's reset", got, bobs)

	// Deleting the user takes the reset.
	must(t, "Users.Delete", r.Users.Delete(ctx, bob.ID))
	_, err = r.PasswordResets.ByUser(ctx, bob.ID)
	checkErr(t, "PasswordResets.ByUser after deleting the user", err, domain.ErrNotFound)
}

func testPasswordResetNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	checkErr(t, "PasswordResets.Put for a missing user", r.PasswordResets.Put(ctx, domain.NewPasswordReset(999, "x", base, time.Hour)), domain.ErrNotFound)
	_, err := r.PasswordResets.ByUser(ctx, 999)
	checkErr(t, "PasswordResets.ByUser", err, domain.ErrNotFound)
}
