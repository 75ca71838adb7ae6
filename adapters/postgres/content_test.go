package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func newPost(t *testing.T, r ports.Repos, author int64, title string, status domain.PostStatus, created time.Time) domain.Post {
	t.Helper()
	p, err := domain.NewPost(author, title, "<p>Body of "+title+"</p>", status, created)
	mustDo(t, "NewPost", err)
	mustDo(t, "create post "+title, r.Posts.Create(context.Background(), &p))
	return p
}

func postIDs(views []ports.PostView) []int64 {
	out := []int64{}
	for _, v := range views {
		out = append(out, v.Post.ID())
	}
	return out
}

func TestPosts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()
	ann, bob := newUser("ann@example.com"), newUser("bob@example.com")
	mustDo(t, "create ann", r.Users.Create(ctx, &ann))
	mustDo(t, "create bob", r.Users.Create(ctx, &bob))

	p1 := newPost(t, r, ann.ID, "Hello World", domain.StatusPublished, t0)
	got, err := r.Posts.Get(ctx, p1.ID())
	mustDo(t, "Get", err)
	if !reflect.DeepEqual(got.State(), p1.State()) {
		t.Errorf("Get: got %+v, want %+v", got.State(), p1.State())
	}

	dup, err := domain.NewPost(bob.ID, "Hello, world!", "x", domain.StatusDraft, t0)
	mustDo(t, "NewPost", err)
	wantErr(t, "Create with a taken slug", r.Posts.Create(ctx, &dup), domain.ErrSlugTaken)
	orphan, _ := domain.NewPost(999, "Orphan", "x", domain.StatusDraft, t0)
	wantErr(t, "Create by a missing author", r.Posts.Create(ctx, &orphan), domain.ErrNotFound)

	for _, tc := range []struct {
		base string
		want int
	}{{"hello-world", 1}, {"nothing", 0}} {
		n, err := r.Posts.LastSlugSuffix(ctx, tc.base)
		mustDo(t, "LastSlugSuffix", err)
		if n != tc.want {
			t.Errorf("LastSlugSuffix(%q) = %d, want %d", tc.base, n, tc.want)
		}
	}
	mustDo(t, "create -3", r.Posts.Create(ctx, ptr(dup.WithSlugSuffix(3))))
	mustDo(t, "create -2", r.Posts.Create(ctx, ptr(dup.WithSlugSuffix(2))))
	n, err := r.Posts.LastSlugSuffix(ctx, "hello-world")
	mustDo(t, "LastSlugSuffix", err)
	if n != 3 {
		t.Errorf("LastSlugSuffix after -2 and -3: got %d, want 3", n)
	}

	// p1 (ann, published, t0), p2 (ann, draft), p3 (bob, published "50% off"),
	// and the two bob drafts above at t0.
	p2 := newPost(t, r, ann.ID, "Draft thoughts", domain.StatusDraft, t0.Add(time.Hour))
	p3 := newPost(t, r, bob.ID, "50% off", domain.StatusPublished, t0.Add(2*time.Hour))
	go1, err := domain.NewTag("Go", t0)
	mustDo(t, "new tag", err)
	sql, err := domain.NewTag("SQL", t0)
	mustDo(t, "new tag", err)
	taken, err := domain.NewTag("go", t0)
	mustDo(t, "new tag", err)
	mustDo(t, "create tag", r.Tags.Create(ctx, &go1))
	mustDo(t, "create tag", r.Tags.Create(ctx, &sql))
	wantErr(t, "Tags.Create with a taken name", r.Tags.Create(ctx, &taken), domain.ErrTagTaken)
	mustDo(t, "SetTags", r.Posts.SetTags(ctx, p1.ID(), []int64{sql.ID, go1.ID, go1.ID}))
	mustDo(t, "SetTags", r.Posts.SetTags(ctx, p3.ID(), []int64{go1.ID}))
	wantErr(t, "SetTags with a missing tag", r.Posts.SetTags(ctx, p1.ID(), []int64{go1.ID, 999}), domain.ErrNotFound)
	wantErr(t, "SetTags of a missing post", r.Posts.SetTags(ctx, 999, nil), domain.ErrNotFound)

	byPost, err := r.Tags.OfPosts(ctx, []int64{p1.ID(), p2.ID(), p3.ID()})
	mustDo(t, "OfPosts", err)
	want := map[int64][]domain.Tag{p1.ID(): {go1, sql}, p3.ID(): {go1}}
	if !reflect.DeepEqual(byPost, want) {
		t.Errorf("OfPosts (after a refused SetTags): got %+v, want %+v", byPost, want)
	}
	tagList, err := r.Tags.ByIDs(ctx, []int64{sql.ID, 999, go1.ID})
	mustDo(t, "ByIDs", err)
	if !reflect.DeepEqual(tagList, []domain.Tag{go1, sql}) {
		t.Errorf("ByIDs: got %+v", tagList)
	}

	tests := []struct {
		name string
		f    ports.PostFilter
		want []int64
	}{
		{"anonymous sees published", ports.PostFilter{}, []int64{p3.ID(), p1.ID()}},
		{"author sees own drafts", ports.PostFilter{Viewer: ann.ID}, []int64{p3.ID(), p2.ID(), p1.ID()}},
		{"search is literal", ports.PostFilter{Search: "50%"}, []int64{p3.ID()}},
		{"search ignores case", ports.PostFilter{Search: "WORLD"}, []int64{p1.ID()}},
		{"status", ports.PostFilter{Viewer: ann.ID, Status: domain.StatusDraft}, []int64{p2.ID()}},
		{"author", ports.PostFilter{AuthorID: bob.ID}, []int64{p3.ID()}},
		{"tag", ports.PostFilter{TagSlug: "sql"}, []int64{p1.ID()}},
		{"published only, for an author", ports.PostFilter{Viewer: ann.ID, Status: domain.StatusPublished}, []int64{p3.ID(), p1.ID()}},
		{"drafts, anonymously", ports.PostFilter{Status: domain.StatusDraft}, []int64{}},
		{"another author's drafts", ports.PostFilter{Viewer: ann.ID, Status: domain.StatusDraft, AuthorID: bob.ID}, []int64{}},
		{"underscore is literal", ports.PostFilter{Search: "o_"}, []int64{}},
		{"every filter", ports.PostFilter{Viewer: ann.ID, Search: "O", Status: domain.StatusPublished, AuthorID: ann.ID, TagSlug: "go"}, []int64{p1.ID()}},
	}
	for _, tc := range tests {
		list, count, err := r.PostViews.ListViews(ctx, tc.f, ports.Page{Limit: 10})
		mustDo(t, tc.name, err)
		if got := postIDs(list); !reflect.DeepEqual(got, tc.want) || count != len(tc.want) {
			t.Errorf("%s: got %v (count %d), want %v", tc.name, got, count, tc.want)
		}
	}

	// Cursor pages walk the same order.
	var walked []int64
	var cursor *ports.PostCursor
	for range 5 {
		page, err := r.PostViews.ListViewsAfter(ctx, ports.PostFilter{Viewer: ann.ID}, cursor, 2)
		mustDo(t, "ListViewsAfter", err)
		if len(page) == 0 {
			break
		}
		walked = append(walked, postIDs(page)...)
		last := page[len(page)-1].Post
		cursor = &ports.PostCursor{CreatedAt: last.CreatedAt().UnixMicro(), ID: last.ID()}
	}
	if want := []int64{p3.ID(), p2.ID(), p1.ID()}; !reflect.DeepEqual(walked, want) {
		t.Errorf("ListAfter walk: got %v, want %v", walked, want)
	}

	locked := p2
	mustDo(t, "publish", locked.SetStatus(domain.StatusPublished, t0.Add(3*time.Hour)))
	locked.Retitle("Published thoughts", t0.Add(3*time.Hour))
	mustDo(t, "Update", r.Posts.Update(ctx, locked))
	got, err = r.Posts.Lock(ctx, p2.ID())
	mustDo(t, "Lock", err)
	if !reflect.DeepEqual(got.State(), locked.State()) {
		t.Errorf("after Update: got %+v, want %+v", got.State(), locked.State())
	}

	c := domain.Comment{PostID: p1.ID(), UserID: bob.ID, Body: "Nice", CreatedAt: t0, UpdatedAt: t0}
	mustDo(t, "create comment", r.Comments.Create(ctx, &c))
	wantErr(t, "comment on a missing post", r.Comments.Create(ctx, &domain.Comment{PostID: 999, UserID: bob.ID, Body: "x", CreatedAt: t0, UpdatedAt: t0}), domain.ErrNotFound)
	for i := range 3 {
		mustDo(t, "create comment", r.Comments.Create(ctx, &domain.Comment{PostID: p1.ID(), UserID: ann.ID, Body: fmt.Sprint(i), CreatedAt: t0.Add(time.Minute), UpdatedAt: t0}))
	}
	page, total, err := r.Comments.ListByPost(ctx, p1.ID(), ports.Page{Limit: 2})
	mustDo(t, "ListByPost", err)
	if want := (ports.CommentView{Comment: c, Author: bob.Author()}); total != 4 || len(page) != 2 || !reflect.DeepEqual(page[0], want) {
		t.Errorf("ListByPost: got %+v of %d, want 2 starting with %+v of 4", page, total, want)
	}
	page, total, err = r.Comments.ListByPost(ctx, p1.ID(), ports.Page{Offset: 10, Limit: 2})
	mustDo(t, "ListByPost past the end", err)
	if total != 4 || len(page) != 0 {
		t.Errorf("ListByPost past the end: got %d of %d, want 0 of 4", len(page), total)
	}

	mustDo(t, "Delete post", r.Posts.Delete(ctx, p1.ID()))
	_, err = r.Comments.Get(ctx, c.ID)
	wantErr(t, "comment of a deleted post", err, domain.ErrNotFound)
	wantErr(t, "Delete of a missing post", r.Posts.Delete(ctx, p1.ID()), domain.ErrNotFound)
	_, err = r.Posts.Get(ctx, p1.ID())
	wantErr(t, "Get of a deleted post", err, domain.ErrNotFound)
}

