package ports

import (
	"cmp"
	"context"
	"strings"

	"github.com/inkwell/inkwell/domain"
)

// PostFilter narrows a list of posts.
type PostFilter struct {
	// Viewer is the user asking (0: anonymous); Posts.List and ListAfter
	// set it from their actor. Published posts are listed for everybody,
	// drafts only for their author.
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

// PostCursor is a position in the newest-first order of posts: the
// (created_at, id) of the last post seen.
type PostCursor struct {
	CreatedAt int64 // microseconds since the Unix epoch
	ID        int64
}

// PostRepository keeps posts and their tag links: what the post use cases
// write, and the reads that come before a write. What the post routes show
// is read through PostViews.
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
	// SetTags replaces the post's tags. domain.ErrNotFound when the post or
	// one of the tags does not exist.
	SetTags(ctx context.Context, postID int64, tagIDs []int64) error
	// ImagePathsByAuthor returns the image paths of the author's posts that
	// have an image, in post id order, and none for an unknown author. The
	// store's cascade removes the posts of a deleted user but not their
	// files, so the caller reads these first and removes the files after.
	ImagePathsByAuthor(ctx context.Context, authorID int64) ([]string, error)
}

// PostViews reads posts as the post routes show them: each with its author
// and its tags, a page at a time or one with its first comments. A store
// may shape these reads as it likes (counters kept as posts are written,
// statements sent together), as long as what they return stays exact
// through every write, cascade and rollback.
type PostViews interface {
	// View returns what the single read of a post shows: the post with its
	// author and its tags (in TagOrder, never nil) and, when comments is
	// above zero, its first comments as CommentRepository.ListByPost
	// returns them, at most that many (none: nil). The parts depend on the
	// id alone, so a store may read them in one round trip.
	// domain.ErrNotFound when there is no such post.
	View(ctx context.Context, id int64, comments int) (PostView, error)
	// ListViews returns one page of the posts f matches, newest first
	// (created_at, then id, descending), each with its author and its tags
	// (in TagOrder, never nil), and how many posts f matches in all. It
	// takes a fixed number of round trips, whatever the page's size.
	ListViews(ctx context.Context, f PostFilter, page Page) ([]PostView, int, error)
	// ListViewsAfter returns up to limit posts f matches that come after
	// cursor in the newest-first order (from the start when cursor is nil),
	// each with its author and tags, in a fixed number of round trips.
	ListViewsAfter(ctx context.Context, f PostFilter, cursor *PostCursor, limit int) ([]PostView, error)
}

// PostViewsOf pairs each post with its author, found among authors, and its
// tags (none: an empty list), as PostViews.ListViews returns them.
func PostViewsOf(posts []domain.Post, authors []domain.Author, tags map[int64][]domain.Tag) []PostView {
	byID := make(map[int64]domain.Author, len(authors))
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
	// Lock reads tag id and holds it until the transaction ends.
	// domain.ErrNotFound when there is no such tag.
	Lock(ctx context.Context, id int64) (domain.Tag, error)
	// ByName returns the tag whose name is name, ignoring case as
	// uniqueness does; domain.ErrNotFound when there is none.
	ByName(ctx context.Context, name string) (domain.Tag, error)
	// Update writes t's name, slug and UpdatedAt. domain.ErrNotFound when
	// there is no such tag, domain.ErrTagTaken when another tag holds the
	// name, ignoring case.
	Update(ctx context.Context, t domain.Tag) error
	// Move puts every post of tag from under tag into instead (a post that
	// has both keeps into once) and says how many posts from had; from is
	// left without posts. A trashed post's tags (TrashedPost.TagIDs) name
	// into instead of from too, so that a restore brings it back under
	// into. domain.ErrNotFound when either tag is missing.
	Move(ctx context.Context, from, into int64) (int64, error)
	// Delete removes tag id, and with it the tag from every post.
	// domain.ErrNotFound when there is no such tag.
	Delete(ctx context.Context, id int64) error
	// Counted returns a page of the tags q selects, each with how many
	// posts carry it (drafts included), and how many tags q selects in
	// all. A field outside TagFields is an error of kind Invalid.
	Counted(ctx context.Context, q TagQuery) ([]TagCount, int, error)
}

// TagFields are the fields a TagQuery may sort by: the name (code point
// order, as List), the number of posts, the creation time. "" is "name".
var TagFields = []string{"name", "posts", "created_at"}

// TagQuery selects a page of tags with their post counts. Search keeps
// tags whose name contains it, ignoring case (strings.ToLower, as
// uniqueness folds names), with % and _ taken literally. Ties, and the
// whole order after Sort, fall to the id ascending (descending with a
// descending Sort).
type TagQuery struct {
	Search string
	Sort   SortKey
	Page   Page
}

// TagCount is a tag and how many posts carry it.
type TagCount struct {
	Tag   domain.Tag
	Posts int
}

// CommentRepository keeps comments.
type CommentRepository interface {
	// Create stores c and sets its ID; domain.ErrNotFound when the post or
	// the user does not exist.
	Create(ctx context.Context, c *domain.Comment) error
	// Get returns domain.ErrNotFound when there is no such comment.
	Get(ctx context.Context, id int64) (domain.Comment, error)
	// Lock reads the comment and holds it until the transaction ends, so
	// that a conditional write checks the version it replaces.
	// domain.ErrNotFound when there is no such comment.
	Lock(ctx context.Context, id int64) (domain.Comment, error)
	// Update writes the body and UpdatedAt. domain.ErrNotFound.
	Update(ctx context.Context, c domain.Comment) error
	// Delete returns domain.ErrNotFound when there is no such comment.
	Delete(ctx context.Context, id int64) error
	// ListByPost returns one page of the post's comments, oldest first
	// (created_at, then id), each with its author, read together in one
	// query, and how many comments the post has.
	ListByPost(ctx context.Context, postID int64, page Page) ([]CommentView, int, error)
}
