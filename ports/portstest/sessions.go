package portstest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var sessionTests = []storeTest{
	{"RoundTrip", testSessionRoundTrip},
	{"NotFound", testSessionNotFound},
	{"Conflict", testSessionConflict},
	{"Update", testSessionUpdate},
	{"Touch", testSessionTouch},
	{"Delete", testSessionDelete},
	{"DeleteByUser", testSessionDeleteByUser},
	{"DeleteIdle", testSessionDeleteIdle},
	{"UserDelete", testSessionUserDelete},
	{"Rollback", testSessionRollback},
}

// sessionByHash reads one session in the given place.
func sessionByHash(ctx context.Context, st ports.Store, w where, idHash string) (domain.Session, error) {
	var got domain.Session
	err := w.run(ctx, st, func(r ports.Repos) error {
		var err error
		got, err = r.Sessions.ByHash(ctx, idHash)
		return err
	})
	return got, err
}

// checkSession reads the session with want's digest and compares it with
// want.
func checkSession(t *testing.T, r ports.Repos, what string, want domain.Session) {
	t.Helper()
	got, err := r.Sessions.ByHash(t.Context(), want.IDHash)
	if checkErr(t, what+": Sessions.ByHash", err, nil) {
		check(t, what, got, want)
	}
}

// checkSessionGone reports a session that ByHash still finds.
func checkSessionGone(t *testing.T, r ports.Repos, what string, s domain.Session) {
	t.Helper()
	_, err := r.Sessions.ByHash(t.Context(), s.IDHash)
	checkErr(t, what+": Sessions.ByHash", err, domain.ErrNotFound)
}

func testSessionRoundTrip(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	u := createUser(t, r, newUser("Ann", "ann@example.com"))
	elsewhere := time.FixedZone("UTC+5", 5*60*60)
	cases := []struct {
		name    string
		session domain.Session
	}{
		{"not bound to a user", domain.Session{
			IDHash:       domain.HashSecret("round trip, anonymous"),
			Kind:         domain.SessionAPI,
			CSRFToken:    "Sx4nKDrmq0Qm5V4eQ1b8y3ZtWfJ2aLc7uPoR9sTv",
			LastActivity: at(time.Minute + time.Microsecond),
			CreatedAt:    base,
		}},
		{"bound to a user", domain.Session{
			IDHash:       domain.HashSecret("round trip, bound"),
			Kind:         domain.SessionAPI,
			UserID:       u.ID,
			CSRFToken:    "bound-csrf",
			LastActivity: at(90*time.Minute + 999*time.Microsecond),
			CreatedAt:    at(time.Microsecond),
		}},
		{"times given in another zone come back in UTC", domain.Session{
			IDHash:       domain.HashSecret("round trip, zone"),
			Kind:         domain.SessionConsole,
			UserID:       u.ID,
			CSRFToken:    "",
			LastActivity: at(time.Hour).In(elsewhere),
			CreatedAt:    base.In(elsewhere),
		}},
		{"a console session not bound to a user", domain.Session{
			IDHash:       domain.HashSecret("round trip, console"),
			Kind:         domain.SessionConsole,
			CSRFToken:    "console-csrf",
			LastActivity: at(2 * time.Hour),
			CreatedAt:    at(time.Hour),
		}},
		{"a console session bound to a user", domain.Session{
			IDHash:       domain.HashSecret("round trip, console, bound"),
			Kind:         domain.SessionConsole,
			UserID:       u.ID,
			CSRFToken:    "console-bound-csrf",
			LastActivity: at(3 * time.Hour),
			CreatedAt:    at(time.Hour),
		}},
	}
	for _, tc := range cases {
		if err := r.Sessions.Create(ctx, tc.session); err != nil {
			t.Fatalf("%s: Sessions.Create: %v", tc.name, err)
		}
		want := tc.session
		want.LastActivity, want.CreatedAt = want.LastActivity.UTC(), want.CreatedAt.UTC()
		for _, w := range bothPlaces {
			got, err := sessionByHash(ctx, st, w, tc.session.IDHash)
			what := fmt.Sprintf("%s: Sessions.ByHash %s", tc.name, w.name)
			if checkErr(t, what, err, nil) {
				check(t, what, got, want)
			}
		}
	}
}

