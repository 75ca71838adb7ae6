package ports

import (
	"context"

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
	// List returns one page of the matching posts, newest first (created_at,
	// then id, descending), in a fixed number of queries.
	List(ctx context.Context, f PostFilter, page Page) ([]domain.Post, error)
	// Count returns how many posts match f.
	Count(ctx context.Context, f PostFilter) (int, error)
	// ListAfter returns up to limit matching posts that come after cursor in
	// the newest-first order (from the start when cursor is nil).
	ListAfter(ctx context.Context, f PostFilter, cursor *PostCursor, limit int) ([]domain.Post, error)
	// SetTags replaces the post's tags. domain.ErrNotFound when the post or
	// one of the tags does not exist.
	SetTags(ctx context.Context, postID int64, tagIDs []int64) error
	// ImagePathsByAuthor returns the image paths of the author's posts that
	// have an image, in post id order, and none for an unknown author. The
	// store's cascade removes the posts of a deleted user but not their
	// files, so the caller reads these first and removes the files after.
	ImagePathsByAuthor(ctx context.Context, authorID int64) ([]string, error)
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
	// OfPosts returns the tags of each post, ordered by name, in one query.
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
	// (created_at, then id), and how many the post has.
	ListByPost(ctx context.Context, postID int64, page Page) ([]domain.Comment, int, error)
}

// FileStore keeps uploaded files.
type FileStore interface {
	// Save stores data under a new random name ending in ext (".png") below
	// dir ("posts") and returns its path relative to the storage root.
	Save(ctx context.Context, dir string, data []byte, ext string) (string, error)
	// Delete removes the file at path; a missing file is not an error.
	Delete(ctx context.Context, path string) error
}
