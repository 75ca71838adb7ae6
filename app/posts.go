package app

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// postImageDir is where post images are kept below the storage root.
const postImageDir = "posts"

// Posts implements ports.Posts.
type Posts struct {
	store ports.Store
	files ports.FileStore
	clock ports.Clock
}

// NewPosts returns the post use cases.
func NewPosts(store ports.Store, files ports.FileStore, clock ports.Clock) *Posts {
	return &Posts{store: store, files: files, clock: clock}
}

var _ ports.Posts = (*Posts)(nil)

// List implements ports.Posts: the page with its authors and tags, and the
// total, which the store reads in a fixed number of round trips.
func (p *Posts) List(ctx context.Context, actor domain.Actor, f ports.PostFilter, page ports.Page) ([]ports.PostView, int, error) {
	if err := actor.CheckPostRead(); err != nil {
		return nil, 0, err
	}
	if err := domain.CheckPageSize(page.Limit); err != nil {
		return nil, 0, err
	}
	if err := checkSearch("search", f.Search); err != nil {
		return nil, 0, err
	}
	f.Viewer = actor.User.ID
	views, total, err := p.store.Repos().PostViews.ListViews(readBy(ctx, f.Viewer), f, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list posts: %w", err)
	}
	return views, total, nil
}

// ListAfter implements ports.Posts. It reads one post more than asked to
// learn whether another page follows.
func (p *Posts) ListAfter(ctx context.Context, actor domain.Actor, f ports.PostFilter, cursor *ports.PostCursor, limit int) ([]ports.PostView, *ports.PostCursor, error) {
	if err := actor.CheckPostRead(); err != nil {
		return nil, nil, err
	}
	if err := domain.CheckPageSize(limit); err != nil {
		return nil, nil, err
	}
	if err := checkSearch("search", f.Search); err != nil {
		return nil, nil, err
	}
	f.Viewer = actor.User.ID
	views, err := p.store.Repos().PostViews.ListViewsAfter(readBy(ctx, f.Viewer), f, cursor, limit+1)
	if err != nil {
		return nil, nil, fmt.Errorf("list posts: %w", err)
	}
	var next *ports.PostCursor
	if len(views) > limit {
		views = views[:limit]
		last := views[limit-1].Post
		next = &ports.PostCursor{CreatedAt: last.CreatedAt().UnixMicro(), ID: last.ID()}
	}
	return views, next, nil
}

// Show implements ports.Posts with PostViews.View, which reads the post, its
// author, its tags and its comments together. A draft the viewer may not see
// is read to no purpose, but it is not found all the same; drafts of others
// are rarely asked for.
func (p *Posts) Show(ctx context.Context, actor domain.Actor, id int64, withComments bool) (ports.PostView, error) {
	if err := actor.CheckPostRead(); err != nil {
		return ports.PostView{}, err
	}
	viewer := actor.User.ID
	comments := 0
	if withComments {
		comments = ports.ShowComments
	}
	view, err := p.store.Repos().PostViews.View(readBy(ctx, viewer), id, comments)
	if err == nil && !view.Post.VisibleTo(viewer) {
		err = domain.ErrNotFound
	}
	if err != nil {
		return ports.PostView{}, fmt.Errorf("show post %d: %w", id, err)
	}
	return view, nil
}

// createAttempts bounds the attempts one Create makes: the first with the
// title's own slug, and the others, after another post turned out to hold
// that slug, with a suffix.
const createAttempts = 3