func testSessionNotFound(t *testing.T, st ports.Store) {
	ctx := t.Context()
	u := createUser(t, st.Repos(), newUser("Ann", "ann@example.com"))
	existing := createSession(t, st.Repos(), newSession(u.ID, base))
	orphan := newSession(missingID, base)
	never := newSession(u.ID, base)
	// Binding the existing session to a user that does not exist violates
	// the same reference as creating one for that user.
	rebound := existing
	rebound.UserID, rebound.CSRFToken, rebound.LastActivity = missingID, "rebound", at(time.Hour)
	calls := []struct {
		name string
		call func(r ports.Repos) error
	}{
		{"ByHash", func(r ports.Repos) error {
			_, err := r.Sessions.ByHash(ctx, domain.HashSecret("never issued"))
			return err
		}},
		{"Update of a missing session", func(r ports.Repos) error { return r.Sessions.Update(ctx, never) }},
		{"Update to a missing user", func(r ports.Repos) error { return r.Sessions.Update(ctx, rebound) }},
		{"Create for a missing user", func(r ports.Repos) error { return r.Sessions.Create(ctx, orphan) }},
	}
	for _, c := range calls {
		for _, w := range bothPlaces {
			checkErr(t, fmt.Sprintf("Sessions.%s %s", c.name, w.name), w.run(ctx, st, c.call), domain.ErrNotFound)
		}
	}
	r := st.Repos()
	checkSessionGone(t, r, "the session refused for a missing user", orphan)
	checkSessionGone(t, r, "the session updated before it was created", never)
	checkSession(t, r, "existing session after the failed calls", existing)
}

func testSessionConflict(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	existing := createSession(t, r, newSession(ann.ID, base))
	dups := []struct {
		name string
		s    domain.Session
	}{
		{"the same session again", existing},
		{"another user's session of the same digest", domain.Session{
			IDHash: existing.IDHash, Kind: domain.SessionAPI, UserID: bob.ID, CSRFToken: "other", LastActivity: at(time.Hour), CreatedAt: at(time.Hour),
		}},
		{"an unbound session of the same digest", domain.Session{
			IDHash: existing.IDHash, Kind: domain.SessionAPI, CSRFToken: "other", LastActivity: at(time.Hour), CreatedAt: at(time.Hour),
		}},
		{"a console session of the same digest", domain.Session{
			IDHash: existing.IDHash, Kind: domain.SessionConsole, UserID: ann.ID, CSRFToken: "other", LastActivity: at(time.Hour), CreatedAt: at(time.Hour),
		}},
	}
	for _, d := range dups {
		for _, w := range bothPlaces {
			err := w.run(ctx, st, func(r ports.Repos) error { return r.Sessions.Create(ctx, d.s) })
			checkErr(t, fmt.Sprintf("Sessions.Create of %s %s", d.name, w.name), err, domain.ErrConflict)
		}
	}
	checkSession(t, r, "existing session after the refused duplicates", existing)
}

func testSessionUpdate(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	other := createSession(t, r, newSession(ann.ID, base))
	s := newSession(0, base)
	s.Kind = domain.SessionConsole
	createSession(t, r, s)
	// Each step hands Update a changed CreatedAt and kind too, which it must
	// not write: a session's kind is fixed when it is created.
	steps := []struct {
		name         string
		userID       int64
		csrf         string
		lastActivity time.Time
	}{
		{"login binds the session", ann.ID, "csrf after login", at(time.Minute + time.Microsecond)},
		{"a new CSRF token only", ann.ID, "csrf rotated", at(time.Minute + time.Microsecond)},
		{"logout unbinds it", 0, "csrf after logout", at(2 * time.Minute)},
		{"activity may go back", 0, "csrf after logout", base},
	}
	want := s
	for _, step := range steps {
		for _, w := range bothPlaces {
			upd := want
			upd.UserID, upd.CSRFToken, upd.LastActivity = step.userID, step.csrf, step.lastActivity
			upd.CreatedAt, upd.Kind = at(24*time.Hour), domain.SessionAPI
			err := w.run(ctx, st, func(r ports.Repos) error { return r.Sessions.Update(ctx, upd) })
			if !checkErr(t, fmt.Sprintf("%s: Sessions.Update %s", step.name, w.name), err, nil) {
				continue
			}
			want.UserID, want.CSRFToken, want.LastActivity = step.userID, step.csrf, step.lastActivity
			checkSession(t, r, fmt.Sprintf("%s, updated %s", step.name, w.name), want)
		}
	}
	checkSession(t, r, "the other session", other)
}

