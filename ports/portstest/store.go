package portstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var storeTests = append([]storeTest{
	{"Ping", testPing},
	{"OwnWrites", testOwnWrites},
	{"NoAliasing", testNoAliasing},
}, transactionTests()...)

func testPing(t *testing.T, st ports.Store) {
	checkErr(t, "Ping", st.Ping(t.Context()), nil)
}

// world is a small set of records in every repository, seeded before a
// transaction so that its effect can be measured.
type world struct {
	ann, bob               domain.User
	annWeb, annAPI, bobCLI domain.Token
	p1, p2                 domain.Person
	q1, q2                 domain.Product
	annPost, bobPost       domain.Post
	tagGo                  domain.Tag
	comment                domain.Comment // Bob's, on Ann's post
	annSession, bobSession domain.Session
	anonSession            domain.Session // bound to no user
}

// The names the writes of a transaction use. The rate-limit keys are read at
// a fixed instant inside their windows.
const (
	newEmail  = "new@example.com"
	newTitle  = "New post"
	newSlug   = "new-post"
	newCSRF   = "new-csrf"
	keyOld    = "login:ann@example.com|192.0.2.1"
	keyNew    = "login:new@example.com|192.0.2.1"
	hitWindow = time.Hour
)

func seedWorld(t *testing.T, st ports.Store) world {
	t.Helper()
	r := st.Repos()
	var w world
	w.ann = createUser(t, r, newUser("Ann", "ann@example.com"))
	w.bob = createUser(t, r, newUser("Bob", "bob@example.com"))
	web := newToken(w.ann.ID, "web", base)
	web.ExpiresAt = ptr(at(time.Hour))
	w.annWeb = createToken(t, r, web)
	w.annAPI = createToken(t, r, newToken(w.ann.ID, "api", at(time.Second)))
	w.bobCLI = createToken(t, r, newToken(w.bob.ID, "cli", base))
	w.p1 = createPerson(t, r, newPerson("Pat", "pat@example.com"))
	w.p2 = createPerson(t, r, newPerson("Sam", "sam@example.com"))
	w.q1 = createProduct(t, r, newProduct("Pen", ptr("PEN-1")))
	w.q2 = createProduct(t, r, newProduct("Ink", nil))
	for range 2 {
		_, _, err := r.RateLimits.Hit(t.Context(), keyOld, hitWindow, base)
		must(t, "RateLimits.Hit", err)
	}
	w.annPost = createPost(t, r, newPost(t, w.ann.ID, "Ann's post", domain.StatusPublished, base))
	w.bobPost = createPost(t, r, newPost(t, w.bob.ID, "Bob's post", domain.StatusPublished, at(time.Hour)))
	w.tagGo = createTag(t, r, "Go", base)
	setTags(t, r, w.annPost, w.tagGo)
	w.comment = createComment(t, r, newComment(w.annPost.ID(), w.bob.ID, "Nice post", at(time.Minute)))
	w.annSession = createSession(t, r, newSession(w.ann.ID, base))
	w.anonSession = createSession(t, r, newSession(0, at(time.Minute)))
	w.bobSession = createSession(t, r, newSession(w.bob.ID, at(time.Hour)))
	return w
}

// newSessionHash is the digest of the session the creates write.
var newSessionHash = domain.HashSecret("new session")

// snapshot is everything a transaction over a world could change, as one set
// of repositories reads it.
type snapshot struct {
	Users         []domain.User // the seeded users; the zero value for one that is gone
	NewUser       bool          // whether a user with newEmail exists
	Tokens        []domain.Token
	People        []domain.Person
	PeopleTotal   int
	Products      []domain.Product
	ProductsTotal int
	Hits          []int
	Posts         []domain.PostState    // the seeded posts; the zero value for one that is gone
	Published     []domain.PostState    // every published post, newest first
	NewSlugSuffix int                   // Posts.LastSlugSuffix(newSlug)
	Tags          []domain.Tag          // every tag
	PostTags      [][]domain.Tag        // the tags of each seeded post
	Comments      [][]ports.CommentView // the comments on each seeded post, with their authors
	CommentTotals []int
	Sessions      []domain.Session // the seeded sessions and the new one; the zero value for one that is gone
}

