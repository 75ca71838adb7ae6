package ports

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// Image is an uploaded image: its bytes, and the extension its header gives
// (domain.DecodeImageHeader: ".jpg", ".png", ".gif", ".webp"). The use
// cases check it with domain.CheckImage, so a transport passes on what it
// received; one that checks it too does so only to report every field at
// once.
type Image struct {
	Data []byte
	Ext  string
}

// PostInput is a validated new post. TagIDs may be empty.
type PostInput struct {
	Title  string
	Body   string
	Status domain.PostStatus
	TagIDs []int64
	Image  *Image
}

// PostPatch is a validated partial update of a post. Image set with a nil
// value removes the image; Tags is only offered by version 2.
type PostPatch struct {
	Title  Optional[string]
	Body   Optional[string]
	Status Optional[domain.PostStatus]
	TagIDs Optional[[]int64]
	Image  Optional[*Image]
}

// PostView is a post with what its representations show: the author, the
// tags and, on the single read, the first comments with their authors.
type PostView struct {
	Post     domain.Post
	Author   domain.Author
	Tags     []domain.Tag
	Comments []CommentView
	// DeletedAt is when the post went to the trash; nil for a live post.
	DeletedAt *time.Time
}

// CommentView is a comment with its author.
type CommentView struct {
	Comment domain.Comment
	Author  domain.Author
}

// ShowComments is how many comments Posts.Show carries with a post;
// Comments.List pages through the rest.
const ShowComments = 100

// Posts is the driving port of posts. Every method takes the caller as a
// domain.Actor, the zero Actor for an anonymous caller, whose reads may
// come from a standby that lags the primary by up to the store's limit
// (ports.AllowStaleReads). Every method that reads first returns what
// domain.Actor.CheckPostRead refuses: by default (the zero
// domain.PostReads) nobody and a token holding neither posts:read nor
// posts:write read nothing; an actor whose transport opened reads
// (domain.PostReadsOpen) reads what it may see.
// Every method that writes for an actor (creates, changes or deletes)
// first returns what domain.Actor.CheckAbility refuses for domain.WritePosts
// (domain.ErrUnauthenticated, domain.ErrInvalidAbility), then
// domain.ErrEmailNotVerified when domain.Actor.CheckWrite refuses the
// actor.
type Posts interface {
	// List returns one page of the posts f selects that the actor may see
	// (f.Viewer is set from the actor), newest first, each with its author
	// and tags, and how many match in all. An Invalid error on per_page
	// when the page breaks domain.CheckPageSize, on search when f.Search
	// breaks domain.CheckSearch.
	List(ctx context.Context, actor domain.Actor, f PostFilter, page Page) ([]PostView, int, error)
	// ListAfter returns up to limit posts after cursor (nil: from the start)
	// and the cursor of the next page, nil at the end; f and limit as
	// List's f and page.
	ListAfter(ctx context.Context, actor domain.Actor, f PostFilter, cursor *PostCursor, limit int) ([]PostView, *PostCursor, error)
	// Show returns a post with author, tags and, withComments, its first
	// ShowComments comments. domain.ErrNotFound when it does not exist or
	// the actor may not see it.
	Show(ctx context.Context, actor domain.Actor, id int64, withComments bool) (PostView, error)
	// Create stores a post by the actor. An Invalid error naming each
	// field that breaks domain.NewPost's rules, domain.CheckPostTags or
	// domain.CheckImage (of at most domain.MaxPostImageKilobytes), or each
	// unknown tag (tags.N, exists).
	Create(ctx context.Context, actor domain.Actor, in PostInput) (PostView, error)
	// Update changes what p sets; a status alone publishes or unpublishes
	// the post. domain.ErrNotFound, domain.ErrForbidden for anybody but
	// the author (domain.Post.CanEdit), or an actor claiming admin rights
	// it does not hold now; an Invalid error for tags or an image that
	// break Create's rules, a title or body the post refuses, a status it
	// can't move to, or an unknown tag; domain.ErrPreconditionFailed when
	// pre does not allow the version found. A change by admin right is
	// audited as post.update, or post.publish or post.unpublish for a
	// status alone.
	Update(ctx context.Context, actor domain.Acting, id int64, p PostPatch, pre Precondition) (PostView, error)
	// Delete moves the post with its comments to the trash and its image
	// out of what is served. domain.ErrNotFound, domain.ErrForbidden for
	// anybody but the author or an admin by admin right, as Update's;
	// domain.ErrPreconditionFailed when pre does not allow the version
	// found. Audited as post.delete by admin right.
	Delete(ctx context.Context, actor domain.Acting, id int64, pre Precondition) error
	// Purge deletes the actor's post, live or in the trash, with its
	// comments and its image, for good. Delete's errors; a trashed post of
	// anybody else is not found.
	Purge(ctx context.Context, actor domain.Actor, id int64, pre Precondition) error
	// Restore brings the actor's trashed post back with its id, its tags
	// that still exist and the comments trashed with it, and returns it as
	// Show does with its comments. domain.ErrNotFound when the actor has no
	// such post in the trash.
	Restore(ctx context.Context, actor domain.Actor, id int64) (PostView, error)
	// Trashed returns one page of the actor's trashed posts, most recently
	// trashed first, each with DeletedAt set, and how many there are.
	// domain.ErrUnauthenticated for an anonymous actor; an Invalid error
	// on per_page as List's.
	Trashed(ctx context.Context, actor domain.Actor, page Page) ([]PostView, int, error)
	// ListWithTrashed is List with the actor's own trashed posts that f
	// matches merged in, in the same newest-first order and counted in the
	// total (Laravel's withTrashed). It reads the first page.Offset +
	// page.Limit posts of the live list, so a page deeper than
	// MaxWithTrashedReach is an Invalid error on page.
	// domain.ErrUnauthenticated for an anonymous actor.
	ListWithTrashed(ctx context.Context, actor domain.Actor, f PostFilter, page Page) ([]PostView, int, error)
}

