package portstest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var userTests = []storeTest{
	{"RoundTrip", testUserRoundTrip},
	{"NotFound", testUserNotFound},
	{"EmailTaken", testUserEmailTaken},
	{"Update", testUserUpdate},
	{"Lock", testUserLock},
	{"Delete", testUserDelete},
	{"ByIDs", testUserByIDs},
	{"SetRememberToken", testUserSetRememberToken},
	{"MarkEmailVerified", testUserMarkEmailVerified},
}

func testUserRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	cases := []struct {
		name string
		user domain.User
	}{
		{"every field set", domain.User{
			Name:            "Zoë Ångström",
			Email:           "Zoe.Angstrom@Example.com",
			PasswordHash:    "$2y$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
			RememberToken:   "remember-0123456789",
			EmailVerifiedAt: ptr(at(time.Hour)),
			AvatarPath:      "avatars/zoe.png",
			CreatedAt:       base,
			UpdatedAt:       at(2*time.Second + 654321*time.Microsecond),
		}},
		{"optional fields empty", domain.User{
			Name:         "Bare",
			Email:        "bare@example.com",
			PasswordHash: "hash",
			CreatedAt:    at(time.Minute),
			UpdatedAt:    at(time.Minute),
		}},
	}
	seen := map[int64]string{}
	for _, tc := range cases {
		u := tc.user
		if err := r.Users.Create(ctx, &u); err != nil {
			t.Fatalf("%s: Users.Create: %v", tc.name, err)
		}
		if u.ID <= 0 {
			t.Errorf("%s: Users.Create set ID %d, want a positive id", tc.name, u.ID)
		}
		if other, ok := seen[u.ID]; ok {
			t.Errorf("%s: Users.Create set ID %d, already given to %s", tc.name, u.ID, other)
		}
		seen[u.ID] = tc.name
		want := tc.user
		want.ID = u.ID

		got, err := r.Users.ByID(ctx, u.ID)
		if checkErr(t, tc.name+": Users.ByID", err, nil) {
			check(t, tc.name+": Users.ByID", got, want)
		}
		// Look-ups go through domain.EmailKey: case and surrounding blanks
		// don't matter, while the stored address stays as typed.
		typed := "  " + strings.ToUpper(tc.user.Email) + " "
		got, err = r.Users.ByEmail(ctx, typed)
		if checkErr(t, fmt.Sprintf("%s: Users.ByEmail(%q)", tc.name, typed), err, nil) {
			check(t, fmt.Sprintf("%s: Users.ByEmail(%q)", tc.name, typed), got, want)
		}
	}
}

func testUserNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	existing := createUser(t, st.Repos(), newUser("Ann", "ann@example.com"))
	calls := []struct {
		name string
		call func(r ports.Repos) error
	}{
		{"ByID", func(r ports.Repos) error { _, err := r.Users.ByID(ctx, missingID); return err }},
		{"ByEmail", func(r ports.Repos) error { _, err := r.Users.ByEmail(ctx, "nobody@example.com"); return err }},
		{"Lock", func(r ports.Repos) error { _, err := r.Users.Lock(ctx, missingID); return err }},
		{"Update", func(r ports.Repos) error {
			u := existing
			u.ID, u.Email = missingID, "someone-else@example.com"
			return r.Users.Update(ctx, u)
		}},
		{"Delete", func(r ports.Repos) error { return r.Users.Delete(ctx, missingID) }},
		{"SetRememberToken", func(r ports.Repos) error { return r.Users.SetRememberToken(ctx, missingID, "r") }},
		{"MarkEmailVerified", func(r ports.Repos) error {
			_, err := r.Users.MarkEmailVerified(ctx, missingID, existing.Email, at(time.Hour))
			return err
		}},
	}
	for _, c := range calls {
		for _, w := range bothPlaces {
			checkErr(t, fmt.Sprintf("Users.%s of a missing user %s", c.name, w.name), w.run(ctx, st, c.call), domain.ErrNotFound)
		}
	}
	got, err := st.Repos().Users.ByID(ctx, existing.ID)
	if checkErr(t, "Users.ByID of the existing user", err, nil) {
		check(t, "existing user after the failed calls", got, existing)
	}
}