// probed returns s as the snapshot taken n snapshots later reads it when
// nothing else changed: each snapshot's own hit, once it stays, raises every
// count by one.
func (s snapshot) probed(n int) snapshot {
	s.Hits = slices.Clone(s.Hits)
	for i := range s.Hits {
		s.Hits[i] += n
	}
	return s
}

func takeSnapshot(t *testing.T, r ports.Repos, w world) snapshot {
	t.Helper()
	ctx := t.Context()
	var s snapshot
	for _, u := range []domain.User{w.ann, w.bob} {
		got, err := r.Users.ByID(ctx, u.ID)
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Users.ByID: %v", err)
		}
		s.Users = append(s.Users, got)
		tokens, err := r.Tokens.ListByUser(ctx, u.ID)
		must(t, "Tokens.ListByUser", err)
		s.Tokens = append(s.Tokens, tokens...)
	}
	_, err := r.Users.ByEmail(ctx, newEmail)
	if err != nil && !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("Users.ByEmail: %v", err)
	}
	s.NewUser = err == nil
	s.People, s.PeopleTotal, err = r.People.List(ctx, ports.PersonQuery{Page: ports.Page{Limit: 100}})
	must(t, "People.List", err)
	s.Products, s.ProductsTotal, err = r.Products.List(ctx, ports.Page{Limit: 100})
	must(t, "Products.List", err)
	// A count is read only by counting, so the snapshot hits each key once
	// and records the count that hit saw; see probed.
	for _, key := range []string{keyOld, keyNew} {
		hits, _, err := r.RateLimits.Hit(ctx, key, hitWindow, at(time.Minute))
		must(t, "RateLimits.Hit", err)
		s.Hits = append(s.Hits, hits)
	}
	seeded := []int64{w.annPost.ID(), w.bobPost.ID()}
	for _, id := range seeded {
		got, err := r.Posts.Get(ctx, id)
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Posts.Get: %v", err)
		}
		s.Posts = append(s.Posts, got.State())
	}
	published, err := listPosts(ctx, r, ports.PostFilter{}, ports.Page{Limit: 100})
	must(t, "PostViews.ListViews", err)
	for _, p := range published {
		s.Published = append(s.Published, p.State())
	}
	s.NewSlugSuffix, err = r.Posts.LastSlugSuffix(ctx, newSlug)
	must(t, "Posts.LastSlugSuffix", err)
	s.Tags, err = r.Tags.List(ctx)
	must(t, "Tags.List", err)
	tags, err := r.Tags.OfPosts(ctx, seeded)
	must(t, "Tags.OfPosts", err)
	for _, id := range seeded {
		s.PostTags = append(s.PostTags, tags[id])
		comments, total, err := r.Comments.ListByPost(ctx, id, ports.Page{Limit: 100})
		must(t, "Comments.ListByPost", err)
		if len(comments) == 0 {
			comments = nil
		}
		s.Comments = append(s.Comments, comments)
		s.CommentTotals = append(s.CommentTotals, total)
	}
	for _, hash := range []string{w.annSession.IDHash, w.anonSession.IDHash, w.bobSession.IDHash, newSessionHash} {
		got, err := r.Sessions.ByHash(ctx, hash)
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Sessions.ByHash: %v", err)
		}
		s.Sessions = append(s.Sessions, got)
	}
	// An empty list may come back nil or empty; neither is a change.
	if len(s.Published) == 0 {
		s.Published = nil
	}
	if len(s.Tags) == 0 {
		s.Tags = nil
	}
	if len(s.Tokens) == 0 {
		s.Tokens = nil
	}
	if len(s.People) == 0 {
		s.People = nil
	}
	if len(s.Products) == 0 {
		s.Products = nil
	}
	return s
}

