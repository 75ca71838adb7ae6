package portstest

import (
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var tokenTests = []storeTest{
	{"RoundTrip", testTokenRoundTrip},
	{"NotFound", testTokenNotFound},
	{"ListByUser", testTokenListByUser},
	{"Delete", testTokenDelete},
	{"DeleteByUser", testTokenDeleteByUser},
	{"Streamed", testTokenStreamed},
	{"DeleteByName", testTokenDeleteByName},
	{"DeleteExpired", testTokenDeleteExpired},
	{"Touch", testTokenTouch},
}

func testTokenRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	u := createUser(t, r, newUser("Ann", "ann@example.com"))
	cases := []struct {
		name  string
		token domain.Token
	}{
		{"every field set", domain.Token{
			UserID:     u.ID,
			Name:       "deploy bot",
			Hash:       newSecretHash(),
			Abilities:  []string{domain.AbilityPostsRead, domain.AbilityPostsWrite, domain.AbilityProfileUpdate},
			LastUsedAt: ptr(at(30 * time.Minute)),
			ExpiresAt:  ptr(at(7*24*time.Hour + time.Microsecond)),
			CreatedAt:  base,
			UpdatedAt:  at(time.Second),
		}},
		{"no abilities, never used, never expires", domain.Token{
			UserID:    u.ID,
			Name:      "auth_token",
			Hash:      newSecretHash(),
			Abilities: []string{},
			CreatedAt: at(time.Minute),
			UpdatedAt: at(time.Minute),
		}},
		{"every ability", domain.Token{
			UserID:    u.ID,
			Name:      "",
			Hash:      newSecretHash(),
			Abilities: []string{domain.AbilityAll},
			ExpiresAt: ptr(at(time.Hour)),
			CreatedAt: at(2 * time.Minute),
			UpdatedAt: at(2 * time.Minute),
		}},
	}
	seen := map[int64]string{}
	for _, tc := range cases {
		tok := tc.token
		if err := r.Tokens.Create(ctx, &tok); err != nil {
			t.Fatalf("%s: Tokens.Create: %v", tc.name, err)
		}
		if tok.ID <= 0 {
			t.Errorf("%s: Tokens.Create set ID %d, want a positive id", tc.name, tok.ID)
		}
		if other, ok := seen[tok.ID]; ok {
			t.Errorf("%s: Tokens.Create set ID %d, already given to %s", tc.name, tok.ID, other)
		}
		seen[tok.ID] = tc.name
		want := tc.token
		want.ID = tok.ID

		got, err := r.Tokens.ByID(ctx, tok.ID)
		if checkErr(t, tc.name+": Tokens.ByID", err, nil) {
			check(t, tc.name+": Tokens.ByID", got, want)
		}
		got, err = r.Tokens.ByHash(ctx, tc.token.Hash)
		if checkErr(t, tc.name+": Tokens.ByHash", err, nil) {
			check(t, tc.name+": Tokens.ByHash", got, want)
		}
		for _, w := range bothPlaces {
			what := fmt.Sprintf("%s: Tokens.ByIDWithUser %s", tc.name, w.name)
			var got domain.Token
			var owner domain.User
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				got, owner, err = r.Tokens.ByIDWithUser(ctx, tok.ID)
				return err
			})
			if checkErr(t, what, err, nil) {
				check(t, what+": the token", got, want)
				check(t, what+": the user", owner, u)
			}
		}
	}

	// The user comes as it is now, not as it was when the token was made.
	u.Name, u.AvatarPath, u.UpdatedAt = "Ann Renamed", "avatars/ann.png", at(time.Hour)
	must(t, "Users.Update", r.Users.Update(ctx, u))
	list, err := r.Tokens.ListByUser(ctx, u.ID)
	must(t, "Tokens.ListByUser", err)
	for _, tok := range list {
		_, owner, err := r.Tokens.ByIDWithUser(ctx, tok.ID)
		if checkErr(t, "Tokens.ByIDWithUser after the user changed", err, nil) {
			check(t, "Tokens.ByIDWithUser after the user changed: the user", owner, u)
		}
	}
}

func testTokenNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	u := createUser(t, st.Repos(), newUser("Ann", "ann@example.com"))
	existing := createToken(t, st.Repos(), newToken(u.ID, "web", base))
	orphan := newToken(missingID, "orphan", base)
	calls := []struct {
		name string
		call func(r ports.Repos) error
	}{
		{"ByID", func(r ports.Repos) error { _, err := r.Tokens.ByID(ctx, missingID); return err }},
		{"ByIDWithUser", func(r ports.Repos) error { _, _, err := r.Tokens.ByIDWithUser(ctx, missingID); return err }},
		{"ByHash", func(r ports.Repos) error {
			_, err := r.Tokens.ByHash(ctx, domain.HashSecret("never issued"))
			return err
		}},
		{"Delete", func(r ports.Repos) error { return r.Tokens.Delete(ctx, u.ID, missingID) }},
		{"Create for a missing user", func(r ports.Repos) error { tok := orphan; return r.Tokens.Create(ctx, &tok) }},
	}
	for _, c := range calls {
		for _, w := range bothPlaces {
			checkErr(t, fmt.Sprintf("Tokens.%s %s", c.name, w.name), w.run(ctx, st, c.call), domain.ErrNotFound)
		}
	}
	_, err := st.Repos().Tokens.ByHash(ctx, orphan.Hash)
	checkErr(t, "Tokens.ByHash of the token refused for a missing user", err, domain.ErrNotFound)
	got, err := st.Repos().Tokens.ByID(ctx, existing.ID)
	if checkErr(t, "Tokens.ByID of the existing token", err, nil) {
		check(t, "existing token after the failed calls", got, existing)
	}
}

func testTokenListByUser(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	carl := createUser(t, r, newUser("Carl", "carl@example.com"))
	// Creation order differs from age on purpose: "oldest first" is by
	// created_at, and the id breaks ties between tokens of one instant.
	newest := createToken(t, r, newToken(ann.ID, "newest", at(2*time.Minute)))
	oldest := createToken(t, r, newToken(ann.ID, "oldest", base))
	bobs := createToken(t, r, newToken(bob.ID, "bob's", at(time.Minute)))
	middle1 := createToken(t, r, newToken(ann.ID, "middle 1", at(time.Minute)))
	middle2 := createToken(t, r, newToken(ann.ID, "middle 2", at(time.Minute)))

	got, err := r.Tokens.ListByUser(ctx, ann.ID)
	if checkErr(t, "Tokens.ListByUser", err, nil) {
		check(t, "Tokens.ListByUser, oldest first", got, []domain.Token{oldest, middle1, middle2, newest})
	}
	got, err = r.Tokens.ListByUser(ctx, bob.ID)
	if checkErr(t, "Tokens.ListByUser of the other user", err, nil) {
		check(t, "Tokens.ListByUser of the other user", got, []domain.Token{bobs})
	}
	got, err = r.Tokens.ListByUser(ctx, carl.ID)
	if checkErr(t, "Tokens.ListByUser of a user without tokens", err, nil) && len(got) != 0 {
		t.Errorf("Tokens.ListByUser of a user without tokens: got %d tokens, want 0", len(got))
	}
}

func testTokenDelete(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	first := createToken(t, r, newToken(ann.ID, "first", base))
	second := createToken(t, r, newToken(ann.ID, "second", at(time.Second)))

	checkErr(t, "Tokens.Delete of another user's token", r.Tokens.Delete(ctx, bob.ID, first.ID), domain.ErrNotFound)
	got, err := r.Tokens.ByID(ctx, first.ID)
	if checkErr(t, "Tokens.ByID after refusing another user's delete", err, nil) {
		check(t, "token after refusing another user's delete", got, first)
	}

	checkErr(t, "Tokens.Delete of the owner's token", r.Tokens.Delete(ctx, ann.ID, first.ID), nil)
	_, err = r.Tokens.ByID(ctx, first.ID)
	checkErr(t, "Tokens.ByID of a deleted token", err, domain.ErrNotFound)
	_, err = r.Tokens.ByHash(ctx, first.Hash)
	checkErr(t, "Tokens.ByHash of a deleted token", err, domain.ErrNotFound)
	checkErr(t, "Tokens.Delete of a deleted token", r.Tokens.Delete(ctx, ann.ID, first.ID), domain.ErrNotFound)

	list, err := r.Tokens.ListByUser(ctx, ann.ID)
	if checkErr(t, "Tokens.ListByUser", err, nil) {
		check(t, "tokens left after deleting one", list, []domain.Token{second})
	}
}