// Create implements ports.Posts. The image is written before the post is
// stored and removed again if storing fails, so that no stored post points
// at a missing file. The representation needs no read after the commit: the
// author is the actor, and the tags are those the store checked and linked.
//
// The post and its event are stored in one transaction. Most titles are
// new, so the first attempt simply stores the post with its tags under the
// title's slug (CreateTagged, one atomic step that a store may take in one
// statement) and lets the unique slug refuse it if another post has it;
// only then does a transaction take the slug in turn with LastSlugSuffix
// and add a suffix. The suffixed path can still collide, with a first
// attempt that stores the plain slug meanwhile or with a title whose own
// slug looks suffixed ("Hello 2" and a second "Hello"), so it is tried
// again, a bounded number of times. A tag that does not exist stores
// nothing; which ones are missing is then read to tell the caller.
func (p *Posts) Create(ctx context.Context, actor domain.Actor, in ports.PostInput) (ports.PostView, error) {
	if err := checkPostWriter(domain.ByOwnRight(actor)); err != nil {
		return ports.PostView{}, err
	}
	now := p.clock.Now()
	post, err := domain.NewPost(actor.User.ID, in.Title, in.Body, in.Status, now)
	var vs domain.Violations
	if de, ok := domain.AsError(err); ok && de.Kind == domain.Invalid {
		vs = append(vs, de.Fields...)
	} else if err != nil {
		return ports.PostView{}, err
	}
	vs.Add("tags", domain.CheckPostTags(in.TagIDs))
	vs.Add("image", checkUpload(in.Image, domain.MaxPostImageKilobytes))
	if err := vs.Err(); err != nil {
		return ports.PostView{}, err
	}
	image, err := p.saveImage(ctx, in.Image)
	if err != nil {
		return ports.PostView{}, fmt.Errorf("create post: %w", err)
	}
	post.SetImage(image, now)
	var created domain.Post
	var tags []domain.Tag
	for attempt := 1; ; attempt++ {
		err = p.store.InTx(ctx, func(r ports.Repos) error {
			created = post
			if attempt > 1 {
				// LastSlugSuffix holds the title's slug until the
				// transaction ends, so concurrent posts of one title take
				// distinct suffixes in turn.
				n, err := r.Posts.LastSlugSuffix(ctx, post.Slug())
				if err != nil {
					return err
				}
				if n > 0 {
					created = post.WithSlugSuffix(n + 1)
				}
			}
			var err error
			if tags, err = r.Posts.CreateTagged(ctx, &created, in.TagIDs); err != nil {
				return err
			}
			return record(ctx, r, domain.NewPostEvent(domain.PostCreated, created, actor.User, tags, now))
		})
		if !errors.Is(err, domain.ErrSlugTaken) || attempt == createAttempts {
			break
		}
	}
	if errors.Is(err, domain.ErrNotFound) && len(in.TagIDs) > 0 {
		// The author is the actor; what was missing is a tag.
		if _, invalid := checkTags(ctx, p.store.Repos(), in.TagIDs); invalid != nil {
			err = invalid
		}
	}
	if err != nil {
		p.removeFile(ctx, image)
		return ports.PostView{}, fmt.Errorf("create post: %w", err)
	}
	return ports.PostView{Post: created, Author: actor.User.Author(), Tags: tags}, nil
}