// transactions are the writes whose rollback the suite checks, grouped so
// that one transaction can hold them all: every write method of every
// repository appears in one of them.
var transactions = []struct {
	name  string
	write func(ctx context.Context, r ports.Repos, w world) error
}{
	{"creates", func(ctx context.Context, r ports.Repos, w world) error {
		u := newUser("New", newEmail)
		if err := r.Users.Create(ctx, &u); err != nil {
			return fmt.Errorf("Users.Create: %w", err)
		}
		tok := newToken(w.ann.ID, "new", at(time.Hour))
		if err := r.Tokens.Create(ctx, &tok); err != nil {
			return fmt.Errorf("Tokens.Create: %w", err)
		}
		p := newPerson("New", newEmail)
		if err := r.People.Create(ctx, &p); err != nil {
			return fmt.Errorf("People.Create: %w", err)
		}
		q := newProduct("New", ptr("NEW-1"))
		if err := r.Products.Create(ctx, &q); err != nil {
			return fmt.Errorf("Products.Create: %w", err)
		}
		if _, _, err := r.RateLimits.Hit(ctx, keyNew, hitWindow, base); err != nil {
			return fmt.Errorf("RateLimits.Hit: %w", err)
		}
		post, err := domain.NewPost(w.ann.ID, newTitle, "body", domain.StatusPublished, at(2*time.Hour))
		if err != nil {
			return err
		}
		if err := r.Posts.Create(ctx, &post); err != nil {
			return fmt.Errorf("Posts.Create: %w", err)
		}
		tag, err := domain.NewTag("New", base)
		if err != nil {
			return err
		}
		if err := r.Tags.Create(ctx, &tag); err != nil {
			return fmt.Errorf("Tags.Create: %w", err)
		}
		if err := r.Posts.SetTags(ctx, w.bobPost.ID(), []int64{tag.ID, w.tagGo.ID}); err != nil {
			return fmt.Errorf("Posts.SetTags: %w", err)
		}
		c := newComment(w.bobPost.ID(), w.ann.ID, "New comment", at(time.Hour))
		if err := r.Comments.Create(ctx, &c); err != nil {
			return fmt.Errorf("Comments.Create: %w", err)
		}
		sess := domain.Session{IDHash: newSessionHash, Kind: domain.SessionAPI, UserID: w.ann.ID, CSRFToken: newCSRF, LastActivity: at(time.Hour), CreatedAt: at(time.Hour)}
		if err := r.Sessions.Create(ctx, sess); err != nil {
			return fmt.Errorf("Sessions.Create: %w", err)
		}
		return nil
	}},
	{"updates", func(ctx context.Context, r ports.Repos, w world) error {
		u := w.ann
		u.Name, u.Email, u.UpdatedAt = "Ann Changed", "ann.changed@example.com", at(time.Hour)
		if err := r.Users.Update(ctx, u); err != nil {
			return fmt.Errorf("Users.Update: %w", err)
		}
		if err := r.Tokens.Touch(ctx, w.annAPI.ID, at(2*time.Hour)); err != nil {
			return fmt.Errorf("Tokens.Touch: %w", err)
		}
		p := w.p1
		p.Name, p.Age = "Pat Changed", ptr(50)
		if err := r.People.Update(ctx, p); err != nil {
			return fmt.Errorf("People.Update: %w", err)
		}
		q := w.q1
		q.Stock, q.SKU = 99, nil
		if err := r.Products.Update(ctx, q); err != nil {
			return fmt.Errorf("Products.Update: %w", err)
		}
		if _, _, err := r.RateLimits.Hit(ctx, keyOld, hitWindow, base); err != nil {
			return fmt.Errorf("RateLimits.Hit: %w", err)
		}
		post := w.annPost
		post.Retitle("Ann's post, changed", at(time.Hour))
		if err := post.SetStatus(domain.StatusDraft, at(time.Hour)); err != nil {
			return err
		}
		if err := r.Posts.Update(ctx, post); err != nil {
			return fmt.Errorf("Posts.Update: %w", err)
		}
		if err := r.Posts.SetTags(ctx, w.annPost.ID(), nil); err != nil {
			return fmt.Errorf("Posts.SetTags: %w", err)
		}
		c := w.comment
		c.Body, c.UpdatedAt = "Nice post, changed", at(time.Hour)
		if err := r.Comments.Update(ctx, c); err != nil {
			return fmt.Errorf("Comments.Update: %w", err)
		}
		sess := w.anonSession
		sess.UserID, sess.CSRFToken, sess.LastActivity = w.bob.ID, newCSRF, at(2*time.Hour)
		if err := r.Sessions.Update(ctx, sess); err != nil {
			return fmt.Errorf("Sessions.Update: %w", err)
		}
		if err := r.Sessions.Touch(ctx, w.annSession.IDHash, at(2*time.Hour)); err != nil {
			return fmt.Errorf("Sessions.Touch: %w", err)
		}
		return nil
	}},
	{"deletes", func(ctx context.Context, r ports.Repos, w world) error {
		if err := r.Tokens.Delete(ctx, w.bob.ID, w.bobCLI.ID); err != nil {
			return fmt.Errorf("Tokens.Delete: %w", err)
		}
		if n, err := r.Tokens.DeleteByName(ctx, w.ann.ID, "api"); err != nil || n != 1 {
			return fmt.Errorf("Tokens.DeleteByName: %d, %v", n, err)
		}
		if n, err := r.Tokens.DeleteExpired(ctx, at(2*time.Hour)); err != nil || n != 1 {
			return fmt.Errorf("Tokens.DeleteExpired: %d, %v", n, err)
		}
		if err := r.People.Delete(ctx, w.p2.ID); err != nil {
			return fmt.Errorf("People.Delete: %w", err)
		}
		if err := r.Products.Delete(ctx, w.q2.ID); err != nil {
			return fmt.Errorf("Products.Delete: %w", err)
		}
		if err := r.RateLimits.Clear(ctx, keyOld); err != nil {
			return fmt.Errorf("RateLimits.Clear: %w", err)
		}
		if err := r.Comments.Delete(ctx, w.comment.ID); err != nil {
			return fmt.Errorf("Comments.Delete: %w", err)
		}
		if err := r.Posts.Delete(ctx, w.bobPost.ID()); err != nil {
			return fmt.Errorf("Posts.Delete: %w", err)
		}
		if err := r.Sessions.Delete(ctx, w.anonSession.IDHash); err != nil {
			return fmt.Errorf("Sessions.Delete: %w", err)
		}
		if n, err := r.Sessions.DeleteIdle(ctx, at(30*time.Minute)); err != nil || n != 1 {
			return fmt.Errorf("Sessions.DeleteIdle: %d, %v", n, err)
		}
		return nil
	}},
	{"user deletes", func(ctx context.Context, r ports.Repos, w world) error {
		if err := r.Users.Delete(ctx, w.ann.ID); err != nil {
			return fmt.Errorf("Users.Delete: %w", err)
		}
		if n, err := r.Tokens.DeleteByUser(ctx, w.bob.ID); err != nil || n != 1 {
			return fmt.Errorf("Tokens.DeleteByUser: %d, %v", n, err)
		}
		if n, err := r.Sessions.DeleteByUser(ctx, w.bob.ID); err != nil || n != 1 {
			return fmt.Errorf("Sessions.DeleteByUser: %d, %v", n, err)
		}
		return nil
	}},
}

