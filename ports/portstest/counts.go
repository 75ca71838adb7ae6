package portstest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The SQL stores answer the total of PostViews.ListViews from counts of
// posts by status and author that their writes keep up to date, rather than
// by counting rows. These checks follow the total through every kind of
// write that changes it, committed and rolled back, and compare it after
// each with the posts that ListViews finds, which the stores read from the
// posts themselves.

// countFilters are the filters whose totals the stores may answer from
// their counters, for the viewers and authors ann and bob, with two that
// must count posts (a search, a tag) to compare.
func countFilters(ann, bob int64) []ports.PostFilter {
	pub, draft := domain.StatusPublished, domain.StatusDraft
	return []ports.PostFilter{
		{},
		{Viewer: ann},
		{Viewer: bob},
		{Viewer: missingID},
		{Status: pub},
		{Status: draft},
		{Viewer: ann, Status: pub},
		{Viewer: ann, Status: draft},
		{Viewer: bob, Status: draft},
		{AuthorID: ann},
		{AuthorID: bob, Status: pub},
		{AuthorID: bob, Status: draft},
		{AuthorID: missingID},
		{Viewer: ann, AuthorID: ann},
		{Viewer: ann, AuthorID: bob},
		{Viewer: bob, AuthorID: bob, Status: draft},
		{Viewer: ann, AuthorID: bob, Status: draft},
		{Viewer: ann, AuthorID: ann, Status: pub},
		{Viewer: ann, Search: "post"},
		{Viewer: bob, TagSlug: "go"},
	}
}

// checkCounts checks that the total of every filter of countFilters is the
// number of posts PostViews.ListViews finds for it, and that everybody's
// published posts number published.
func checkCounts(t *testing.T, r ports.Repos, step string, ann, bob int64, published int) {
	t.Helper()
	ctx := t.Context()
	for _, f := range countFilters(ann, bob) {
		what := fmt.Sprintf("%s: the total of PostViews.ListViews(%+v)", step, f)
		list, err := listPosts(ctx, r, f, ports.Page{})
		if !checkErr(t, what+": PostViews.ListViews", err, nil) {
			continue
		}
		n, err := countPosts(ctx, r, f)
		if checkErr(t, what, err, nil) && n != len(list) {
			t.Errorf("%s: got %d, want %d, the posts PostViews.ListViews finds", what, n, len(list))
		}
	}
	n, err := countPosts(ctx, r, ports.PostFilter{})
	if checkErr(t, step+": the total of PostViews.ListViews of the published posts", err, nil) && n != published {
		t.Errorf("%s: the total of PostViews.ListViews of the published posts: got %d, want %d", step, n, published)
	}
}

func testPostCountThroughWrites(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	counts := func(step string, published int) {
		t.Helper()
		checkCounts(t, r, step, ann.ID, bob.ID, published)
	}
	counts("an empty store", 0)

	annPost := createPost(t, r, newPost(t, ann.ID, "Ann's post", domain.StatusPublished, base))
	annDraft := createPost(t, r, newPost(t, ann.ID, "Ann's draft", domain.StatusDraft, at(time.Minute)))
	bobDraft := createPost(t, r, newPost(t, bob.ID, "Bob's draft", domain.StatusDraft, at(2*time.Minute)))
	var bobPost domain.Post
	err := st.InTx(ctx, func(r ports.Repos) error {
		bobPost = newPost(t, bob.ID, "Bob's post", domain.StatusPublished, at(3*time.Minute))
		if err := r.Posts.Create(ctx, &bobPost); err != nil {
			return fmt.Errorf("Posts.Create: %w", err)
		}
		// The transaction counts its own writes.
		checkCounts(t, r, "inside the transaction that creates a post", ann.ID, bob.ID, 2)
		return nil
	})
	must(t, "InTx creating a post", err)
	golang := createTag(t, r, "Go", base)
	setTags(t, r, annPost, golang)
	setTags(t, r, bobDraft, golang)
	counts("after creates", 2)

	annDraft = updatePost(t, r, annDraft, func(p *domain.Post) error {
		return p.SetStatus(domain.StatusPublished, at(time.Hour))
	})
	counts("after publishing a draft", 3)
	bobPost = updatePost(t, r, bobPost, func(p *domain.Post) error {
		return p.SetStatus(domain.StatusDraft, at(time.Hour))
	})
	counts("after taking a post back to draft", 2)
	annPost = updatePost(t, r, annPost, func(p *domain.Post) error {
		p.Retitle("Ann's post, retitled", at(time.Hour))
		return nil
	})
	counts("after an update that keeps the status", 2)

	for _, w := range bothPlaces {
		dup := newPost(t, bob.ID, "Ann's post", domain.StatusPublished, at(time.Hour))
		err := w.run(ctx, st, func(r ports.Repos) error { return r.Posts.Create(ctx, &dup) })
		checkErr(t, "Posts.Create of a taken slug "+w.name, err, domain.ErrSlugTaken)
	}
	counts("after refused creates", 2)

	errRollback := errors.New("roll back")
	err = st.InTx(ctx, func(r ports.Repos) error {
		p := newPost(t, ann.ID, "Rolled back", domain.StatusPublished, at(2*time.Hour))
		if err := r.Posts.Create(ctx, &p); err != nil {
			return fmt.Errorf("Posts.Create: %w", err)
		}
		draft := bobDraft
		if err := draft.SetStatus(domain.StatusPublished, at(2*time.Hour)); err != nil {
			return err
		}
		if err := r.Posts.Update(ctx, draft); err != nil {
			return fmt.Errorf("Posts.Update: %w", err)
		}
		if err := r.Posts.Delete(ctx, annDraft.ID()); err != nil {
			return fmt.Errorf("Posts.Delete: %w", err)
		}
		checkCounts(t, r, "inside a transaction that will roll back", ann.ID, bob.ID, 3)
		return errRollback
	})
	checkErr(t, "InTx that rolls back", err, errRollback)
	counts("after a rollback", 2)

	if err := r.Posts.Delete(ctx, annPost.ID()); err != nil {
		t.Fatalf("Posts.Delete: %v", err)
	}
	counts("after deleting a published post", 1)
	if err := r.Posts.Delete(ctx, bobDraft.ID()); err != nil {
		t.Fatalf("Posts.Delete: %v", err)
	}
	counts("after deleting a draft", 1)

	// Bob's remaining post, a draft since he took it back, goes with him.
	if err := r.Users.Delete(ctx, bob.ID); err != nil {
		t.Fatalf("Users.Delete: %v", err)
	}
	counts("after deleting a user", 1)
	bob = createUser(t, r, newUser("Bob", "bob@example.com"))
	counts("after registering again", 1)
	createPost(t, r, newPost(t, bob.ID, "Bob's post", domain.StatusPublished, at(3*time.Hour)))
	createPost(t, r, newPost(t, bob.ID, "Bob's draft", domain.StatusDraft, at(3*time.Hour)))
	counts("after the new user's first posts", 2)
}

