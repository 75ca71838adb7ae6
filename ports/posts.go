package ports

import (
	"cmp"
	"context"
	"strings"

	"github.com/inkwell/inkwell/domain"
)

// PostFilter narrows a list of posts.
type PostFilter struct {
	// Viewer is the user asking (0: anonymous). Published posts are listed
	// for everybody, drafts only for their author.
	Viewer int64
	// Search keeps posts whose title contains it, ignoring case as
	// strings.ToLower does (Unicode letters included), with % and _ taken
	// literally.
	Search string
	// Status keeps posts with that status; "" keeps all.
	Status domain.PostStatus
	// AuthorID keeps one author's posts; 0 keeps all.
	AuthorID int64
	// TagSlug keeps posts carrying the tag with that slug; "" keeps all.
	TagSlug string
}

// PostTally says how the number of posts a filter matches adds up from
// counts of posts by status, which a store may keep up to date as posts are
// written instead of counting rows when asked: the published posts of every
// author when Published, and Author's published posts and drafts when
// AuthorPublished and AuthorDrafts say so. The zero PostTally adds up to no
// post at all.
type PostTally struct {
	Published       bool
	Author          int64
	AuthorPublished bool
	AuthorDrafts    bool
}

// Tally returns how the number of posts f matches adds up from counts of
// posts by status and author, and false when it does not: a search or a tag
// keeps posts for what they hold, which only the posts can tell, and a
// status other than published or draft matches nothing the counts know.
func (f PostFilter) Tally() (PostTally, bool) {
	if f.Search != "" || f.TagSlug != "" {
		return PostTally{}, false
	}
	// Drafts are visible to their author only, so the drafts f can match
	// are the viewer's, and only if the author filter keeps the viewer.
	ownDrafts := f.Viewer != 0 && (f.AuthorID == 0 || f.AuthorID == f.Viewer)
	switch {
	case f.Status == domain.StatusPublished && f.AuthorID == 0:
		return PostTally{Published: true}, true
	case f.Status == domain.StatusPublished:
		return PostTally{Author: f.AuthorID, AuthorPublished: true}, true
	case f.Status == domain.StatusDraft && ownDrafts:
		return PostTally{Author: f.Viewer, AuthorDrafts: true}, true
	case f.Status == domain.StatusDraft:
		return PostTally{}, true
	case f.Status != "":
		return PostTally{}, false
	case f.AuthorID != 0:
		return PostTally{Author: f.AuthorID, AuthorPublished: true, AuthorDrafts: ownDrafts}, true
	case ownDrafts:
		return PostTally{Published: true, Author: f.Viewer, AuthorDrafts: true}, true
	default:
		return PostTally{Published: true}, true
	}
}

// Counted reports whether t needs any count; when it does not, the filter
// matches no post.
func (t PostTally) Counted() bool {
	return t.Published || t.AuthorPublished || t.AuthorDrafts
}

// Sum adds up the counts t names out of the number of published posts and
// the numbers of t.Author's published posts and drafts.
func (t PostTally) Sum(published, authorPublished, authorDrafts int64) int64 {
	var n int64
	if t.Published {
		n += published
	}
	if t.AuthorPublished {
		n += authorPublished
	}
	if t.AuthorDrafts {
		n += authorDrafts
	}
	return n
}

// PostCursor is a position in the newest-first order of posts: the
// (created_at, id) of the last post seen.
type PostCursor struct {
	CreatedAt int64 // microseconds since the Unix epoch
	ID        int64
}