func testUserEmailTaken(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "Ann@Example.com"))

	dup := newUser("Ann Again", "ann@example.COM")
	checkErr(t, `Users.Create("ann@example.COM") after "Ann@Example.com"`, r.Users.Create(ctx, &dup), domain.ErrEmailTaken)
	err := st.InTx(ctx, func(r ports.Repos) error {
		u := newUser("Ann Thrice", "ANN@EXAMPLE.COM")
		return r.Users.Create(ctx, &u)
	})
	checkErr(t, `Users.Create("ANN@EXAMPLE.COM") in a transaction`, err, domain.ErrEmailTaken)
	got, err := r.Users.ByEmail(ctx, "ann@example.com")
	if checkErr(t, "Users.ByEmail after the refused creates", err, nil) {
		check(t, "Users.ByEmail after the refused creates", got, ann)
	}

	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	steal := bob
	steal.Name, steal.Email = "Bob Stealing", "ann@EXAMPLE.com"
	checkErr(t, "Users.Update to another user's e-mail", r.Users.Update(ctx, steal), domain.ErrEmailTaken)
	got, err = r.Users.ByID(ctx, bob.ID)
	if checkErr(t, "Users.ByID after the refused update", err, nil) {
		check(t, "user after the refused update", got, bob)
	}

	// Changing the case of one's own address is no conflict, and the new
	// spelling is kept as typed.
	ann.Email = "ANN@example.com"
	if checkErr(t, "Users.Update changing only the case of the e-mail", r.Users.Update(ctx, ann), nil) {
		got, err = r.Users.ByID(ctx, ann.ID)
		if checkErr(t, "Users.ByID", err, nil) {
			check(t, "user after changing the case of the e-mail", got, ann)
		}
	}

	// An address given up is free for another user.
	bob.Email = "robert@example.com"
	must(t, "Users.Update", r.Users.Update(ctx, bob))
	again := newUser("Bob Again", "Bob@Example.com")
	checkErr(t, "Users.Create with an address another user gave up", r.Users.Create(ctx, &again), nil)
}

func testUserUpdate(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	orig := createUser(t, r, newUser("Ann", "ann@example.com"))
	other := createUser(t, r, newUser("Bob", "bob@example.com"))

	steps := []struct {
		name string
		user domain.User
	}{
		{"every field changed, nil to set", domain.User{
			ID:              orig.ID,
			Name:            "Ann Changed",
			Email:           "Ann.Changed@Example.com",
			PasswordHash:    "new-hash",
			RememberToken:   "new-remember",
			EmailVerifiedAt: ptr(at(3 * time.Hour)),
			AvatarPath:      "avatars/new.png",
			CreatedAt:       at(100 * time.Hour), // must be ignored
			UpdatedAt:       at(5*time.Hour + time.Microsecond),
		}},
		{"set to nil and empty", domain.User{
			ID:           orig.ID,
			Name:         "Ann Plain",
			Email:        "ann@example.com",
			PasswordHash: "other-hash",
			UpdatedAt:    at(6 * time.Hour),
		}},
	}
	for _, s := range steps {
		if err := r.Users.Update(ctx, s.user); err != nil {
			t.Fatalf("%s: Users.Update: %v", s.name, err)
		}
		want := s.user
		want.CreatedAt = orig.CreatedAt
		got, err := r.Users.ByID(ctx, orig.ID)
		if checkErr(t, s.name+": Users.ByID", err, nil) {
			check(t, s.name+": Users.ByID (Update writes every field but ID and CreatedAt)", got, want)
		}
		got, err = r.Users.ByEmail(ctx, s.user.Email)
		if checkErr(t, s.name+": Users.ByEmail with the new address", err, nil) {
			check(t, s.name+": Users.ByEmail with the new address", got, want)
		}
	}
	_, err := r.Users.ByEmail(ctx, "ann.changed@example.com")
	checkErr(t, "Users.ByEmail with an address the user gave up", err, domain.ErrNotFound)
	got, err := r.Users.ByID(ctx, other.ID)
	if checkErr(t, "Users.ByID of the other user", err, nil) {
		check(t, "the other user after the updates", got, other)
	}
}