// Update implements ports.Posts. The author may update a post, and an
// admin by admin right, whose change is audited (updateAction); the
// representation's tags are those the transaction linked, or read again
// when the patch leaves them.
func (p *Posts) Update(ctx context.Context, actor domain.Acting, id int64, patch ports.PostPatch, pre ports.Precondition) (ports.PostView, error) {
	if err := checkPostWriter(actor); err != nil {
		return ports.PostView{}, err
	}
	var vs domain.Violations
	if patch.TagIDs.Set {
		vs.Add("tags", domain.CheckPostTags(patch.TagIDs.Value))
	}
	if patch.Image.Set {
		vs.Add("image", checkUpload(patch.Image.Value, domain.MaxPostImageKilobytes))
	}
	if err := vs.Err(); err != nil {
		return ports.PostView{}, err
	}
	var newImage string
	if patch.Image.Set {
		var err error
		if newImage, err = p.saveImage(ctx, patch.Image.Value); err != nil {
			return ports.PostView{}, fmt.Errorf("update post %d: %w", id, err)
		}
	}
	var post domain.Post
	var author domain.User
	var oldImage string
	var tags []domain.Tag
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if post, actor, err = editable(ctx, r, actor, id, pre); err != nil {
			return err
		}
		before := post
		now := p.clock.Now()
		if patch.Title.Set {
			if err := post.Retitle(patch.Title.Value, now); err != nil {
				return err
			}
		}
		if patch.Body.Set {
			if err := post.Rewrite(patch.Body.Value, now); err != nil {
				return err
			}
		}
		if patch.Status.Set {
			if err := post.SetStatus(patch.Status.Value, now); err != nil {
				return err
			}
		}
		if patch.Image.Set {
			oldImage = post.ImagePath()
			post.SetImage(newImage, now)
		}
		if err := r.Posts.Update(ctx, post); err != nil {
			return err
		}
		if !patch.TagIDs.Set {
			tags, err = tagsOf(ctx, r, id)
		} else if tags, err = checkTags(ctx, r, patch.TagIDs.Value); err == nil {
			err = r.Posts.SetTags(ctx, id, patch.TagIDs.Value)
		}
		if err != nil {
			return err
		}
		if author, err = authorOr(ctx, r, post.AuthorID(), actor.User); err != nil {
			return err
		}
		if err := audit(ctx, r, actor, updateAction(patch), domain.SubjectPost, id, now); err != nil {
			return err
		}
		return record(ctx, r, domain.NewPostEvent(domain.PostEventType(before, post), post, author, tags, now))
	})
	if err != nil {
		p.removeFile(ctx, newImage)
		return ports.PostView{}, fmt.Errorf("update post %d: %w", id, err)
	}
	p.removeFile(ctx, oldImage)
	return ports.PostView{Post: post, Author: author.Author(), Tags: tags}, nil
}

// updateAction names an update by admin right in the audit log: a patch
// of the status alone publishes or unpublishes the post, any other an
// update.
func updateAction(patch ports.PostPatch) domain.AuditAction {
	if !patch.Status.Set || patch.Title.Set || patch.Body.Set || patch.TagIDs.Set || patch.Image.Set {
		return domain.AuditPostUpdate
	}
	if patch.Status.Value == domain.StatusPublished {
		return domain.AuditPostPublish
	}
	return domain.AuditPostUnpublish
}

// Delete implements ports.Posts: the post and its comments go to the
// trash, and its image out of what is served, in the transaction: a move
// that fails trashes nothing, and a commit that fails moves the file back.
// A deletion by admin right is audited as post.delete.
func (p *Posts) Delete(ctx context.Context, actor domain.Acting, id int64, pre ports.Precondition) error {
	if err := checkPostWriter(actor); err != nil {
		return err
	}
	var image string
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		post, actor, err := editable(ctx, r, actor, id, pre)
		if err != nil {
			return err
		}
		// The event shows the post as it was, author and tags included.
		author, err := authorOr(ctx, r, post.AuthorID(), actor.User)
		if err != nil {
			return err
		}
		tags, err := tagsOf(ctx, r, id)
		if err != nil {
			return err
		}
		now := p.clock.Now()
		if err := r.Trash.TrashPost(ctx, id, now); err != nil {
			return err
		}
		if err := audit(ctx, r, actor, domain.AuditPostDelete, domain.SubjectPost, id, now); err != nil {
			return err
		}
		if err := record(ctx, r, domain.NewPostEvent(domain.PostTrashed, post, author, tags, now)); err != nil {
			return err
		}
		if image = post.ImagePath(); image != "" {
			return p.files.MoveToTrash(ctx, image)
		}
		return nil
	})
	if err != nil {
		if image != "" {
			_ = p.files.MoveFromTrash(context.WithoutCancel(ctx), image)
		}
		return fmt.Errorf("delete post %d: %w", id, err)
	}
	return nil
}

