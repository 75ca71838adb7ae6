package app

import (
	"context"
	"fmt"

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

// List implements ports.Posts: the page, the total, and the authors and
// tags of the whole page in two more queries.
func (p *Posts) List(ctx context.Context, f ports.PostFilter, page ports.Page) ([]ports.PostView, int, error) {
	repos := p.store.Repos()
	posts, err := repos.Posts.List(ctx, f, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list posts: %w", err)
	}
	total, err := repos.Posts.Count(ctx, f)
	if err != nil {
		return nil, 0, fmt.Errorf("count posts: %w", err)
	}
	views, err := postViews(ctx, repos, posts)
	if err != nil {
		return nil, 0, fmt.Errorf("list posts: %w", err)
	}
	return views, total, nil
}

// ListAfter implements ports.Posts. It reads one post more than asked to
// learn whether another page follows.
func (p *Posts) ListAfter(ctx context.Context, f ports.PostFilter, cursor *ports.PostCursor, limit int) ([]ports.PostView, *ports.PostCursor, error) {
	repos := p.store.Repos()
	posts, err := repos.Posts.ListAfter(ctx, f, cursor, limit+1)
	if err != nil {
		return nil, nil, fmt.Errorf("list posts: %w", err)
	}
	var next *ports.PostCursor
	if len(posts) > limit {
		posts = posts[:limit]
		last := posts[limit-1]
		next = &ports.PostCursor{CreatedAt: last.CreatedAt().UnixMicro(), ID: last.ID()}
	}
	views, err := postViews(ctx, repos, posts)
	if err != nil {
		return nil, nil, fmt.Errorf("list posts: %w", err)
	}
	return views, next, nil
}

// Show implements ports.Posts.
func (p *Posts) Show(ctx context.Context, viewer int64, id int64, withComments bool) (ports.PostView, error) {
	repos := p.store.Repos()
	post, err := repos.Posts.Get(ctx, id)
	if err == nil && !post.VisibleTo(viewer) {
		err = domain.ErrNotFound
	}
	if err != nil {
		return ports.PostView{}, fmt.Errorf("show post %d: %w", id, err)
	}
	views, err := postViews(ctx, repos, []domain.Post{post})
	if err != nil {
		return ports.PostView{}, fmt.Errorf("show post %d: %w", id, err)
	}
	if !withComments {
		return views[0], nil
	}
	comments, _, err := repos.Comments.ListByPost(ctx, id, ports.Page{Limit: ports.ShowComments})
	if err != nil {
		return ports.PostView{}, fmt.Errorf("show post %d: %w", id, err)
	}
	views[0].Comments, err = commentViews(ctx, repos, comments)
	if err != nil {
		return ports.PostView{}, fmt.Errorf("show post %d: %w", id, err)
	}
	return views[0], nil
}

// Create implements ports.Posts. The image is written before the
// transaction and removed again if the transaction fails, so that no
// committed post points at a missing file.
func (p *Posts) Create(ctx context.Context, actor domain.Actor, in ports.PostInput) (ports.PostView, error) {
	if !actor.Can(domain.AbilityPostsWrite) {
		return ports.PostView{}, domain.ErrCannotCreatePosts
	}
	now := p.clock.Now()
	post, err := domain.NewPost(actor.User.ID, in.Title, in.Body, in.Status, now)
	if err != nil {
		return ports.PostView{}, err
	}
	image, err := p.saveImage(ctx, in.Image)
	if err != nil {
		return ports.PostView{}, fmt.Errorf("create post: %w", err)
	}
	post.SetImage(image, now)
	err = p.store.InTx(ctx, func(r ports.Repos) error {
		if err := checkTags(ctx, r, in.TagIDs); err != nil {
			return err
		}
		// LastSlugSuffix holds the title's slug until the transaction ends,
		// so concurrent posts of one title take distinct suffixes in turn.
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
		return r.Posts.SetTags(ctx, post.ID(), in.TagIDs)
	})
	if err != nil {
		p.removeFile(ctx, image)
		return ports.PostView{}, fmt.Errorf("create post: %w", err)
	}
	return p.view(ctx, post)
}

// Update implements ports.Posts.
func (p *Posts) Update(ctx context.Context, actor domain.Actor, id int64, patch ports.PostPatch) (ports.PostView, error) {
	var newImage string
	if patch.Image.Set {
		var err error
		if newImage, err = p.saveImage(ctx, patch.Image.Value); err != nil {
			return ports.PostView{}, fmt.Errorf("update post %d: %w", id, err)
		}
	}
	var post domain.Post
	var oldImage string
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if post, err = editable(ctx, r, actor, id); err != nil {
			return err
		}
		now := p.clock.Now()
		if patch.Title.Set {
			post.Retitle(patch.Title.Value, now)
		}
		if patch.Body.Set {
			post.Rewrite(patch.Body.Value, now)
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
			return nil
		}
		if err := checkTags(ctx, r, patch.TagIDs.Value); err != nil {
			return err
		}
		return r.Posts.SetTags(ctx, id, patch.TagIDs.Value)
	})
	if err != nil {
		p.removeFile(ctx, newImage)
		return ports.PostView{}, fmt.Errorf("update post %d: %w", id, err)
	}
	p.removeFile(ctx, oldImage)
	return p.view(ctx, post)
}