func testUserLock(t *testing.T, st ports.Store) {
	ctx := t.Context()
	u := createUser(t, st.Repos(), domain.User{
		Name: "Ann", Email: "Ann@Example.com", PasswordHash: "hash", RememberToken: "r",
		EmailVerifiedAt: ptr(at(time.Hour)), AvatarPath: "a.png", CreatedAt: base, UpdatedAt: at(time.Second),
	})
	renamed := u
	renamed.Name = "Ann Locked"
	err := st.InTx(ctx, func(r ports.Repos) error {
		got, err := r.Users.Lock(ctx, u.ID)
		if err != nil {
			return fmt.Errorf("Users.Lock: %w", err)
		}
		check(t, "Users.Lock", got, u)
		return r.Users.Update(ctx, renamed)
	})
	checkErr(t, "InTx locking and updating a user", err, nil)
	got, err := st.Repos().Users.ByID(ctx, u.ID)
	if checkErr(t, "Users.ByID", err, nil) {
		check(t, "user updated after Lock", got, renamed)
	}
}

func testUserDelete(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	annTokens := []domain.Token{
		createToken(t, r, newToken(ann.ID, "web", base)),
		createToken(t, r, newToken(ann.ID, "cli", at(time.Second))),
	}
	bobToken := createToken(t, r, newToken(bob.ID, "web", base))

	if err := r.Users.Delete(ctx, ann.ID); err != nil {
		t.Fatalf("Users.Delete: %v", err)
	}
	_, err := r.Users.ByID(ctx, ann.ID)
	checkErr(t, "Users.ByID of a deleted user", err, domain.ErrNotFound)
	_, err = r.Users.ByEmail(ctx, ann.Email)
	checkErr(t, "Users.ByEmail of a deleted user", err, domain.ErrNotFound)
	for _, tok := range annTokens {
		_, err = r.Tokens.ByID(ctx, tok.ID)
		checkErr(t, fmt.Sprintf("Tokens.ByID(%d) of a deleted user's token", tok.ID), err, domain.ErrNotFound)
		_, _, err = r.Tokens.ByIDWithUser(ctx, tok.ID)
		checkErr(t, fmt.Sprintf("Tokens.ByIDWithUser(%d) of a deleted user's token", tok.ID), err, domain.ErrNotFound)
		_, err = r.Tokens.ByHash(ctx, tok.Hash)
		checkErr(t, fmt.Sprintf("Tokens.ByHash of deleted user's token %d", tok.ID), err, domain.ErrNotFound)
	}
	list, err := r.Tokens.ListByUser(ctx, ann.ID)
	if checkErr(t, "Tokens.ListByUser of a deleted user", err, nil) && len(list) != 0 {
		t.Errorf("Tokens.ListByUser of a deleted user: got %d tokens, want 0", len(list))
	}
	checkErr(t, "Users.Delete of a deleted user", r.Users.Delete(ctx, ann.ID), domain.ErrNotFound)

	gotBob, err := r.Users.ByID(ctx, bob.ID)
	if checkErr(t, "Users.ByID of the other user", err, nil) {
		check(t, "the other user", gotBob, bob)
	}
	gotTok, err := r.Tokens.ByID(ctx, bobToken.ID)
	if checkErr(t, "Tokens.ByID of the other user's token", err, nil) {
		check(t, "the other user's token", gotTok, bobToken)
	}
	gotTok, gotBob, err = r.Tokens.ByIDWithUser(ctx, bobToken.ID)
	if checkErr(t, "Tokens.ByIDWithUser of the other user's token", err, nil) {
		check(t, "Tokens.ByIDWithUser of the other user's token: the token", gotTok, bobToken)
		check(t, "Tokens.ByIDWithUser of the other user's token: the user", gotBob, bob)
	}
	again := newUser("Ann Again", "ANN@example.com")
	checkErr(t, "Users.Create with a deleted user's address", r.Users.Create(ctx, &again), nil)
}