// errRollback is what a transaction returns to be rolled back.
var errRollback = errors.New("roll back, please")

// transactionTests makes a commit and a rollback check of each group of
// writes, each with a store of its own since the groups seed the same world.
func transactionTests() []storeTest {
	var tests []storeTest
	for _, tx := range transactions {
		tests = append(tests,
			storeTest{"Commit " + tx.name, func(t *testing.T, st ports.Store) { testCommit(t, st, tx.write) }},
			storeTest{"Rollback " + tx.name, func(t *testing.T, st ports.Store) { testRollback(t, st, tx.write) }},
		)
	}
	return append(tests, storeTest{"Rollback after a refused write", testRollbackRefused})
}

// testCommit checks that a committed transaction leaves exactly the state its
// own repositories saw at its end.
func testCommit(t *testing.T, st ports.Store, write func(context.Context, ports.Repos, world) error) {
	ctx := t.Context()
	w := seedWorld(t, st)
	before := takeSnapshot(t, st.Repos(), w)
	var inside snapshot
	err := st.InTx(ctx, func(r ports.Repos) error {
		if err := write(ctx, r, w); err != nil {
			return err
		}
		inside = takeSnapshot(t, r, w)
		return nil
	})
	if !checkErr(t, "InTx", err, nil) {
		return
	}
	if len(diff(inside, before.probed(1))) == 0 {
		t.Fatalf("the transaction's repositories saw no change; want its writes")
	}
	check(t, "state after commit, against the state the transaction saw", takeSnapshot(t, st.Repos(), w), inside.probed(1))
}