// Delete implements ports.Posts.
func (p *Posts) Delete(ctx context.Context, actor domain.Actor, id int64) error {
	var image string
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		post, err := editable(ctx, r, actor, id)
		if err != nil {
			return err
		}
		image = post.ImagePath()
		return r.Posts.Delete(ctx, id)
	})
	if err != nil {
		return fmt.Errorf("delete post %d: %w", id, err)
	}
	p.removeFile(ctx, image)
	return nil
}

// editable locks post id for a change by actor: a post the actor can't see
// is not found, one the actor can see but not edit is forbidden, and a token
// without posts:write changes nothing, even its owner's posts.
func editable(ctx context.Context, r ports.Repos, actor domain.Actor, id int64) (domain.Post, error) {
	post, err := r.Posts.Lock(ctx, id)
	switch {
	case err != nil:
		return domain.Post{}, err
	case !post.VisibleTo(actor.User.ID):
		return domain.Post{}, domain.ErrNotFound
	case !post.CanEdit(actor.User.ID):
		return domain.Post{}, domain.ErrForbidden
	case !actor.Can(domain.AbilityPostsWrite):
		return domain.Post{}, domain.ErrInvalidAbility
	}
	return post, nil
}

// view loads what a single post's representation shows after a write.
func (p *Posts) view(ctx context.Context, post domain.Post) (ports.PostView, error) {
	views, err := postViews(ctx, p.store.Repos(), []domain.Post{post})
	if err != nil {
		return ports.PostView{}, err
	}
	return views[0], nil
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
// exists rule does ("The selected tags.1 is invalid.").
func checkTags(ctx context.Context, r ports.Repos, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	found, err := r.Tags.ByIDs(ctx, ids)
	if err != nil {
		return err
	}
	exists := make(map[int64]bool, len(found))
	for _, t := range found {
		exists[t.ID] = true
	}
	fields := map[string][]string{}
	for i, id := range ids {
		if !exists[id] {
			key := fmt.Sprintf("tags.%d", i)
			fields[key] = []string{fmt.Sprintf("The selected %s is invalid.", key)}
		}
	}
	if len(fields) > 0 {
		return &domain.Error{Kind: domain.Invalid, Code: "invalid", Message: "Validation failed.", Fields: fields}
	}
	return nil
}

// postViews attaches authors and tags to posts with one query each.
func postViews(ctx context.Context, r ports.Repos, posts []domain.Post) ([]ports.PostView, error) {
	if len(posts) == 0 {
		return []ports.PostView{}, nil
	}
	ids := make([]int64, len(posts))
	authorIDs := make([]int64, len(posts))
	for i, post := range posts {
		ids[i], authorIDs[i] = post.ID(), post.AuthorID()
	}
	authors, err := usersByID(ctx, r, authorIDs)
	if err != nil {
		return nil, err
	}
	tags, err := r.Tags.OfPosts(ctx, ids)
	if err != nil {
		return nil, err
	}
	views := make([]ports.PostView, len(posts))
	for i, post := range posts {
		views[i] = ports.PostView{Post: post, Author: authors[post.AuthorID()], Tags: tags[post.ID()]}
		if views[i].Tags == nil {
			views[i].Tags = []domain.Tag{}
		}
	}
	return views, nil
}

// commentViews attaches authors to comments with one query.
func commentViews(ctx context.Context, r ports.Repos, comments []domain.Comment) ([]ports.CommentView, error) {
	ids := make([]int64, len(comments))
	for i, c := range comments {
		ids[i] = c.UserID
	}
	authors, err := usersByID(ctx, r, ids)
	if err != nil {
		return nil, err
	}
	views := make([]ports.CommentView, len(comments))
	for i, c := range comments {
		views[i] = ports.CommentView{Comment: c, Author: authors[c.UserID]}
	}
	return views, nil
}

// usersByID loads the distinct users among ids in one query.
func usersByID(ctx context.Context, r ports.Repos, ids []int64) (map[int64]domain.User, error) {
	seen := make(map[int64]bool, len(ids))
	distinct := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			distinct = append(distinct, id)
		}
	}
	users, err := r.Users.ByIDs(ctx, distinct)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]domain.User, len(users))
	for _, u := range users {
		byID[u.ID] = u
	}
	return byID, nil
}