func testUserByIDs(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	// Creation order is id order; the names sort the other way, so that the
	// result shows which order ByIDs keeps.
	cat := createUser(t, r, domain.User{
		Name: "Cat", Email: "cat@example.com", PasswordHash: "hash", RememberToken: "r",
		EmailVerifiedAt: ptr(at(time.Hour)), AvatarPath: "avatars/cat.png", CreatedAt: base, UpdatedAt: at(time.Second),
	})
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	cases := []struct {
		name string
		ids  []int64
		want []domain.User
	}{
		{"every user, out of order", []int64{ann.ID, cat.ID, bob.ID}, []domain.User{cat, bob, ann}},
		{"unknown ids are left out", []int64{missingID, ann.ID, missingID + 1, cat.ID}, []domain.User{cat, ann}},
		{"an id given twice comes once", []int64{ann.ID, ann.ID, bob.ID, ann.ID}, []domain.User{bob, ann}},
		{"one user", []int64{cat.ID}, []domain.User{cat}},
		{"only unknown ids", []int64{missingID}, nil},
		{"no ids", []int64{}, nil},
		{"nil", nil, nil},
	}
	for _, tc := range cases {
		for _, w := range bothPlaces {
			var got []domain.User
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				got, err = r.Users.ByIDs(ctx, tc.ids)
				return err
			})
			what := fmt.Sprintf("Users.ByIDs, %s, %s", tc.name, w.name)
			if !checkErr(t, what, err, nil) {
				continue
			}
			// Nothing found may come back nil or empty: the port does not
			// say, and the use cases treat both alike.
			if len(tc.want) == 0 {
				if len(got) != 0 {
					t.Errorf("%s: got %d users, want none", what, len(got))
				}
				continue
			}
			check(t, what, got, tc.want)
		}
	}
}

func testUserSetRememberToken(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	u := newUser("Ann", "ann@example.com")
	u.RememberToken = "first"
	u = createUser(t, r, u)
	other := createUser(t, r, newUser("Bob", "bob@example.com"))

	for i, token := range []string{"second", "third"} {
		w := bothPlaces[i%len(bothPlaces)]
		err := w.run(ctx, st, func(r ports.Repos) error { return r.Users.SetRememberToken(ctx, u.ID, token) })
		if !checkErr(t, fmt.Sprintf("Users.SetRememberToken(%q) %s", token, w.name), err, nil) {
			continue
		}
		// Only the token changes: UpdatedAt stays, as the token is not
		// part of what the API shows.
		want := u
		want.RememberToken = token
		got, err := r.Users.ByID(ctx, u.ID)
		if checkErr(t, "Users.ByID", err, nil) {
			check(t, fmt.Sprintf("user after Users.SetRememberToken(%q)", token), got, want)
		}
	}
	got, err := r.Users.ByID(ctx, other.ID)
	if checkErr(t, "Users.ByID of the other user", err, nil) {
		check(t, "the other user after another's SetRememberToken", got, other)
	}

	// A rollback keeps the old token.
	boom := errors.New("roll back")
	err = st.InTx(ctx, func(r ports.Repos) error {
		if err := r.Users.SetRememberToken(ctx, u.ID, "rolled-back"); err != nil {
			return err
		}
		return boom
	})
	checkErr(t, "InTx rolled back after SetRememberToken", err, boom)
	got, err = r.Users.ByID(ctx, u.ID)
	if checkErr(t, "Users.ByID after the rollback", err, nil) && got.RememberToken != "third" {
		t.Errorf("RememberToken after the rollback = %q, want %q", got.RememberToken, "third")
	}
}