// MaxWithTrashedReach bounds how deep Posts.ListWithTrashed pages: the
// last post a page of it shows is at most this far into the list.
const MaxWithTrashedReach = 1000

// Comments is the driving port of comments. Comments on a draft exist only
// for the draft's author: anybody else gets domain.ErrNotFound.
// Every method that writes for an actor (creates, changes or deletes)
// first returns what domain.Actor.CheckAbility refuses for domain.WriteComments
// (domain.ErrUnauthenticated, domain.ErrInvalidAbility), then
// domain.ErrEmailNotVerified when domain.Actor.CheckWrite refuses the
// actor.
type Comments interface {
	// List returns one page of a post's comments, oldest first, and the
	// total. An Invalid error on per_page when the page breaks
	// domain.CheckPageSize.
	List(ctx context.Context, actor domain.Actor, postID int64, page Page) ([]CommentView, int, error)
	// Create adds a comment by the actor. domain.ErrNotFound; an Invalid
	// error when the body breaks domain.CheckCommentBody.
	Create(ctx context.Context, actor domain.Actor, postID int64, body string) (CommentView, error)
	// Get returns one comment. domain.ErrNotFound.
	Get(ctx context.Context, actor domain.Actor, id int64) (CommentView, error)
	// Update changes the body. domain.ErrNotFound, domain.ErrForbidden for
	// anybody but the comment's author; an Invalid error when the body
	// breaks domain.CheckCommentBody; domain.ErrPreconditionFailed when pre does not allow the version found.
	Update(ctx context.Context, actor domain.Actor, id int64, body string, pre Precondition) (CommentView, error)
	// Delete moves the comment alone to the trash. domain.ErrNotFound,
	// domain.ErrForbidden for anybody but the comment's or the post's
	// author or an admin by admin right (domain.Comment.CanDelete), and
	// for an actor claiming admin rights it does not hold now;
	// domain.ErrPreconditionFailed when pre does not allow the version
	// found. Audited as comment.delete by admin right.
	Delete(ctx context.Context, actor domain.Acting, id int64, pre Precondition) error
	// Purge deletes the comment, live or in the trash, for good. Delete's
	// errors; a trashed comment that the actor could not have deleted is
	// not found.
	Purge(ctx context.Context, actor domain.Actor, id int64, pre Precondition) error
	// Restore brings a trashed comment back on its live post and returns
	// it as Get does. domain.ErrNotFound unless the actor could have
	// deleted it (its author or the post's) and its post is live.
	Restore(ctx context.Context, actor domain.Actor, id int64) (CommentView, error)
}

// Tags is the driving port of tags.
type Tags interface {
	// List returns every tag ordered by name. The zero actor is an
	// anonymous caller, whose read may be a little stale.
	List(ctx context.Context, actor domain.Actor) ([]domain.Tag, error)
	// Create stores a tag. First what domain.Actor.CheckAbility refuses
	// for domain.WriteTags; domain.ErrTagTaken when the name is in use; an
	// Invalid error when it breaks domain.CheckTagName;
	// domain.ErrEmailNotVerified when the actor may not write yet.
	Create(ctx context.Context, actor domain.Actor, name string) (domain.Tag, error)
	// Rename, Merge and Delete change tags for an admin, for every
	// transport alike; each returns domain.ErrEmailNotVerified, after the
	// rights, when the actor may not write yet.
	//
	// Counted returns a page of tags with their post counts, for an admin.
	// First what domain.Actor.CheckManageTags refuses (of the account as
	// stored now); an Invalid error on "q" for a search domain.CheckSearch
	// refuses, on "sort" for a field outside TagFields.
	Counted(ctx context.Context, c AdminCaller, q TagQuery) ([]TagCount, int, error)
	// Rename gives tag id a new name and returns it, audited as
	// domain.AuditTagRename. First what domain.Actor.CheckManageTags
	// refuses; an Invalid error when the name breaks domain.CheckTagName;
	// domain.ErrNotFound when there is no such tag; domain.ErrTagTaken when
	// another tag holds the name (Merge joins two tags).
	Rename(ctx context.Context, c AdminCaller, id int64, name string) (domain.Tag, error)
	// Merge moves every post of tag from to the tag named into, deletes
	// from and returns into, in one transaction audited as
	// domain.AuditTagMerge. First what domain.Actor.CheckManageTags refuses;
	// domain.ErrNotFound when from is missing; an Invalid error on "into"
	// (RuleExists) when no other tag has that name.
	Merge(ctx context.Context, c AdminCaller, from int64, into string) (domain.Tag, error)
	// Delete removes tag id from every post and deletes it, audited as
	// domain.AuditTagDelete. First what domain.Actor.CheckManageTags
	// refuses; domain.ErrNotFound when there is no such tag.
	Delete(ctx context.Context, c AdminCaller, id int64) error
}
