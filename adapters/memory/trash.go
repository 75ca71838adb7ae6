package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// trash implements ports.TrashRepository: trashed posts and comments leave
// the live maps, as they leave the SQL stores' live tables, and keep their
// ids for a restore.
type trash struct{ u unit }

// trashedPost is a post in the trash, with its tag ids then.
type trashedPost struct {
	state     domain.PostState
	tagIDs    []int64
	deletedAt time.Time
}

type trashedComment struct {
	comment   domain.Comment
	deletedAt time.Time
}

func (t trashedPost) view() ports.TrashedPost {
	return ports.TrashedPost{Post: restorePost(t.state), TagIDs: slices.Clone(t.tagIDs), DeletedAt: t.deletedAt}
}

func (t trashedComment) view() ports.TrashedComment {
	return ports.TrashedComment{Comment: cloneComment(t.comment), DeletedAt: t.deletedAt}
}

func (r trash) TrashPost(ctx context.Context, id int64, at time.Time) error {
	return r.u.write(ctx, func(s *state) error {
		p, ok := s.posts[id]
		if !ok {
			return fmt.Errorf("trash post %d: %w", id, domain.ErrNotFound)
		}
		at = norm(at)
		tagIDs := slices.Clone(s.postTags[id])
		if tagIDs == nil {
			tagIDs = []int64{}
		}
		s.trashedPosts[id] = trashedPost{state: p, tagIDs: tagIDs, deletedAt: at}
		for cid, c := range s.comments {
			if c.PostID == id {
				s.trashedComments[cid] = trashedComment{comment: c, deletedAt: at}
			}
		}
		s.deletePost(id)
		return nil
	})
}

func (r trash) TrashComment(ctx context.Context, id int64, at time.Time) error {
	return r.u.write(ctx, func(s *state) error {
		c, ok := s.comments[id]
		if !ok {
			return fmt.Errorf("trash comment %d: %w", id, domain.ErrNotFound)
		}
		s.trashedComments[id] = trashedComment{comment: c, deletedAt: norm(at)}
		delete(s.comments, id)
		return nil
	})
}

func (r trash) Post(ctx context.Context, id int64) (ports.TrashedPost, error) {
	return get(ctx, r.u, func(s *state) map[int64]trashedPost { return s.trashedPosts }, trashedPost.view, "trashed post", id)
}

func (r trash) Comment(ctx context.Context, id int64) (ports.TrashedComment, error) {
	return get(ctx, r.u, func(s *state) map[int64]trashedComment { return s.trashedComments }, trashedComment.view, "trashed comment", id)
}

func (r trash) RestorePost(ctx context.Context, id int64, slug string) error {
	return r.u.write(ctx, func(s *state) error {
		t, ok := s.trashedPosts[id]
		if !ok {
			return fmt.Errorf("restore post %d: %w", id, domain.ErrNotFound)
		}
		if _, taken := s.postSlugs[slug]; taken {
			return fmt.Errorf("restore post %d: %w", id, domain.ErrSlugTaken)
		}
		p := t.state
		p.Slug = slug
		s.posts[id] = p
		s.postSlugs[slug] = id
		var tagIDs []int64
		for _, tid := range t.tagIDs {
			if _, ok := s.tags[tid]; ok {
				tagIDs = append(tagIDs, tid)
			}
		}
		if tagIDs != nil {
			s.postTags[id] = tagIDs
		}
		for cid, c := range s.trashedComments {
			if c.comment.PostID == id && c.deletedAt.Equal(t.deletedAt) {
				if _, ok := s.users[c.comment.UserID]; ok {
					s.comments[cid] = c.comment
				}
				delete(s.trashedComments, cid)
			}
		}
		delete(s.trashedPosts, id)
		return nil
	})
}

func (r trash) SlugTaken(ctx context.Context, slug string) (bool, error) {
	var taken bool
	err := r.u.read(ctx, func(s *state) error {
		_, taken = s.postSlugs[slug]
		return nil
	})
	return taken, err
}

func (r trash) RestoreComment(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		c, ok := s.trashedComments[id]
		if !ok {
			return fmt.Errorf("restore comment %d: %w", id, domain.ErrNotFound)
		}
		if _, ok := s.posts[c.comment.PostID]; !ok {
			return fmt.Errorf("restore comment %d: post %d: %w", id, c.comment.PostID, domain.ErrNotFound)
		}
		s.comments[id] = c.comment
		delete(s.trashedComments, id)
		return nil
	})
}

func (r trash) PurgePost(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.trashedPosts[id]; !ok {
			return fmt.Errorf("purge trashed post %d: %w", id, domain.ErrNotFound)
		}
		delete(s.trashedPosts, id)
		s.purgeTrashedComments(func(c domain.Comment) bool { return c.PostID == id })
		return nil
	})
}