func testTokenDeleteByUser(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	for i := range 3 {
		createToken(t, r, newToken(ann.ID, fmt.Sprint("token ", i), at(time.Duration(i)*time.Second)))
	}
	bobs := createToken(t, r, newToken(bob.ID, "bob's", base))

	steps := []struct {
		name   string
		userID int64
		want   int64
	}{
		{"a user with three tokens", ann.ID, 3},
		{"the same user again", ann.ID, 0},
		{"a missing user", missingID, 0},
	}
	for _, s := range steps {
		n, err := r.Tokens.DeleteByUser(ctx, s.userID)
		if checkErr(t, "Tokens.DeleteByUser of "+s.name, err, nil) && n != s.want {
			t.Errorf("Tokens.DeleteByUser of %s: got %d deleted, want %d", s.name, n, s.want)
		}
	}
	list, err := r.Tokens.ListByUser(ctx, ann.ID)
	if checkErr(t, "Tokens.ListByUser", err, nil) && len(list) != 0 {
		t.Errorf("Tokens.ListByUser after DeleteByUser: got %d tokens, want 0", len(list))
	}
	list, err = r.Tokens.ListByUser(ctx, bob.ID)
	if checkErr(t, "Tokens.ListByUser of the other user", err, nil) {
		check(t, "the other user's tokens", list, []domain.Token{bobs})
	}
}

// testTokenStreamed marks tokens as having opened a stream: MarkStreamed
// returns the token as stored, or domain.ErrNotFound, and
// DeleteByUserStreamed deletes every token of the user, counting the
// marked ones, in a transaction as outside one.
func testTokenStreamed(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	var anns []domain.Token
	for i := range 3 {
		anns = append(anns, createToken(t, r, newToken(ann.ID, fmt.Sprint("token ", i), at(time.Duration(i)*time.Second))))
	}
	bobs := createToken(t, r, newToken(bob.ID, "bob's", base))
	for _, tok := range []domain.Token{anns[0], anns[2], anns[2], bobs} {
		got, err := r.Tokens.MarkStreamed(ctx, tok.ID)
		if checkErr(t, "Tokens.MarkStreamed", err, nil) {
			check(t, "the token MarkStreamed returns", got, tok)
		}
	}
	_, err := r.Tokens.MarkStreamed(ctx, missingID)
	checkErr(t, "Tokens.MarkStreamed of a missing token", err, domain.ErrNotFound)

	n, err := r.Tokens.DeleteByUserStreamed(ctx, ann.ID)
	if checkErr(t, "Tokens.DeleteByUserStreamed", err, nil) && n != 2 {
		t.Errorf("Tokens.DeleteByUserStreamed: got %d streamed, want 2", n)
	}
	list, err := r.Tokens.ListByUser(ctx, ann.ID)
	if checkErr(t, "Tokens.ListByUser", err, nil) && len(list) != 0 {
		t.Errorf("Tokens.ListByUser after DeleteByUserStreamed: got %d tokens, want 0", len(list))
	}
	_, err = r.Tokens.MarkStreamed(ctx, anns[1].ID)
	checkErr(t, "Tokens.MarkStreamed of a deleted token", err, domain.ErrNotFound)

	// Tokens that never streamed, and a user without tokens, count none.
	createToken(t, r, newToken(ann.ID, "fresh", at(time.Minute)))
	for _, step := range []string{"unmarked tokens", "no tokens"} {
		err = st.InTx(ctx, func(r ports.Repos) error {
			var err error
			n, err = r.Tokens.DeleteByUserStreamed(ctx, ann.ID)
			return err
		})
		if checkErr(t, "Tokens.DeleteByUserStreamed of "+step, err, nil) && n != 0 {
			t.Errorf("Tokens.DeleteByUserStreamed of %s: got %d streamed, want 0", step, n)
		}
	}
	// The other user's mark stays with its token.
	n, err = r.Tokens.DeleteByUserStreamed(ctx, bob.ID)
	if checkErr(t, "Tokens.DeleteByUserStreamed of the other user", err, nil) && n != 1 {
		t.Errorf("Tokens.DeleteByUserStreamed of the other user: got %d streamed, want 1", n)
	}
}

