package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// postViews implements ports.PostViews on the same state as posts.
type postViews struct{ u unit }

func (r postViews) ListViews(ctx context.Context, f ports.PostFilter, page ports.Page) ([]ports.PostView, int, error) {
	matches, err := r.matching(ctx, f, nil)
	if err != nil {
		return nil, 0, err
	}
	views, err := r.views(ctx, restorePosts(paginate(matches, page)))
	if err != nil {
		return nil, 0, err
	}
	return views, len(matches), nil
}

func (r postViews) ListViewsAfter(ctx context.Context, f ports.PostFilter, cursor *ports.PostCursor, limit int) ([]ports.PostView, error) {
	matches, err := r.matching(ctx, f, cursor)
	if err != nil {
		return nil, err
	}
	return r.views(ctx, restorePosts(paginate(matches, ports.Page{Limit: limit})))
}

// views attaches their authors and tags to list.
func (r postViews) views(ctx context.Context, list []domain.Post) ([]ports.PostView, error) {
	ids := make([]int64, len(list))
	authorIDs := make([]int64, len(list))
	for i, p := range list {
		ids[i], authorIDs[i] = p.ID(), p.AuthorID()
	}
	authors, err := users(r).ByIDs(ctx, authorIDs)
	if err != nil {
		return nil, err
	}
	tags, err := tags(r).OfPosts(ctx, ids)
	if err != nil {
		return nil, err
	}
	return ports.PostViewsOf(list, domain.AuthorsOf(authors), tags), nil
}

// View reads the post, its tags and its comments in one unit of work, as
// one snapshot.
func (r postViews) View(ctx context.Context, id int64, maxComments int) (ports.PostView, error) {
	var view ports.PostView
	err := r.u.read(ctx, func(s *state) error {
		p, ok := s.posts[id]
		if !ok {
			return fmt.Errorf("post %d: %w", id, domain.ErrNotFound)
		}
		view.Post, view.Author = restorePost(p), s.users[p.AuthorID].Author()
		view.Tags = s.tagsOf(id)
		if maxComments > 0 {
			view.Comments, _ = s.commentsOf(id, ports.Page{Limit: maxComments})
		}
		return nil
	})
	return view, err
}

// matching returns the posts f selects that come after cursor (every one
// when it is nil), newest first.
func (r postViews) matching(ctx context.Context, f ports.PostFilter, cursor *ports.PostCursor) ([]domain.PostState, error) {
	needle := strings.ToLower(f.Search)
	var out []domain.PostState
	err := r.u.read(ctx, func(s *state) error {
		var tagged map[int64]bool
		if f.TagSlug != "" {
			tagged = s.postsTagged(f.TagSlug)
		}
		for _, p := range s.posts {
			switch {
			case p.Status != domain.StatusPublished && (f.Viewer == 0 || f.Viewer != p.AuthorID),
				f.Status != "" && p.Status != f.Status,
				f.AuthorID != 0 && p.AuthorID != f.AuthorID,
				f.TagSlug != "" && !tagged[p.ID],
				needle != "" && !strings.Contains(strings.ToLower(p.Title), needle),
				cursor != nil && !afterCursor(cursor, p):
				continue
			}
			out = append(out, p)
		}
		return nil
	})
	slices.SortFunc(out, func(a, b domain.PostState) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(b.ID, a.ID))
	})
	return out, err
}

// afterCursor reports whether p comes after cursor in the newest-first
// order.
func afterCursor(cursor *ports.PostCursor, p domain.PostState) bool {
	at := p.CreatedAt.UnixMicro()
	return at < cursor.CreatedAt || at == cursor.CreatedAt && p.ID < cursor.ID
}
