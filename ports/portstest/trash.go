package portstest

import (
	"fmt"
	"testing"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

var trashTests = []storeTest{
	{"TrashAndRestorePost", testTrashRestorePost},
	{"RestoreComment", testTrashRestoreComment},
	{"Purge", testTrashPurge},
	{"Lists", testTrashLists},
	{"Expired", testTrashExpired},
	{"PurgeAuthor", testTrashPurgeAuthor},
	{"Rollback", testTrashRollback},
}

// trashFixture is a published post of Ann's with a tag and three comments,
// and Bob's own post, which the trash must leave alone.
type trashFixture struct {
	ann, bob   domain.User
	post, kept domain.Post
	tag        domain.Tag
	// early is trashed alone before the post; with1 and with2 go with it.
	early, with1, with2 domain.Comment
}

func seedTrash(t *testing.T, st ports.Store) trashFixture {
	t.Helper()
	r := st.Repos()
	var f trashFixture
	f.ann = createUser(t, r, newUser("Ann", "ann@example.com"))
	f.bob = createUser(t, r, newUser("Bob", "bob@example.com"))
	f.post = createPost(t, r, newPost(t, f.ann.ID, "Trashed post", domain.StatusPublished, base))
	f.kept = createPost(t, r, newPost(t, f.bob.ID, "Kept post", domain.StatusPublished, at(time.Minute)))
	f.tag = createTag(t, r, "Go", base)
	setTags(t, r, f.post, f.tag)
	setTags(t, r, f.kept, f.tag)
	f.early = createComment(t, r, newComment(f.post.ID(), f.bob.ID, "early", at(time.Second)))
	f.with1 = createComment(t, r, newComment(f.post.ID(), f.bob.ID, "with one", at(2*time.Second)))
	f.with2 = createComment(t, r, newComment(f.post.ID(), f.ann.ID, "with two", at(3*time.Second)))
	return f
}

// inTx runs fn in a transaction of st and fails the test on its error.
func inTx(t *testing.T, st ports.Store, what string, fn func(r ports.Repos) error) {
	t.Helper()
	must(t, what, st.InTx(t.Context(), fn))
}

func testTrashRestorePost(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	f := seedTrash(t, st)
	earlyAt, postAt := at(time.Hour), at(2*time.Hour)
	inTx(t, st, "Trash.TrashComment", func(r ports.Repos) error { return r.Trash.TrashComment(ctx, f.early.ID, earlyAt) })
	inTx(t, st, "Trash.TrashPost", func(r ports.Repos) error { return r.Trash.TrashPost(ctx, f.post.ID(), postAt) })

	// Trashed, the post and its comments are gone from every live read.
	_, err := r.Posts.Get(ctx, f.post.ID())
	checkErr(t, "Posts.Get of a trashed post", err, domain.ErrNotFound)
	_, err = r.PostViews.View(ctx, f.post.ID(), 10)
	checkErr(t, "PostViews.View of a trashed post", err, domain.ErrNotFound)
	for _, c := range []domain.Comment{f.early, f.with1, f.with2} {
		_, err := r.Comments.Get(ctx, c.ID)
		checkErr(t, fmt.Sprintf("Comments.Get(%q) in the trash", c.Body), err, domain.ErrNotFound)
	}
	list, err := listPosts(ctx, r, ports.PostFilter{Viewer: f.ann.ID}, ports.Page{})
	if checkErr(t, "PostViews.ListViews", err, nil) {
		checkPosts(t, "PostViews.ListViews with a post in the trash", list, []domain.Post{f.kept})
	}
	checkCounts(t, r, "a post in the trash", f.ann.ID, f.bob.ID, 1)
	byPost, err := r.Tags.OfPosts(ctx, []int64{f.post.ID()})
	if checkErr(t, "Tags.OfPosts", err, nil) && len(byPost) != 0 {
		t.Errorf("Tags.OfPosts of a trashed post: got %v, want none", byPost)
	}

	got, err := r.Trash.Post(ctx, f.post.ID())
	if checkErr(t, "Trash.Post", err, nil) {
		check(t, "Trash.Post's post", got.Post.State(), f.post.State())
		check(t, "Trash.Post's tags", got.TagIDs, []int64{f.tag.ID})
		check(t, "Trash.Post's stamp", got.DeletedAt, postAt)
	}
	for _, tc := range []struct {
		c  domain.Comment
		at time.Time
	}{{f.early, earlyAt}, {f.with1, postAt}, {f.with2, postAt}} {
		got, err := r.Trash.Comment(ctx, tc.c.ID)
		if checkErr(t, fmt.Sprintf("Trash.Comment(%q)", tc.c.Body), err, nil) {
			check(t, fmt.Sprintf("Trash.Comment(%q)", tc.c.Body), got, ports.TrashedComment{Comment: tc.c, DeletedAt: tc.at})
		}
	}
	_, err = r.Trash.Post(ctx, f.kept.ID())
	checkErr(t, "Trash.Post of a live post", err, domain.ErrNotFound)
	err = st.InTx(ctx, func(r ports.Repos) error { return r.Trash.TrashPost(ctx, f.post.ID(), postAt) })
	checkErr(t, "Trash.TrashPost of a trashed post", err, domain.ErrNotFound)
	err = st.InTx(ctx, func(r ports.Repos) error { return r.Trash.TrashComment(ctx, f.with1.ID, postAt) })
	checkErr(t, "Trash.TrashComment of a trashed comment", err, domain.ErrNotFound)

	// The slug is free while the post is in the trash; a restore under a
	// taken slug moves nothing.
	taker := createPost(t, r, newPost(t, f.bob.ID, "Trashed post", domain.StatusDraft, at(3*time.Hour)))
	err = st.InTx(ctx, func(r ports.Repos) error { return r.Trash.RestorePost(ctx, f.post.ID(), taker.Slug()) })
	checkErr(t, "Trash.RestorePost under a taken slug", err, domain.ErrSlugTaken)
	_, err = r.Trash.Post(ctx, f.post.ID())
	checkErr(t, "Trash.Post after a refused restore", err, nil)

	restored := f.post.WithSlugSuffix(2)
	inTx(t, st, "Trash.RestorePost", func(r ports.Repos) error {
		return r.Trash.RestorePost(ctx, f.post.ID(), restored.Slug())
	})
	back, err := r.Posts.Get(ctx, f.post.ID())
	if checkErr(t, "Posts.Get of a restored post", err, nil) {
		check(t, "Posts.Get of a restored post", back.State(), restored.State())
	}
	tags, err := r.Tags.OfPosts(ctx, []int64{f.post.ID()})
	if checkErr(t, "Tags.OfPosts of a restored post", err, nil) {
		check(t, "the tags of a restored post", tagNames(tags[f.post.ID()]), []string{"Go"})
	}
	views, n, err := r.Comments.ListByPost(ctx, f.post.ID(), ports.Page{})
	if checkErr(t, "Comments.ListByPost of a restored post", err, nil) {
		check(t, "the comments of a restored post", commentsOf(views), []domain.Comment{f.with1, f.with2})
		check(t, "the comment total of a restored post", n, 2)
	}
	got, err = r.Trash.Post(ctx, f.post.ID())
	checkErr(t, "Trash.Post of a restored post", err, domain.ErrNotFound)
	early, err := r.Trash.Comment(ctx, f.early.ID)
	if checkErr(t, "Trash.Comment of the comment trashed before its post", err, nil) {
		check(t, "the stamp of the comment trashed before its post", early.DeletedAt, earlyAt)
	}
	checkCounts(t, r, "a restored post", f.ann.ID, f.bob.ID, 2)
	err = st.InTx(ctx, func(r ports.Repos) error { return r.Trash.RestorePost(ctx, f.post.ID(), restored.Slug()) })
	checkErr(t, "Trash.RestorePost of a live post", err, domain.ErrNotFound)
}

func testTrashRestoreComment(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	f := seedTrash(t, st)
	inTx(t, st, "Trash.TrashComment", func(r ports.Repos) error { return r.Trash.TrashComment(ctx, f.with1.ID, at(time.Hour)) })
	views, n, err := r.Comments.ListByPost(ctx, f.post.ID(), ports.Page{})
	if checkErr(t, "Comments.ListByPost", err, nil) {
		check(t, "the comments beside a trashed one", commentsOf(views), []domain.Comment{f.early, f.with2})
		check(t, "the comment total beside a trashed one", n, 2)
	}
	inTx(t, st, "Trash.RestoreComment", func(r ports.Repos) error { return r.Trash.RestoreComment(ctx, f.with1.ID) })
	got, err := r.Comments.Get(ctx, f.with1.ID)
	if checkErr(t, "Comments.Get of a restored comment", err, nil) {
		check(t, "Comments.Get of a restored comment", got, f.with1)
	}
	err = st.InTx(ctx, func(r ports.Repos) error { return r.Trash.RestoreComment(ctx, f.with1.ID) })
	checkErr(t, "Trash.RestoreComment of a live comment", err, domain.ErrNotFound)

	// A comment whose post is in the trash has nowhere to go back to.
	inTx(t, st, "Trash.TrashComment", func(r ports.Repos) error { return r.Trash.TrashComment(ctx, f.early.ID, at(time.Hour)) })
	inTx(t, st, "Trash.TrashPost", func(r ports.Repos) error { return r.Trash.TrashPost(ctx, f.post.ID(), at(2*time.Hour)) })
	err = st.InTx(ctx, func(r ports.Repos) error { return r.Trash.RestoreComment(ctx, f.early.ID) })
	checkErr(t, "Trash.RestoreComment on a trashed post", err, domain.ErrNotFound)
	_, err = r.Trash.Comment(ctx, f.early.ID)
	checkErr(t, "Trash.Comment after a refused restore", err, nil)
}

func testTrashPurge(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	f := seedTrash(t, st)
	other := createComment(t, r, newComment(f.kept.ID(), f.ann.ID, "on Bob's", at(4*time.Second)))
	inTx(t, st, "Trash.TrashComment", func(r ports.Repos) error { return r.Trash.TrashComment(ctx, f.early.ID, at(time.Hour)) })
	inTx(t, st, "Trash.TrashComment", func(r ports.Repos) error { return r.Trash.TrashComment(ctx, other.ID, at(time.Hour)) })
	inTx(t, st, "Trash.TrashPost", func(r ports.Repos) error { return r.Trash.TrashPost(ctx, f.post.ID(), at(2*time.Hour)) })

	inTx(t, st, "Trash.PurgePost", func(r ports.Repos) error { return r.Trash.PurgePost(ctx, f.post.ID()) })
	_, err := r.Trash.Post(ctx, f.post.ID())
	checkErr(t, "Trash.Post of a purged post", err, domain.ErrNotFound)
	for _, c := range []domain.Comment{f.early, f.with1, f.with2} {
		_, err := r.Trash.Comment(ctx, c.ID)
		checkErr(t, fmt.Sprintf("Trash.Comment(%q) of a purged post", c.Body), err, domain.ErrNotFound)
	}
	err = st.InTx(ctx, func(r ports.Repos) error { return r.Trash.PurgePost(ctx, f.post.ID()) })
	checkErr(t, "Trash.PurgePost again", err, domain.ErrNotFound)
	err = st.InTx(ctx, func(r ports.Repos) error { return r.Trash.PurgePost(ctx, f.kept.ID()) })
	checkErr(t, "Trash.PurgePost of a live post", err, domain.ErrNotFound)

	inTx(t, st, "Trash.PurgeComment", func(r ports.Repos) error { return r.Trash.PurgeComment(ctx, other.ID) })
	err = st.InTx(ctx, func(r ports.Repos) error { return r.Trash.PurgeComment(ctx, other.ID) })
	checkErr(t, "Trash.PurgeComment again", err, domain.ErrNotFound)

	// A live post's purge takes the comments trashed from it before.
	c := createComment(t, r, newComment(f.kept.ID(), f.bob.ID, "gone first", at(5*time.Second)))
	inTx(t, st, "Trash.TrashComment", func(r ports.Repos) error { return r.Trash.TrashComment(ctx, c.ID, at(time.Hour)) })
	var n int64
	inTx(t, st, "Trash.PurgeCommentsOf", func(r ports.Repos) error {
		var err error
		n, err = r.Trash.PurgeCommentsOf(ctx, f.kept.ID())
		return err
	})
	check(t, "Trash.PurgeCommentsOf's count", n, int64(1))
	_, err = r.Trash.Comment(ctx, c.ID)
	checkErr(t, "Trash.Comment after PurgeCommentsOf", err, domain.ErrNotFound)
	if _, err := r.Posts.Get(ctx, f.kept.ID()); err != nil {
		t.Errorf("Posts.Get of the live post after PurgeCommentsOf: %v", err)
	}
}

func testTrashLists(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	f := seedTrash(t, st)
	draft := createPost(t, r, newPost(t, f.ann.ID, "Ann's draft", domain.StatusDraft, at(time.Minute)))
	inTx(t, st, "trash", func(r ports.Repos) error {
		for _, step := range []error{
			r.Trash.TrashComment(ctx, f.early.ID, at(time.Hour)),
			r.Trash.TrashPost(ctx, f.post.ID(), at(2*time.Hour)),
			r.Trash.TrashPost(ctx, f.kept.ID(), at(2*time.Hour)),
			r.Trash.TrashPost(ctx, draft.ID(), at(3*time.Hour)),
		} {
			if step != nil {
				return step
			}
		}
		return nil
	})
	ids := func(ps []ports.TrashedPost) []int64 {
		out := []int64{}
		for _, p := range ps {
			out = append(out, p.Post.ID())
		}
		return out
	}
	for _, tc := range []struct {
		author int64
		page   ports.Page
		want   []int64
		total  int
	}{
		{0, ports.Page{}, []int64{draft.ID(), f.kept.ID(), f.post.ID()}, 3},
		{0, ports.Page{Offset: 1, Limit: 1}, []int64{f.kept.ID()}, 3},
		{f.ann.ID, ports.Page{}, []int64{draft.ID(), f.post.ID()}, 2},
		{f.bob.ID, ports.Page{Limit: 5}, []int64{f.kept.ID()}, 1},
		{missingID, ports.Page{}, []int64{}, 0},
	} {
		got, n, err := r.Trash.Posts(ctx, tc.author, tc.page)
		what := fmt.Sprintf("Trash.Posts(%d, %+v)", tc.author, tc.page)
		if checkErr(t, what, err, nil) {
			check(t, what, ids(got), tc.want)
			check(t, what+" total", n, tc.total)
		}
	}
	cids := func(cs []ports.TrashedComment) []int64 {
		out := []int64{}
		for _, c := range cs {
			out = append(out, c.Comment.ID)
		}
		return out
	}
	for _, tc := range []struct {
		author int64
		want   []int64
	}{
		{0, []int64{f.with2.ID, f.with1.ID, f.early.ID}},
		{f.bob.ID, []int64{f.with1.ID, f.early.ID}},
		{f.ann.ID, []int64{f.with2.ID}},
	} {
		got, n, err := r.Trash.Comments(ctx, tc.author, ports.Page{})
		what := fmt.Sprintf("Trash.Comments(%d)", tc.author)
		if checkErr(t, what, err, nil) {
			check(t, what, cids(got), tc.want)
			check(t, what+" total", n, len(tc.want))
		}
	}
}

func testTrashExpired(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	f := seedTrash(t, st)
	inTx(t, st, "trash", func(r ports.Repos) error {
		if err := r.Trash.TrashComment(ctx, f.early.ID, at(time.Hour)); err != nil {
			return err
		}
		if err := r.Trash.TrashPost(ctx, f.kept.ID(), at(2*time.Hour)); err != nil {
			return err
		}
		return r.Trash.TrashPost(ctx, f.post.ID(), at(3*time.Hour))
	})
	for _, tc := range []struct {
		cutoff time.Time
		limit  int
		posts  []int64
		n      int
	}{
		{at(time.Hour), 10, nil, 1},
		{at(2 * time.Hour), 10, []int64{f.kept.ID()}, 1},
		{at(3 * time.Hour), 10, []int64{f.kept.ID(), f.post.ID()}, 3},
		{at(3 * time.Hour), 1, []int64{f.kept.ID()}, 1},
	} {
		posts, err := r.Trash.ExpiredPosts(ctx, tc.cutoff, tc.limit)
		what := fmt.Sprintf("Trash.ExpiredPosts(%v, %d)", tc.cutoff, tc.limit)
		if checkErr(t, what, err, nil) {
			var got []int64
			for _, p := range posts {
				got = append(got, p.Post.ID())
			}
			check(t, what, got, tc.posts)
		}
		comments, err := r.Trash.ExpiredComments(ctx, tc.cutoff, tc.limit)
		what = fmt.Sprintf("Trash.ExpiredComments(%v, %d)", tc.cutoff, tc.limit)
		if checkErr(t, what, err, nil) {
			check(t, what+" count", len(comments), tc.n)
			if len(comments) > 0 {
				check(t, what+" first", comments[0].Comment.ID, f.early.ID)
			}
		}
	}
}

func testTrashPurgeAuthor(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	f := seedTrash(t, st)
	withImage := newPost(t, f.ann.ID, "Pictured", domain.StatusPublished, at(time.Minute))
	withImage.SetImage("posts/pictured.png", at(time.Minute))
	withImage = createPost(t, r, withImage)
	live := createComment(t, r, newComment(f.kept.ID(), f.ann.ID, "Ann on Bob's", at(time.Second)))
	onBobs := createComment(t, r, newComment(f.kept.ID(), f.bob.ID, "Bob on his", at(2*time.Second)))
	inTx(t, st, "trash", func(r ports.Repos) error {
		for _, step := range []error{
			r.Trash.TrashComment(ctx, f.early.ID, at(time.Hour)),
			r.Trash.TrashComment(ctx, onBobs.ID, at(time.Hour)),
			r.Trash.TrashPost(ctx, withImage.ID(), at(2*time.Hour)),
		} {
			if step != nil {
				return step
			}
		}
		return nil
	})
	var paths []string
	inTx(t, st, "Trash.PurgeAuthor and Users.Delete", func(r ports.Repos) error {
		var err error
		if paths, err = r.Trash.PurgeAuthor(ctx, f.ann.ID); err != nil {
			return err
		}
		return r.Users.Delete(ctx, f.ann.ID)
	})
	check(t, "Trash.PurgeAuthor's image paths", paths, []string{"posts/pictured.png"})
	posts, n, err := r.Trash.Posts(ctx, 0, ports.Page{})
	if checkErr(t, "Trash.Posts after the account went", err, nil) && n != 0 {
		t.Errorf("Trash.Posts after the account went: got %d posts, want none", len(posts))
	}
	comments, _, err := r.Trash.Comments(ctx, 0, ports.Page{})
	if checkErr(t, "Trash.Comments after the account went", err, nil) {
		var got []int64
		for _, c := range comments {
			got = append(got, c.Comment.ID)
		}
		// The comment trashed from Ann's post goes; Bob's on his own stays.
		check(t, "Trash.Comments after the account went", got, []int64{onBobs.ID})
	}
	_, err = r.Comments.Get(ctx, live.ID)
	checkErr(t, "Comments.Get of the account's live comment", err, domain.ErrNotFound)
}

func testTrashRollback(t *testing.T, st ports.Store) {
	ctx := t.Context()
	r := st.Repos()
	f := seedTrash(t, st)
	errStop := fmt.Errorf("stop")
	err := st.InTx(ctx, func(r ports.Repos) error {
		if err := r.Trash.TrashPost(ctx, f.post.ID(), at(time.Hour)); err != nil {
			return err
		}
		return errStop
	})
	checkErr(t, "InTx that trashes and fails", err, errStop)
	if _, err := r.Posts.Get(ctx, f.post.ID()); err != nil {
		t.Errorf("Posts.Get after a rolled back trash: %v", err)
	}
	_, err = r.Trash.Post(ctx, f.post.ID())
	checkErr(t, "Trash.Post after a rolled back trash", err, domain.ErrNotFound)
	views, _, err := r.Comments.ListByPost(ctx, f.post.ID(), ports.Page{})
	if checkErr(t, "Comments.ListByPost", err, nil) {
		check(t, "the comments after a rolled back trash", len(views), 3)
	}
	checkCounts(t, r, "a rolled back trash", f.ann.ID, f.bob.ID, 2)
}
