package ports

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// TrashedPost is a post in the trash: the post as it was when it was
// trashed, the ids of the tags it carried and when it was trashed.
type TrashedPost struct {
	Post      domain.Post
	TagIDs    []int64
	DeletedAt time.Time
}

// TrashedComment is a comment in the trash and when it was trashed. A
// comment trashed with its post has the post's DeletedAt.
type TrashedComment struct {
	Comment   domain.Comment
	DeletedAt time.Time
}

// TrashRepository keeps what was deleted without being purged: posts and
// comments that no read of the live tables, count, list, search or feed
// sees any more, until they are restored with their ids or purged. Every
// method that reads one record holds it until the transaction ends.
type TrashRepository interface {
	// TrashPost moves the live post with its tag links and its live
	// comments into the trash, every one stamped at. domain.ErrNotFound
	// when no live post has the id.
	TrashPost(ctx context.Context, id int64, at time.Time) error
	// TrashComment moves one live comment into the trash, stamped at.
	// domain.ErrNotFound when no live comment has the id.
	TrashComment(ctx context.Context, id int64, at time.Time) error
	// Post returns a trashed post; domain.ErrNotFound when none has the id.
	Post(ctx context.Context, id int64) (TrashedPost, error)
	// Comment returns a trashed comment; domain.ErrNotFound.
	Comment(ctx context.Context, id int64) (TrashedComment, error)
	// RestorePost moves the trashed post back among the live ones under
	// slug, with its links to those of its tags that still exist and the
	// comments trashed with it (those stamped as the post); comments
	// trashed before stay in the trash. domain.ErrNotFound;
	// domain.ErrSlugTaken when a live post has slug.
	RestorePost(ctx context.Context, id int64, slug string) error
	// SlugTaken reports whether a live post has slug, so that a restore
	// picks another.
	SlugTaken(ctx context.Context, slug string) (bool, error)
	// RestoreComment moves the trashed comment back. domain.ErrNotFound,
	// also when its post is not live.
	RestoreComment(ctx context.Context, id int64) error
	// PurgePost deletes the trashed post and every trashed comment on it.
	// domain.ErrNotFound when no trashed post has the id.
	PurgePost(ctx context.Context, id int64) error
	// PurgeComment deletes one trashed comment. domain.ErrNotFound.
	PurgeComment(ctx context.Context, id int64) error
	// PurgeCommentsOf deletes the trashed comments on post postID, live or
	// not, and says how many went.
	PurgeCommentsOf(ctx context.Context, postID int64) (int64, error)
	// Posts returns one page of the trashed posts of author (0: of every
	// author), most recently trashed first (DeletedAt, then id,
	// descending), and how many there are.
	Posts(ctx context.Context, author int64, page Page) ([]TrashedPost, int, error)
	// Comments returns one page of the trashed comments written by author
	// (0: by anybody), most recently trashed first, and how many there are.
	Comments(ctx context.Context, author int64, page Page) ([]TrashedComment, int, error)
	// PurgeAuthor deletes the author's trashed posts and every trashed
	// comment on the author's posts, live or trashed, and returns the
	// image paths of the posts it deleted (for the caller to delete after
	// the commit); the account's deletion calls it before Users.Delete.
	PurgeAuthor(ctx context.Context, author int64) ([]string, error)
	// ExpiredPosts returns up to limit trashed posts stamped at or before
	// cutoff, oldest stamp first.
	ExpiredPosts(ctx context.Context, cutoff time.Time, limit int) ([]TrashedPost, error)
	// ExpiredComments returns up to limit trashed comments stamped at or
	// before cutoff, oldest stamp first.
	ExpiredComments(ctx context.Context, cutoff time.Time, limit int) ([]TrashedComment, error)
}