func testSessionTouch(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	u := createUser(t, r, newUser("Ann", "ann@example.com"))
	s := createSession(t, r, newSession(u.ID, base))
	other := createSession(t, r, newSession(0, base))
	later := at(5 * time.Hour)
	// The boundary follows domain.Session.NeedsTouch: a last_activity
	// exactly TouchInterval old is stale.
	steps := []struct {
		name string
		now  time.Time
		want time.Time
	}{
		{"a second later leaves it", at(time.Second), base},
		{"just under the interval leaves it", at(domain.TouchInterval - time.Microsecond), base},
		{"at the interval writes", at(domain.TouchInterval), at(domain.TouchInterval)},
		{"just under the interval again leaves it", at(2*domain.TouchInterval - time.Microsecond), at(domain.TouchInterval)},
		{"long after writes", later, later},
		{"an earlier time leaves it", at(time.Hour), later},
	}
	for _, step := range steps {
		for _, w := range bothPlaces {
			err := w.run(ctx, st, func(r ports.Repos) error { return r.Sessions.Touch(ctx, s.IDHash, step.now) })
			if !checkErr(t, fmt.Sprintf("%s: Sessions.Touch %s", step.name, w.name), err, nil) {
				continue
			}
			want := s
			want.LastActivity = step.want
			checkSession(t, r, fmt.Sprintf("%s, touched %s", step.name, w.name), want)
		}
	}
	checkSession(t, r, "the session never touched", other)
	for _, w := range bothPlaces {
		err := w.run(ctx, st, func(r ports.Repos) error {
			return r.Sessions.Touch(ctx, domain.HashSecret("never issued"), later)
		})
		checkErr(t, "Sessions.Touch of a missing session "+w.name, err, nil)
	}
}

func testSessionDelete(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	u := createUser(t, r, newUser("Ann", "ann@example.com"))
	sessions := []domain.Session{
		createSession(t, r, newSession(u.ID, base)),
		createSession(t, r, newSession(0, base)),
		createSession(t, r, newSession(u.ID, base)),
	}
	for i, w := range bothPlaces {
		gone := sessions[i]
		err := w.run(ctx, st, func(r ports.Repos) error { return r.Sessions.Delete(ctx, gone.IDHash) })
		checkErr(t, "Sessions.Delete "+w.name, err, nil)
		checkSessionGone(t, r, "deleted session", gone)
		err = w.run(ctx, st, func(r ports.Repos) error { return r.Sessions.Delete(ctx, gone.IDHash) })
		checkErr(t, "Sessions.Delete of a deleted session "+w.name, err, nil)
		err = w.run(ctx, st, func(r ports.Repos) error { return r.Sessions.Delete(ctx, domain.HashSecret("never issued")) })
		checkErr(t, "Sessions.Delete of a missing session "+w.name, err, nil)
	}
	checkSession(t, r, "the session left", sessions[2])
}

func testSessionDeleteByUser(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	var anns []domain.Session
	for i := range 3 {
		anns = append(anns, createSession(t, r, newSession(ann.ID, at(time.Duration(i)*time.Minute))))
	}
	bobs := createSession(t, r, newSession(bob.ID, base))
	unbound := createSession(t, r, newSession(0, base))

	// A session no login has bound belongs to no user, so user id 0 names
	// none of them.
	steps := []struct {
		name   string
		userID int64
		want   int64
	}{
		{"a user with three sessions", ann.ID, 3},
		{"the same user again", ann.ID, 0},
		{"a missing user", missingID, 0},
		{"user id 0", 0, 0},
	}
	for _, step := range steps {
		for i, w := range bothPlaces {
			var n int64
			err := w.run(ctx, st, func(r ports.Repos) error {
				var err error
				n, err = r.Sessions.DeleteByUser(ctx, step.userID)
				return err
			})
			// What the first place deleted is gone for the second.
			want := step.want
			if i > 0 {
				want = 0
			}
			what := fmt.Sprintf("Sessions.DeleteByUser of %s %s", step.name, w.name)
			if checkErr(t, what, err, nil) && n != want {
				t.Errorf("%s: got %d deleted, want %d", what, n, want)
			}
		}
	}
	for _, s := range anns {
		checkSessionGone(t, r, "a session of the user", s)
	}
	checkSession(t, r, "the other user's session", bobs)
	checkSession(t, r, "the unbound session", unbound)
}

