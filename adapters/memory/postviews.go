package memory

import (
	"context"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

func (r posts) ListViews(ctx context.Context, f ports.PostFilter, page ports.Page) ([]ports.PostView, int, error) {
	list, err := r.List(ctx, f, page)
	if err != nil {
		return nil, 0, err
	}
	views, err := r.views(ctx, list)
	if err != nil {
		return nil, 0, err
	}
	total, err := r.Count(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	return views, total, nil
}

func (r posts) ListViewsAfter(ctx context.Context, f ports.PostFilter, cursor *ports.PostCursor, limit int) ([]ports.PostView, error) {
	list, err := r.ListAfter(ctx, f, cursor, limit)
	if err != nil {
		return nil, err
	}
	return r.views(ctx, list)
}

// views attaches their authors and tags to list.
func (r posts) views(ctx context.Context, list []domain.Post) ([]ports.PostView, error) {
	ids := make([]int64, len(list))
	authorIDs := make([]int64, len(list))
	for i, p := range list {
		ids[i], authorIDs[i] = p.ID(), p.AuthorID()
	}
	authors, err := users{r.u}.ByIDs(ctx, authorIDs)
	if err != nil {
		return nil, err
	}
	tags, err := tags{r.u}.OfPosts(ctx, ids)
	if err != nil {
		return nil, err
	}
	return ports.PostViewsOf(list, authors, tags), nil
}