func (r trash) PurgeComment(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.trashedComments[id]; !ok {
			return fmt.Errorf("purge trashed comment %d: %w", id, domain.ErrNotFound)
		}
		delete(s.trashedComments, id)
		return nil
	})
}

func (r trash) PurgeCommentsOf(ctx context.Context, postID int64) (int64, error) {
	return r.u.count(ctx, func(s *state) int64 {
		return s.purgeTrashedComments(func(c domain.Comment) bool { return c.PostID == postID })
	})
}

func (r trash) PurgeAuthor(ctx context.Context, author int64) ([]string, error) {
	var paths []string
	err := r.u.write(ctx, func(s *state) error {
		posts := map[int64]bool{}
		for id, p := range s.posts {
			if p.AuthorID == author {
				posts[id] = true
			}
		}
		ids := []int64{}
		for id, t := range s.trashedPosts {
			if t.state.AuthorID == author {
				posts[id] = true
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		for _, id := range ids {
			if p := s.trashedPosts[id].state.ImagePath; p != "" {
				paths = append(paths, p)
			}
			delete(s.trashedPosts, id)
		}
		s.purgeTrashedComments(func(c domain.Comment) bool { return posts[c.PostID] })
		return nil
	})
	return paths, err
}

func (s *state) purgeTrashedComments(match func(domain.Comment) bool) int64 {
	var n int64
	for id, c := range s.trashedComments {
		if match(c.comment) {
			delete(s.trashedComments, id)
			n++
		}
	}
	return n
}

// newestTrashed orders the trash most recently trashed first.
func newestTrashed(aAt, bAt time.Time, aID, bID int64) int {
	return cmp.Or(bAt.Compare(aAt), cmp.Compare(bID, aID))
}

func (r trash) Posts(ctx context.Context, author int64, page ports.Page) ([]ports.TrashedPost, int, error) {
	var all []trashedPost
	err := r.u.read(ctx, func(s *state) error {
		for _, t := range s.trashedPosts {
			if author == 0 || t.state.AuthorID == author {
				all = append(all, t)
			}
		}
		return nil
	})
	slices.SortFunc(all, func(a, b trashedPost) int { return newestTrashed(a.deletedAt, b.deletedAt, a.state.ID, b.state.ID) })
	var out []ports.TrashedPost
	for _, t := range paged(all, page) {
		out = append(out, t.view())
	}
	return out, len(all), err
}

func (r trash) Comments(ctx context.Context, author int64, page ports.Page) ([]ports.TrashedComment, int, error) {
	var all []trashedComment
	err := r.u.read(ctx, func(s *state) error {
		for _, t := range s.trashedComments {
			if author == 0 || t.comment.UserID == author {
				all = append(all, t)
			}
		}
		return nil
	})
	slices.SortFunc(all, func(a, b trashedComment) int {
		return newestTrashed(a.deletedAt, b.deletedAt, a.comment.ID, b.comment.ID)
	})
	var out []ports.TrashedComment
	for _, t := range paged(all, page) {
		out = append(out, t.view())
	}
	return out, len(all), err
}

func (r trash) ExpiredPosts(ctx context.Context, cutoff time.Time, limit int) ([]ports.TrashedPost, error) {
	var all []trashedPost
	err := r.u.read(ctx, func(s *state) error {
		for _, t := range s.trashedPosts {
			if !t.deletedAt.After(cutoff) {
				all = append(all, t)
			}
		}
		return nil
	})
	slices.SortFunc(all, func(a, b trashedPost) int { return -newestTrashed(a.deletedAt, b.deletedAt, a.state.ID, b.state.ID) })
	var out []ports.TrashedPost
	for _, t := range paged(all, ports.Page{Limit: limit}) {
		out = append(out, t.view())
	}
	return out, err
}

func (r trash) ExpiredComments(ctx context.Context, cutoff time.Time, limit int) ([]ports.TrashedComment, error) {
	var all []trashedComment
	err := r.u.read(ctx, func(s *state) error {
		for _, t := range s.trashedComments {
			if !t.deletedAt.After(cutoff) {
				all = append(all, t)
			}
		}
		return nil
	})
	slices.SortFunc(all, func(a, b trashedComment) int {
		return -newestTrashed(a.deletedAt, b.deletedAt, a.comment.ID, b.comment.ID)
	})
	var out []ports.TrashedComment
	for _, t := range paged(all, ports.Page{Limit: limit}) {
		out = append(out, t.view())
	}
	return out, err
}