func testUserMarkEmailVerified(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	u := createUser(t, r, newUser("Ann", "Ann@Example.com"))
	other := createUser(t, r, newUser("Bob", "bob@example.com"))

	// The address must match as stored: another spelling of it is another
	// address for verification, as its sha1 differs.
	for _, email := range []string{"ann@example.com", "other@example.com", ""} {
		marked, err := r.Users.MarkEmailVerified(ctx, u.ID, email, at(time.Hour))
		if checkErr(t, fmt.Sprintf("Users.MarkEmailVerified(%q)", email), err, nil) && marked {
			t.Errorf("Users.MarkEmailVerified(%q) of a user with %q = true, want false", email, u.Email)
		}
	}
	got, err := r.Users.ByID(ctx, u.ID)
	if checkErr(t, "Users.ByID", err, nil) {
		check(t, "user after refused MarkEmailVerified", got, u)
	}

	var marked bool
	err = st.InTx(ctx, func(r ports.Repos) error {
		var err error
		marked, err = r.Users.MarkEmailVerified(ctx, u.ID, u.Email, at(time.Hour+time.Microsecond))
		return err
	})
	if checkErr(t, "Users.MarkEmailVerified in a transaction", err, nil) && !marked {
		t.Errorf("Users.MarkEmailVerified of an unverified user with its address = false, want true")
	}
	want := u
	want.EmailVerifiedAt = ptr(at(time.Hour + time.Microsecond))
	want.UpdatedAt = at(time.Hour + time.Microsecond)
	got, err = r.Users.ByID(ctx, u.ID)
	if checkErr(t, "Users.ByID", err, nil) {
		check(t, "user after MarkEmailVerified", got, want)
	}

	// A second proof changes nothing: the first time stays.
	marked, err = r.Users.MarkEmailVerified(ctx, u.ID, u.Email, at(2*time.Hour))
	if checkErr(t, "Users.MarkEmailVerified again", err, nil) && marked {
		t.Errorf("Users.MarkEmailVerified of a verified user = true, want false")
	}
	got, err = r.Users.ByID(ctx, u.ID)
	if checkErr(t, "Users.ByID", err, nil) {
		check(t, "user after a second MarkEmailVerified", got, want)
	}

	// Update clears the verification (a changed address), and the new
	// address can then be verified.
	changed := want
	changed.Email, changed.EmailVerifiedAt, changed.UpdatedAt = "ann@new.example", nil, at(3*time.Hour)
	must(t, "Users.Update", r.Users.Update(ctx, changed))
	got, err = r.Users.ByID(ctx, u.ID)
	if checkErr(t, "Users.ByID", err, nil) {
		check(t, "user after Update cleared the verification", got, changed)
	}
	marked, err = r.Users.MarkEmailVerified(ctx, u.ID, u.Email, at(4*time.Hour))
	if checkErr(t, "Users.MarkEmailVerified with the old address", err, nil) && marked {
		t.Errorf("Users.MarkEmailVerified with the address the user gave up = true, want false")
	}
	marked, err = r.Users.MarkEmailVerified(ctx, u.ID, changed.Email, at(5*time.Hour))
	if checkErr(t, "Users.MarkEmailVerified with the new address", err, nil) && !marked {
		t.Errorf("Users.MarkEmailVerified with the new address = false, want true")
	}

	got, err = r.Users.ByID(ctx, other.ID)
	if checkErr(t, "Users.ByID of the other user", err, nil) {
		check(t, "the other user", got, other)
	}
}