// updatePost applies change to p and stores it.
func updatePost(t *testing.T, r ports.Repos, p domain.Post, change func(*domain.Post) error) domain.Post {
	t.Helper()
	must(t, fmt.Sprintf("changing %q", p.Title()), change(&p))
	must(t, fmt.Sprintf("Posts.Update(%q)", p.Title()), r.Posts.Update(t.Context(), p))
	return p
}

// testPostCountConcurrentWrites creates, publishes and deletes posts of two
// authors from several transactions at once: counts that lost an update to
// a concurrent writer, or that one writer's rollback disturbed, would be off
// afterwards.
func testPostCountConcurrentWrites(t *testing.T, st ports.Store) {
	ctx, cancel := context.WithTimeout(t.Context(), raceTimeout)
	defer cancel()
	r := st.Repos()
	ann := createUser(t, r, newUser("Ann", "ann@example.com"))
	bob := createUser(t, r, newUser("Bob", "bob@example.com"))
	const n = 40
	errRollback := errors.New("roll back")
	errs := make([]error, n)
	race(n, func(i int) {
		author := []int64{ann.ID, bob.ID}[i%2]
		errs[i] = st.InTx(ctx, func(r ports.Repos) error {
			p, err := domain.NewPost(author, fmt.Sprintf("Concurrent %d", i), "body", domain.StatusDraft, at(time.Duration(i)*time.Second))
			if err != nil {
				return err
			}
			if err := r.Posts.Create(ctx, &p); err != nil {
				return fmt.Errorf("Posts.Create: %w", err)
			}
			switch i % 4 {
			case 1: // published
				if err := p.SetStatus(domain.StatusPublished, at(time.Hour)); err != nil {
					return err
				}
				return r.Posts.Update(ctx, p)
			case 2: // gone again
				return r.Posts.Delete(ctx, p.ID())
			case 3: // never there
				return errRollback
			}
			return nil // a draft
		})
	})
	for i, err := range errs {
		if i%4 == 3 {
			checkErr(t, fmt.Sprint("rolled back writer ", i), err, errRollback)
		} else {
			checkErr(t, fmt.Sprint("writer ", i), err, nil)
		}
	}
	// Even writers are Ann's, odd ones Bob's: writers 4k leave Ann's drafts,
	// writers 4k+1 Bob's published posts, and the others nothing.
	checkCounts(t, r, "after concurrent writes", ann.ID, bob.ID, n/4)
	drafts, err := countPosts(ctx, r, ports.PostFilter{Viewer: ann.ID, Status: domain.StatusDraft})
	if checkErr(t, "the total of PostViews.ListViews of Ann's drafts", err, nil) && drafts != n/4 {
		t.Errorf("the total of PostViews.ListViews of Ann's drafts after concurrent writes: got %d, want %d", drafts, n/4)
	}
}