// TestPostSearchFoldsUnicode checks that search ignores case beyond ASCII, as
// strings.ToLower does. PostgreSQL's lower() does so in a UTF-8 database
// whose locale knows Unicode (C.UTF-8 or any language's); under the plain C
// locale this test fails, and the database should be created otherwise.
func TestPostSearchFoldsUnicode(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := openStore(t).Repos()
	ann := newUser("ann@example.com")
	mustDo(t, "create ann", r.Users.Create(ctx, &ann))
	p := newPost(t, r, ann.ID, "Émile and ΣΊΣΥΦΟΣ", domain.StatusPublished, t0)
	for _, search := range []string{"émile", "ÉMILE", "σίσυφοσ", "Σίσυφοσ"} {
		list, _, err := r.PostViews.ListViews(ctx, ports.PostFilter{Search: search}, ports.Page{})
		mustDo(t, "ListViews", err)
		if got := postIDs(list); !reflect.DeepEqual(got, []int64{p.ID()}) {
			t.Errorf("search %q: got %v, want [%d]", search, got, p.ID())
		}
	}
}

// TestSlugSuffixConcurrently runs fifty creators of one title at once, each
// in a transaction that asks LastSlugSuffix before Create, as the use case
// does. LastSlugSuffix makes them take turns, so every one succeeds and the
// slugs are base, base-2, ... base-50.
func TestSlugSuffixConcurrently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	ann := newUser("ann@example.com")
	mustDo(t, "create ann", st.Repos().Users.Create(ctx, &ann))

	const creators = 50
	slugs := make([]string, creators)
	var wg sync.WaitGroup
	for i := range creators {
		wg.Go(func() {
			err := st.InTx(ctx, func(r ports.Repos) error {
				post, err := domain.NewPost(ann.ID, "One Title", "body", domain.StatusPublished, t0)
				if err != nil {
					return err
				}
				n, err := r.Posts.LastSlugSuffix(ctx, post.Slug())
				if err != nil {
					return err
				}
				if n > 0 {
					post = post.WithSlugSuffix(n + 1)
				}
				if err := r.Posts.Create(ctx, &post); err != nil {
					return err
				}
				slugs[i] = post.Slug()
				return nil
			})
			if err != nil {
				t.Errorf("creator %d: %v", i, err)
			}
		})
	}
	wg.Wait()

	want := []string{"one-title"}
	for n := 2; n <= creators; n++ {
		want = append(want, fmt.Sprintf("one-title-%d", n))
	}
	slices.Sort(want)
	slices.Sort(slugs)
	if !reflect.DeepEqual(slugs, want) {
		t.Errorf("slugs: got %q, want %q", slugs, want)
	}
}