// testRollback checks that a transaction that fails after its writes leaves
// no trace, hands back its error, and leaves the store able to commit the
// same writes afterwards.
func testRollback(t *testing.T, st ports.Store, write func(context.Context, ports.Repos, world) error) {
	ctx := t.Context()
	w := seedWorld(t, st)
	before := takeSnapshot(t, st.Repos(), w)
	err := st.InTx(ctx, func(r ports.Repos) error {
		if err := write(ctx, r, w); err != nil {
			return err
		}
		return errRollback
	})
	checkErr(t, "InTx whose function fails", err, errRollback)
	check(t, "state after rollback, against the state before", takeSnapshot(t, st.Repos(), w), before.probed(1))

	err = st.InTx(ctx, func(r ports.Repos) error { return write(ctx, r, w) })
	checkErr(t, "InTx of the same writes after the rollback", err, nil)
	if len(diff(takeSnapshot(t, st.Repos(), w), before.probed(2))) == 0 {
		t.Errorf("state after committing the writes a rollback undid: unchanged, want the writes")
	}
}

// testRollbackRefused checks that a domain error in the middle of a
// transaction, one the store itself raised, undoes the writes before it and
// comes back from InTx for the caller to match.
func testRollbackRefused(t *testing.T, st ports.Store) {
	ctx := t.Context()
	w := seedWorld(t, st)
	before := takeSnapshot(t, st.Repos(), w)
	err := st.InTx(ctx, func(r ports.Repos) error {
		if err := transactions[0].write(ctx, r, w); err != nil {
			return err
		}
		dup := newUser("Ann Again", "ANN@example.com")
		return r.Users.Create(ctx, &dup)
	})
	checkErr(t, "InTx whose user create is refused", err, domain.ErrEmailTaken)
	check(t, "state after the refused transaction, against the state before", takeSnapshot(t, st.Repos(), w), before.probed(1))
}