// PostRepository keeps posts and their tag links.
type PostRepository interface {
	// Create stores p and sets its ID. domain.ErrSlugTaken when another post
	// has p's slug; domain.ErrNotFound when the author does not exist.
	Create(ctx context.Context, p *domain.Post) error
	// CreateTagged stores p with the tags tagIDs (each once) as one atomic
	// step, sets its ID and returns those tags in TagOrder (never nil); a
	// store may take the step in one statement. domain.ErrSlugTaken as
	// Create; domain.ErrNotFound when the author or one of the tags does not
	// exist, and then nothing is stored.
	CreateTagged(ctx context.Context, p *domain.Post, tagIDs []int64) ([]domain.Tag, error)
	// Get returns domain.ErrNotFound when there is no such post.
	Get(ctx context.Context, id int64) (domain.Post, error)
	// View returns what the single read of a post shows: the post with its
	// author and its tags (in TagOrder, never nil) and, when comments is
	// above zero, its first comments as ListByPost returns them, at most
	// that many (none: nil). The parts depend on the id alone, so a store
	// may read them in one round trip. domain.ErrNotFound when there is no
	// such post.
	View(ctx context.Context, id int64, comments int) (PostView, error)
	// Lock reads the post and holds it until the transaction ends.
	// domain.ErrNotFound when there is no such post.
	Lock(ctx context.Context, id int64) (domain.Post, error)
	// Update writes every field but ID, author, slug and CreatedAt.
	// domain.ErrNotFound.
	Update(ctx context.Context, p domain.Post) error
	// Delete removes the post with its comments and tag links.
	// domain.ErrNotFound.
	Delete(ctx context.Context, id int64) error
	// LastSlugSuffix returns the largest n such that a post has the slug
	// "base-n", 1 when only "base" itself is taken, and 0 when neither is.
	// Inside a transaction it also holds base until the transaction ends,
	// so that concurrent creators of one slug take their suffixes in turn
	// instead of colliding.
	LastSlugSuffix(ctx context.Context, base string) (int, error)
	// List returns one page of the matching posts, newest first (created_at,
	// then id, descending), in a fixed number of queries.
	List(ctx context.Context, f PostFilter, page Page) ([]domain.Post, error)
	// Count returns how many posts match f. Wherever f.Tally allows, a
	// store may answer from counts of posts by status and author that it
	// keeps as posts are written, rather than count rows; those counts must
	// then stay exact through every write, cascade and rollback.
	Count(ctx context.Context, f PostFilter) (int, error)
	// ListAfter returns up to limit matching posts that come after cursor in
	// the newest-first order (from the start when cursor is nil).
	ListAfter(ctx context.Context, f PostFilter, cursor *PostCursor, limit int) ([]domain.Post, error)
	// ListViews returns what the list routes show of a page: the posts List
	// returns, each with its author and its tags (in TagOrder, never nil),
	// and how many posts f matches in all, as Count does. It takes a fixed
	// number of round trips, whatever the page's size, and a store may
	// send independent queries together.
	ListViews(ctx context.Context, f PostFilter, page Page) ([]PostView, int, error)
	// ListViewsAfter returns the posts ListAfter returns, each with its
	// author and tags, in a fixed number of round trips.
	ListViewsAfter(ctx context.Context, f PostFilter, cursor *PostCursor, limit int) ([]PostView, error)
	// SetTags replaces the post's tags. domain.ErrNotFound when the post or
	// one of the tags does not exist.
	SetTags(ctx context.Context, postID int64, tagIDs []int64) error
	// ImagePathsByAuthor returns the image paths of the author's posts that
	// have an image, in post id order, and none for an unknown author. The
	// store's cascade removes the posts of a deleted user but not their
	// files, so the caller reads these first and removes the files after.
	ImagePathsByAuthor(ctx context.Context, authorID int64) ([]string, error)
}

// PostViewsOf pairs each post with its author, found among authors, and its
// tags (none: an empty list), as PostRepository.ListViews returns them.
func PostViewsOf(posts []domain.Post, authors []domain.User, tags map[int64][]domain.Tag) []PostView {
	byID := make(map[int64]domain.User, len(authors))
	for _, u := range authors {
		byID[u.ID] = u
	}
	views := make([]PostView, len(posts))
	for i, p := range posts {
		views[i] = PostView{Post: p, Author: byID[p.AuthorID()], Tags: tags[p.ID()]}
		if views[i].Tags == nil {
			views[i].Tags = []domain.Tag{}
		}
	}
	return views
}

// TagOrder is the order of a post's tags: by name, compared code point by
// code point (byte by byte in UTF-8, as PostgreSQL's "C" collation and
// SQLite's BINARY compare), then by id.
func TagOrder(a, b domain.Tag) int {
	return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
}

// TagRepository keeps tags.
type TagRepository interface {
	// Create stores t and sets its ID; domain.ErrTagTaken when the name is
	// in use, ignoring case.
	Create(ctx context.Context, t *domain.Tag) error
	// List returns every tag ordered by name.
	List(ctx context.Context) ([]domain.Tag, error)
	// ByIDs returns the tags among ids that exist, in id order.
	ByIDs(ctx context.Context, ids []int64) ([]domain.Tag, error)
	// OfPosts returns the tags of each post in TagOrder, in one query.
	// Posts without tags are absent from the map.
	OfPosts(ctx context.Context, postIDs []int64) (map[int64][]domain.Tag, error)
}

// CommentRepository keeps comments.
type CommentRepository interface {
	// Create stores c and sets its ID; domain.ErrNotFound when the post or
	// the user does not exist.
	Create(ctx context.Context, c *domain.Comment) error
	// Get returns domain.ErrNotFound when there is no such comment.
	Get(ctx context.Context, id int64) (domain.Comment, error)
	// Update writes the body and UpdatedAt. domain.ErrNotFound.
	Update(ctx context.Context, c domain.Comment) error
	// Delete returns domain.ErrNotFound when there is no such comment.
	Delete(ctx context.Context, id int64) error
	// ListByPost returns one page of the post's comments, oldest first
	// (created_at, then id), each with its author, read together in one
	// query, and how many comments the post has.
	ListByPost(ctx context.Context, postID int64, page Page) ([]CommentView, int, error)
}