// checkPostWriter is what every post write checks of its actor first: one
// ability check, whose refusal (domain.ErrUnauthenticated,
// domain.ErrInvalidAbility) is the same whoever calls, then the verified
// address, which by admin right is not asked of the operator
// (domain.Acting.CheckWrite).
func checkPostWriter(actor domain.Acting) error {
	if err := actor.CheckAbility(domain.WritePosts); err != nil {
		return err
	}
	return actor.CheckWrite()
}

// editable locks post id for a change by actor, whose rights it reads
// again first (rightful) and returns as they are now: a post the actor
// can't see is not found, and one the actor can see but not edit is
// forbidden (the caller checked the actor's abilities before). Only then
// is pre checked, so that a refused precondition tells nothing to somebody
// who may not change the post.
func editable(ctx context.Context, r ports.Repos, actor domain.Acting, id int64, pre ports.Precondition) (domain.Post, domain.Acting, error) {
	actor, err := rightful(ctx, r, actor)
	if err != nil {
		return domain.Post{}, domain.Acting{}, err
	}
	post, err := r.Posts.Lock(ctx, id)
	switch {
	case err != nil:
		return domain.Post{}, domain.Acting{}, err
	case !actor.Sees(post):
		return domain.Post{}, domain.Acting{}, domain.ErrNotFound
	case !post.CanEdit(actor):
		return domain.Post{}, domain.Acting{}, domain.ErrForbidden
	case !pre.Allows(post.UpdatedAt()):
		return domain.Post{}, domain.Acting{}, domain.ErrPreconditionFailed
	}
	return post, actor, nil
}

// checkUpload returns the rules an uploaded image of at most maxKB
// kilobytes breaks (domain.CheckImage), none for no image. An image whose
// extension is not the one its header gives is not the image it claims to
// be.
func checkUpload(img *ports.Image, maxKB int) []domain.Rule {
	if img == nil {
		return nil
	}
	h, rules := domain.CheckImage(img.Data, maxKB)
	if rules == nil && img.Ext != h.Ext {
		rules = []domain.Rule{domain.RuleImage, domain.ImageMimes}
	}
	return rules
}

func (p *Posts) saveImage(ctx context.Context, img *ports.Image) (string, error) {
	if img == nil {
		return "", nil
	}
	return p.files.Save(ctx, postImageDir, img.Data, img.Ext)
}

// removeFile deletes a file that no committed row refers to any more. A
// failure leaves an orphaned file, never a dangling reference, so it is not
// the request's failure.
func (p *Posts) removeFile(ctx context.Context, path string) {
	removeFiles(ctx, p.files, path)
}

// checkTags reports every id among ids that names no tag, as Laravel's
// exists rule does (tags.1 breaks "exists"), and otherwise
// returns the distinct tags in the order Tags.OfPosts gives them.
func checkTags(ctx context.Context, r ports.Repos, ids []int64) ([]domain.Tag, error) {
	if len(ids) == 0 {
		return []domain.Tag{}, nil
	}
	found, err := r.Tags.ByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	exists := make(map[int64]bool, len(found))
	for _, t := range found {
		exists[t.ID] = true
	}
	var missing []domain.Violation
	for i, id := range ids {
		if !exists[id] {
			missing = append(missing, domain.Violation{Field: fmt.Sprintf("tags.%d", i), Rule: domain.RuleExists})
		}
	}
	if missing != nil {
		return nil, domain.InvalidFields(missing...)
	}
	slices.SortFunc(found, ports.TagOrder)
	return found, nil
}

// tagsOf reads one post's tags, never nil.
func tagsOf(ctx context.Context, r ports.Repos, postID int64) ([]domain.Tag, error) {
	byPost, err := r.Tags.OfPosts(ctx, []int64{postID})
	if err != nil {
		return nil, err
	}
	if tags := byPost[postID]; tags != nil {
		return tags, nil
	}
	return []domain.Tag{}, nil
}