// TestQueries checks what the statement and round-trip counters count:
// nothing for migrations and pings, one statement per statement, and BEGIN
// and COMMIT around a transaction; one round trip per statement sent alone
// or batch, BEGIN going with a transaction's first statement and nothing
// sent for a transaction that sends no statement.
func TestQueries(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	if got := st.Queries(); got != 0 {
		t.Errorf("Queries after Open: got %d, want 0", got)
	}
	mustDo(t, "Ping", st.Ping(ctx))
	if got := st.Queries(); got != 0 {
		t.Errorf("Queries after Ping: got %d, want 0", got)
	}
	if got := st.RoundTrips(); got != 0 {
		t.Errorf("RoundTrips after Open and Ping: got %d, want 0", got)
	}

	steps := []struct {
		name string
		run  func() error
		want int64
		// trips is the round trips it costs.
		trips int64
	}{
		{"PostViews.ListViews planned per call (an empty page and a count)", func() error {
			_, _, err := st.Repos().PostViews.ListViews(ctx, ports.PostFilter{Viewer: 1, Search: "x", TagSlug: "go"}, ports.Page{Limit: 10, Offset: 10})
			return err
		}, 2, 2},
		{"count", func() error {
			_, err := postgres.CountPosts(ctx, st.Repos(), ports.PostFilter{AuthorID: 1})
			return err
		}, 1, 1},
		{"PostViews.ListViews (page, tags and total in one statement)", func() error {
			_, _, err := st.Repos().PostViews.ListViews(ctx, ports.PostFilter{}, ports.Page{Limit: 10})
			return err
		}, 1, 1},
		{"PostViews.ListViewsAfter (page and tags in one statement)", func() error {
			_, err := st.Repos().PostViews.ListViewsAfter(ctx, ports.PostFilter{}, &ports.PostCursor{CreatedAt: t0.UnixMicro(), ID: 9}, 10)
			return err
		}, 1, 1},
		{"PostViews.View (one statement)", func() error {
			_, err := st.Repos().PostViews.View(ctx, 1, 10)
			if errors.Is(err, domain.ErrNotFound) {
				return nil
			}
			return err
		}, 1, 1},
		{"Posts.LastSlugSuffix (lock and query)", func() error {
			_, err := st.Repos().Posts.LastSlugSuffix(ctx, "x")
			return err
		}, 2, 2},
		{"InTx with two statements", func() error {
			return st.InTx(ctx, func(r ports.Repos) error {
				if _, err := r.Tags.List(ctx); err != nil {
					return err
				}
				_, err := postgres.CountPosts(ctx, r, ports.PostFilter{})
				return err
			})
		}, 4, 3},
		{"InTx with a page first (BEGIN with it)", func() error {
			return st.InTx(ctx, func(r ports.Repos) error {
				_, err := r.PostViews.ListViewsAfter(ctx, ports.PostFilter{}, nil, 10)
				return err
			})
		}, 3, 2},
		{"InTx that sends nothing", func() error {
			return st.InTx(ctx, func(ports.Repos) error { return nil })
		}, 0, 0},
		{"InTx whose statement fails, rolled back", func() error {
			err := st.InTx(ctx, func(r ports.Repos) error {
				return r.Posts.Create(ctx, &domain.Post{})
			})
			if err == nil {
				return errors.New("a post without an author was created")
			}
			return nil
		}, 3, 2},
	}
	for _, s := range steps {
		before, trips := st.Queries(), st.RoundTrips()
		mustDo(t, s.name, s.run())
		if got := st.Queries() - before; got != s.want {
			t.Errorf("%s: sent %d statements, want %d", s.name, got, s.want)
		}
		if got := st.RoundTrips() - trips; got != s.trips {
			t.Errorf("%s: took %d round trips, want %d", s.name, got, s.trips)
		}
	}
}