// testOwnWrites checks that the repositories of a transaction read what the
// transaction wrote before it commits.
func testOwnWrites(t *testing.T, st ports.Store) {
	ctx := t.Context()
	w := seedWorld(t, st)
	err := st.InTx(ctx, func(r ports.Repos) error {
		u := newUser("New", newEmail)
		if err := r.Users.Create(ctx, &u); err != nil {
			return fmt.Errorf("Users.Create: %w", err)
		}
		reads := []struct {
			name string
			read func() (domain.User, error)
		}{
			{"Users.ByID", func() (domain.User, error) { return r.Users.ByID(ctx, u.ID) }},
			{"Users.ByEmail", func() (domain.User, error) { return r.Users.ByEmail(ctx, newEmail) }},
			{"Users.Lock", func() (domain.User, error) { return r.Users.Lock(ctx, u.ID) }},
		}
		for _, rd := range reads {
			got, err := rd.read()
			if checkErr(t, rd.name+" of a user created in the transaction", err, nil) {
				check(t, rd.name+" of a user created in the transaction", got, u)
			}
		}
		renamed := w.bob
		renamed.Name = "Bob Renamed"
		if err := r.Users.Update(ctx, renamed); err != nil {
			return fmt.Errorf("Users.Update: %w", err)
		}
		if got, err := r.Users.ByID(ctx, w.bob.ID); checkErr(t, "Users.ByID of a user updated in the transaction", err, nil) {
			check(t, "Users.ByID of a user updated in the transaction", got, renamed)
		}

		tok := newToken(u.ID, "new", base)
		if err := r.Tokens.Create(ctx, &tok); err != nil {
			return fmt.Errorf("Tokens.Create: %w", err)
		}
		if got, err := r.Tokens.ByHash(ctx, tok.Hash); checkErr(t, "Tokens.ByHash of a token created in the transaction", err, nil) {
			check(t, "Tokens.ByHash of a token created in the transaction", got, tok)
		}
		if err := r.Tokens.Touch(ctx, tok.ID, at(time.Hour)); err != nil {
			return fmt.Errorf("Tokens.Touch: %w", err)
		}
		touched := tok
		touched.LastUsedAt = ptr(at(time.Hour))
		if got, err := r.Tokens.ListByUser(ctx, u.ID); checkErr(t, "Tokens.ListByUser in the transaction", err, nil) {
			if len(got) == 1 {
				touched.UpdatedAt = got[0].UpdatedAt
			}
			check(t, "Tokens.ListByUser of a token created and touched in the transaction", got, []domain.Token{touched})
		}
		if err := r.Tokens.Delete(ctx, w.ann.ID, w.annWeb.ID); err != nil {
			return fmt.Errorf("Tokens.Delete: %w", err)
		}
		if _, err := r.Tokens.ByID(ctx, w.annWeb.ID); !checkErr(t, "Tokens.ByID of a token deleted in the transaction", err, domain.ErrNotFound) {
			return nil
		}

		p := newPerson("New", newEmail)
		if err := r.People.Create(ctx, &p); err != nil {
			return fmt.Errorf("People.Create: %w", err)
		}
		if got, err := r.People.Get(ctx, p.ID); checkErr(t, "People.Get of a record created in the transaction", err, nil) {
			check(t, "People.Get of a record created in the transaction", got, p)
		}
		if err := r.People.Delete(ctx, w.p1.ID); err != nil {
			return fmt.Errorf("People.Delete: %w", err)
		}
		if got, total, err := r.People.List(ctx, ports.PersonQuery{Page: ports.Page{Limit: 100}}); checkErr(t, "People.List in the transaction", err, nil) {
			if total != 2 {
				t.Errorf("People.List in the transaction: got total %d, want 2", total)
			}
			check(t, "People.List in the transaction", got, []domain.Person{w.p2, p})
		}

		q := newProduct("New", ptr("NEW-1"))
		if err := r.Products.Create(ctx, &q); err != nil {
			return fmt.Errorf("Products.Create: %w", err)
		}
		if got, err := r.Products.Get(ctx, q.ID); checkErr(t, "Products.Get of a product created in the transaction", err, nil) {
			check(t, "Products.Get of a product created in the transaction", got, q)
		}
		if got, total, err := r.Products.List(ctx, ports.Page{Limit: 100}); checkErr(t, "Products.List in the transaction", err, nil) {
			if total != 3 {
				t.Errorf("Products.List in the transaction: got total %d, want 3", total)
			}
			check(t, "Products.List in the transaction", got, []domain.Product{w.q1, w.q2, q})
		}

		if hits, _, err := r.RateLimits.Hit(ctx, keyOld, hitWindow, at(time.Second)); checkErr(t, "RateLimits.Hit in the transaction", err, nil) && hits != 3 {
			t.Errorf("RateLimits.Hit in the transaction: got %d hits, want 3", hits)
		}
		if err := r.RateLimits.Clear(ctx, keyOld); err != nil {
			return fmt.Errorf("RateLimits.Clear: %w", err)
		}
		if hits, reset, err := r.RateLimits.Hit(ctx, keyOld, hitWindow, at(2*time.Second)); checkErr(t, "RateLimits.Hit after Clear in the transaction", err, nil) {
			if hits != 1 {
				t.Errorf("RateLimits.Hit after Clear in the transaction: got %d hits, want 1", hits)
			}
			check(t, "RateLimits.Hit after Clear in the transaction: a new window starts", reset, at(2*time.Second+hitWindow))
		}
		return nil
	})
	checkErr(t, "InTx", err, nil)
}