func testTokenDeleteByName(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	createToken(t, r, newToken(ann.ID, "cli", base))
	web := createToken(t, r, newToken(ann.ID, "web", at(time.Second)))
	createToken(t, r, newToken(ann.ID, "cli", at(2*time.Second)))
	bobCLI := createToken(t, r, newToken(bob.ID, "cli", base))

	steps := []struct {
		name string
		want int64
	}{
		{"cli", 2},
		{"cli", 0},
		{"nope", 0},
	}
	for _, s := range steps {
		n, err := r.Tokens.DeleteByName(ctx, ann.ID, s.name)
		if checkErr(t, fmt.Sprintf("Tokens.DeleteByName(%q)", s.name), err, nil) && n != s.want {
			t.Errorf("Tokens.DeleteByName(%q): got %d deleted, want %d", s.name, n, s.want)
		}
	}
	list, err := r.Tokens.ListByUser(ctx, ann.ID)
	if checkErr(t, "Tokens.ListByUser", err, nil) {
		check(t, "tokens left after DeleteByName", list, []domain.Token{web})
	}
	list, err = r.Tokens.ListByUser(ctx, bob.ID)
	if checkErr(t, "Tokens.ListByUser of the other user", err, nil) {
		check(t, "the other user's token of the same name", list, []domain.Token{bobCLI})
	}
}

func testTokenDeleteExpired(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	now := at(24 * time.Hour)
	expiring := func(userID int64, name string, expires *time.Time) domain.Token {
		tok := newToken(userID, name, base)
		tok.ExpiresAt = expires
		return createToken(t, r, tok)
	}
	tokens := []struct {
		token domain.Token
		gone  bool
	}{
		{expiring(ann.ID, "expired before now", ptr(now.Add(-time.Microsecond))), true},
		{expiring(bob.ID, "expires at now", ptr(now)), true},
		{expiring(ann.ID, "expires after now", ptr(now.Add(time.Microsecond))), false},
		{expiring(bob.ID, "never expires", nil), false},
	}

	n, err := r.Tokens.DeleteExpired(ctx, now)
	if checkErr(t, "Tokens.DeleteExpired", err, nil) && n != 2 {
		t.Errorf("Tokens.DeleteExpired: got %d deleted, want 2", n)
	}
	for _, tc := range tokens {
		got, err := r.Tokens.ByID(ctx, tc.token.ID)
		if tc.gone {
			checkErr(t, fmt.Sprintf("Tokens.ByID of the token that %s", tc.token.Name), err, domain.ErrNotFound)
		} else if checkErr(t, fmt.Sprintf("Tokens.ByID of the token that %s", tc.token.Name), err, nil) {
			check(t, "token kept by DeleteExpired", got, tc.token)
		}
	}
	n, err = r.Tokens.DeleteExpired(ctx, now)
	if checkErr(t, "Tokens.DeleteExpired again", err, nil) && n != 0 {
		t.Errorf("Tokens.DeleteExpired again: got %d deleted, want 0", n)
	}
}

func testTokenTouch(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	u := createUser(t, r, newUser("Ann", "ann@example.com"))
	tok := createToken(t, r, newToken(u.ID, "web", base))
	first := at(time.Hour)
	// The boundary follows domain.Token.NeedsTouch: a last_used_at exactly
	// TouchInterval old is stale.
	steps := []struct {
		name string
		now  time.Time
		want time.Time
	}{
		{"first use writes", first, first},
		{"a second later leaves it", first.Add(time.Second), first},
		{"just under the interval leaves it", first.Add(domain.TouchInterval - time.Microsecond), first},
		{"at the interval writes", first.Add(domain.TouchInterval), first.Add(domain.TouchInterval)},
		{"long after writes", at(5 * time.Hour), at(5 * time.Hour)},
	}
	for _, s := range steps {
		if !checkErr(t, s.name+": Tokens.Touch", r.Tokens.Touch(ctx, tok.ID, s.now), nil) {
			continue
		}
		got, err := r.Tokens.ByID(ctx, tok.ID)
		if !checkErr(t, s.name+": Tokens.ByID", err, nil) {
			continue
		}
		want := tok
		want.LastUsedAt = ptr(s.want)
		want.UpdatedAt = got.UpdatedAt // the port leaves updated_at to the store
		check(t, s.name, got, want)
	}
	checkErr(t, "Tokens.Touch of a missing token", r.Tokens.Touch(ctx, missingID, first), nil)
}

// tokenIDs lists ids, for messages about which tokens a list holds.
func tokenIDs(tokens []domain.Token) []int64 {
	ids := make([]int64, len(tokens))
	for i, tok := range tokens {
		ids[i] = tok.ID
	}
	return ids
}
