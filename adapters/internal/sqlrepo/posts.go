package sqlrepo

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// PostQueries are a store's statements on posts.
type PostQueries interface {
	GetPost(ctx context.Context, id int64) (domain.Post, error)
	// LockPost reads the post and holds it until the transaction ends.
	LockPost(ctx context.Context, id int64) (domain.Post, error)
	UpdatePost(ctx context.Context, p domain.PostState) (int64, error)
	// DeletePost removes the post; the foreign keys' ON DELETE CASCADE
	// remove its comments and tag links in the same statement.
	DeletePost(ctx context.Context, id int64) (int64, error)
	ImagePathsByAuthor(ctx context.Context, authorID int64) ([]string, error)
	// CreatePost, CreateTagged, LastSlugSuffix and SetTags are the store's
	// own, whole, their errors translated: each engine links tags and
	// holds a slug its way.
	CreatePost(ctx context.Context, p *domain.Post) error
	CreateTagged(ctx context.Context, p *domain.Post, tagIDs []int64) ([]domain.Tag, error)
	LastSlugSuffix(ctx context.Context, base string) (int, error)
	SetTags(ctx context.Context, postID int64, tagIDs []int64) error
}

// Posts is ports.PostRepository.
type Posts struct {
	Q PostQueries
	B Border
}

var _ ports.PostRepository = Posts{}

// Create is the store's own (PostQueries.CreatePost).
func (r Posts) Create(ctx context.Context, p *domain.Post) error {
	return r.Q.CreatePost(ctx, p)
}

// CreateTagged is the store's own (PostQueries.CreateTagged).
func (r Posts) CreateTagged(ctx context.Context, p *domain.Post, tagIDs []int64) ([]domain.Tag, error) {
	return r.Q.CreateTagged(ctx, p, tagIDs)
}

func (r Posts) Get(ctx context.Context, id int64) (domain.Post, error) {
	p, err := r.Q.GetPost(ctx, id)
	if err != nil {
		return domain.Post{}, r.B.Err(fmt.Sprintf("get post %d", id), err)
	}
	return p, nil
}

func (r Posts) Lock(ctx context.Context, id int64) (domain.Post, error) {
	p, err := r.Q.LockPost(ctx, id)
	if err != nil {
		return domain.Post{}, r.B.Err(fmt.Sprintf("lock post %d", id), err)
	}
	return p, nil
}

func (r Posts) Update(ctx context.Context, p domain.Post) error {
	s := p.State()
	n, err := r.Q.UpdatePost(ctx, s)
	return r.B.Affected(fmt.Sprintf("update post %d", s.ID), n, err)
}

func (r Posts) Delete(ctx context.Context, id int64) error {
	n, err := r.Q.DeletePost(ctx, id)
	return r.B.Affected(fmt.Sprintf("delete post %d", id), n, err)
}

// LastSlugSuffix is the store's own (PostQueries.LastSlugSuffix).
func (r Posts) LastSlugSuffix(ctx context.Context, base string) (int, error) {
	return r.Q.LastSlugSuffix(ctx, base)
}

// SetTags is the store's own (PostQueries.SetTags).
func (r Posts) SetTags(ctx context.Context, postID int64, tagIDs []int64) error {
	return r.Q.SetTags(ctx, postID, tagIDs)
}

func (r Posts) ImagePathsByAuthor(ctx context.Context, authorID int64) ([]string, error) {
	paths, err := r.Q.ImagePathsByAuthor(ctx, authorID)
	if err != nil {
		return nil, r.B.Err(fmt.Sprintf("image paths of author %d", authorID), err)
	}
	return paths, nil
}
