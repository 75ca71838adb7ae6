package sqlite

import (
	"context"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// The lists that PostViews builds its pages from are measured on their own
// (their statements, plans and counters), so the tests reach them here.

// ListPosts returns one page of the posts f matches through r's views.
func ListPosts(ctx context.Context, r ports.Repos, f ports.PostFilter, page ports.Page) ([]domain.Post, error) {
	return r.PostViews.(postViews).list(ctx, f, page)
}

// CountPosts returns how many posts f matches through r's views.
func CountPosts(ctx context.Context, r ports.Repos, f ports.PostFilter) (int, error) {
	return r.PostViews.(postViews).count(ctx, f)
}

// ListPostsAfter returns the posts f matches after cursor through r's views.
func ListPostsAfter(ctx context.Context, r ports.Repos, f ports.PostFilter, cursor *ports.PostCursor, limit int) ([]domain.Post, error) {
	return r.PostViews.(postViews).listAfter(ctx, f, cursor, limit)
}