// testNoAliasing checks that a store keeps no reference to what callers pass
// in or get back: changing a slice or a pointed-to value afterwards must not
// change the stored record.
func testNoAliasing(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()

	u := newUser("Ann", "ann@example.com")
	u.EmailVerifiedAt = ptr(base)
	must(t, "Users.Create", r.Users.Create(ctx, &u))
	wantUser := u
	wantUser.EmailVerifiedAt = ptr(base)
	*u.EmailVerifiedAt = at(time.Hour)
	got, err := r.Users.ByID(ctx, u.ID)
	must(t, "Users.ByID", err)
	check(t, "user after changing the created value's EmailVerifiedAt", got, wantUser)
	*got.EmailVerifiedAt = at(2 * time.Hour)
	got, err = r.Users.ByEmail(ctx, u.Email)
	must(t, "Users.ByEmail", err)
	check(t, "user after changing a read value's EmailVerifiedAt", got, wantUser)

	tok := newToken(u.ID, "web", base)
	tok.Abilities = []string{domain.AbilityPostsRead, domain.AbilityPostsWrite}
	tok.LastUsedAt, tok.ExpiresAt = ptr(base), ptr(at(time.Hour))
	must(t, "Tokens.Create", r.Tokens.Create(ctx, &tok))
	wantToken := tok
	wantToken.Abilities = []string{domain.AbilityPostsRead, domain.AbilityPostsWrite}
	wantToken.LastUsedAt, wantToken.ExpiresAt = ptr(base), ptr(at(time.Hour))
	tok.Abilities[0], *tok.LastUsedAt, *tok.ExpiresAt = domain.AbilityAll, at(time.Minute), at(time.Minute)
	gotTok, err := r.Tokens.ByID(ctx, tok.ID)
	must(t, "Tokens.ByID", err)
	check(t, "token after changing the created value", gotTok, wantToken)
	gotTok.Abilities[0], *gotTok.LastUsedAt, *gotTok.ExpiresAt = domain.AbilityAll, at(time.Minute), at(time.Minute)
	list, err := r.Tokens.ListByUser(ctx, u.ID)
	must(t, "Tokens.ListByUser", err)
	check(t, "tokens after changing a read value", list, []domain.Token{wantToken})
	list[0].Abilities[1] = domain.AbilityAll
	gotTok, err = r.Tokens.ByHash(ctx, tok.Hash)
	must(t, "Tokens.ByHash", err)
	check(t, "token after changing a listed value", gotTok, wantToken)

	p := newPerson("Pat", "pat@example.com")
	p.Age, p.Address = ptr(40), &domain.Address{City: "Oslo"}
	must(t, "People.Create", r.People.Create(ctx, &p))
	wantPerson := p
	wantPerson.Age, wantPerson.Address = ptr(40), &domain.Address{City: "Oslo"}
	*p.Age, p.Address.City = 41, "Rome"
	gotPerson, err := r.People.Get(ctx, p.ID)
	must(t, "People.Get", err)
	check(t, "record after changing the created value", gotPerson, wantPerson)
	*gotPerson.Age, gotPerson.Address.City = 42, "Lima"
	people, _, err := r.People.List(ctx, ports.PersonQuery{Page: ports.Page{Limit: 10}})
	must(t, "People.List", err)
	check(t, "records after changing a read value", people, []domain.Person{wantPerson})
	*people[0].Age, people[0].Address.City = 43, "Oran"
	upd := wantPerson
	upd.Age, upd.Address = ptr(44), &domain.Address{City: "Kyiv"}
	must(t, "People.Update", r.People.Update(ctx, upd))
	*upd.Age, upd.Address.City = 45, "Baku"
	gotPerson, err = r.People.Get(ctx, p.ID)
	must(t, "People.Get", err)
	wantPerson.Age, wantPerson.Address = ptr(44), &domain.Address{City: "Kyiv"}
	check(t, "record after changing a listed value and the updated value", gotPerson, wantPerson)

	q := newProduct("Pen", ptr("PEN-1"))
	must(t, "Products.Create", r.Products.Create(ctx, &q))
	wantProduct := q
	wantProduct.SKU = ptr("PEN-1")
	*q.SKU = "PEN-2"
	gotProduct, err := r.Products.Get(ctx, q.ID)
	must(t, "Products.Get", err)
	check(t, "product after changing the created value's SKU", gotProduct, wantProduct)
	*gotProduct.SKU = "PEN-3"
	products, _, err := r.Products.List(ctx, ports.Page{Limit: 10})
	must(t, "Products.List", err)
	check(t, "products after changing a read value's SKU", products, []domain.Product{wantProduct})
}