func testSessionDeleteIdle(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	cutoff := at(24 * time.Hour)
	sessions := []struct {
		name    string
		session domain.Session
		gone    bool
	}{
		{"last active before the cutoff", createSession(t, r, newSession(ann.ID, cutoff.Add(-time.Microsecond))), true},
		{"last active at the cutoff", createSession(t, r, newSession(0, cutoff)), true},
		{"last active long before, unbound", createSession(t, r, newSession(0, base)), true},
		{"last active after the cutoff", createSession(t, r, newSession(ann.ID, cutoff.Add(time.Microsecond))), false},
		{"last active long after", createSession(t, r, newSession(0, cutoff.Add(time.Hour))), false},
	}
	for i, w := range bothPlaces {
		var n int64
		err := w.run(ctx, st, func(r ports.Repos) error {
			var err error
			n, err = r.Sessions.DeleteIdle(ctx, cutoff)
			return err
		})
		// What the first place deleted is gone for the second.
		want := int64(3)
		if i > 0 {
			want = 0
		}
		what := "Sessions.DeleteIdle " + w.name
		if checkErr(t, what, err, nil) && n != want {
			t.Errorf("%s: got %d deleted, want %d", what, n, want)
		}
	}
	for _, s := range sessions {
		if s.gone {
			checkSessionGone(t, r, "the session "+s.name, s.session)
		} else {
			checkSession(t, r, "the session "+s.name, s.session)
		}
	}
}

func testSessionUserDelete(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	carl := createUser(t, r, newUser("Carl", "carl@example.com"))
	annOne := createSession(t, r, newSession(ann.ID, base))
	annTwo := createSession(t, r, newSession(ann.ID, at(time.Minute)))
	bobs := createSession(t, r, newSession(bob.ID, base))
	carls := createSession(t, r, newSession(carl.ID, base))
	unbound := createSession(t, r, newSession(0, base))

	must(t, "Users.Delete outside a transaction", r.Users.Delete(ctx, ann.ID))
	must(t, "Users.Delete inside a transaction", st.InTx(ctx, func(r ports.Repos) error {
		if err := r.Users.Delete(ctx, carl.ID); err != nil {
			return err
		}
		_, err := r.Sessions.ByHash(ctx, carls.IDHash)
		checkErr(t, "Sessions.ByHash, in the transaction, of a session of the user it deleted", err, domain.ErrNotFound)
		return nil
	}))
	checkSessionGone(t, r, "a session of the deleted user", annOne)
	checkSessionGone(t, r, "another session of the deleted user", annTwo)
	checkSessionGone(t, r, "the session of the user deleted in a transaction", carls)
	checkSession(t, r, "the other user's session", bobs)
	checkSession(t, r, "the unbound session", unbound)
}

// testSessionRollback runs every write of the repository in a transaction
// that sees its own writes and then fails: none of them may remain.
func testSessionRollback(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	updated := createSession(t, r, newSession(0, base))
	touched := createSession(t, r, newSession(ann.ID, base))
	deleted := createSession(t, r, newSession(ann.ID, at(time.Hour)))
	bobs := createSession(t, r, newSession(bob.ID, at(time.Hour)))
	idle := createSession(t, r, newSession(0, base))
	created := newSession(bob.ID, at(2*time.Hour))

	err := st.InTx(ctx, func(r ports.Repos) error {
		if err := r.Sessions.Create(ctx, created); err != nil {
			return fmt.Errorf("Sessions.Create: %w", err)
		}
		checkSession(t, r, "a session created in the transaction", created)
		upd := updated
		upd.UserID, upd.CSRFToken, upd.LastActivity = ann.ID, "rotated", at(2*time.Hour)
		if err := r.Sessions.Update(ctx, upd); err != nil {
			return fmt.Errorf("Sessions.Update: %w", err)
		}
		checkSession(t, r, "a session updated in the transaction", upd)
		if err := r.Sessions.Touch(ctx, touched.IDHash, at(2*time.Hour)); err != nil {
			return fmt.Errorf("Sessions.Touch: %w", err)
		}
		tch := touched
		tch.LastActivity = at(2 * time.Hour)
		checkSession(t, r, "a session touched in the transaction", tch)
		if err := r.Sessions.Delete(ctx, deleted.IDHash); err != nil {
			return fmt.Errorf("Sessions.Delete: %w", err)
		}
		checkSessionGone(t, r, "a session deleted in the transaction", deleted)
		if n, err := r.Sessions.DeleteByUser(ctx, bob.ID); err != nil || n != 2 {
			return fmt.Errorf("Sessions.DeleteByUser: %d, %v", n, err)
		}
		checkSessionGone(t, r, "a session deleted by user in the transaction", bobs)
		if n, err := r.Sessions.DeleteIdle(ctx, at(30*time.Minute)); err != nil || n != 1 {
			return fmt.Errorf("Sessions.DeleteIdle: %d, %v", n, err)
		}
		checkSessionGone(t, r, "an idle session deleted in the transaction", idle)
		return errRollback
	})
	checkErr(t, "InTx", err, errRollback)
	checkSessionGone(t, r, "the session created in the rolled back transaction", created)
	for _, s := range []domain.Session{updated, touched, deleted, bobs, idle} {
		checkSession(t, r, "a session after the rollback", s)
	}
}