// TestJoinedTitleIndex checks that the expression a search across words
// asks about is the one posts_title_joined_trgm indexes, which the planner
// requires to take the index, and that it finds titles by the letters
// either side of a place where two words meet.
func TestJoinedTitleIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	ann := newUser("ann@example.com")
	mustDo(t, "create ann", st.Repos().Users.Create(ctx, &ann))
	p := newPost(t, st.Repos(), ann.ID, "A graceful  Worker", domain.StatusPublished, t0)
	newPost(t, st.Repos(), ann.ID, "graceful and worker", domain.StatusPublished, t0.Add(time.Second))
	tx, err := st.Pool().Begin(ctx)
	mustDo(t, "begin", err)
	defer func() { _ = tx.Rollback(ctx) }()
	_, err = tx.Exec(ctx, "SET LOCAL enable_seqscan = off")
	mustDo(t, "enable_seqscan", err)
	query := "SELECT p.id FROM posts p WHERE " + postgres.JoinedTitle + " LIKE lower($1)"
	var plan strings.Builder
	rows, err := tx.Query(ctx, "EXPLAIN "+query, "%ulwo%")
	mustDo(t, "EXPLAIN", err)
	for rows.Next() {
		var line string
		mustDo(t, "scan the plan", rows.Scan(&line))
		plan.WriteString(line + "\n")
	}
	mustDo(t, "read the plan", rows.Err())
	if !strings.Contains(plan.String(), "posts_title_joined_trgm") {
		t.Errorf("the search across words does not use posts_title_joined_trgm:\n%s", plan.String())
	}
	var ids []int64
	rows, err = tx.Query(ctx, query, "%ulWo%")
	mustDo(t, "query", err)
	for rows.Next() {
		var id int64
		mustDo(t, "scan", rows.Scan(&id))
		ids = append(ids, id)
	}
	mustDo(t, "read", rows.Err())
	if !reflect.DeepEqual(ids, []int64{p.ID()}) {
		t.Errorf("%%ulWo%% found %v, want [%d]", ids, p.ID())
	}
}
