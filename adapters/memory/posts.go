package memory

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// posts implements ports.PostRepository. Posts are kept as their
// domain.PostState, since a domain.Post hides the pointer it shares with
// whoever built it.
type posts struct{ u unit }

func clonePostState(p domain.PostState) domain.PostState {
	p.PublishedAt = normPtr(p.PublishedAt)
	p.CreatedAt = norm(p.CreatedAt)
	p.UpdatedAt = norm(p.UpdatedAt)
	return p
}

func restorePost(p domain.PostState) domain.Post {
	return domain.RestorePost(clonePostState(p))
}

// deletePost removes a post with its tag links and comments, as the SQL
// stores' foreign keys do.
func (s *state) deletePost(id int64) {
	p, ok := s.posts[id]
	if !ok {
		return
	}
	delete(s.posts, id)
	delete(s.postSlugs, p.Slug)
	delete(s.postTags, id)
	s.deleteComments(func(c domain.Comment) bool { return c.PostID == id })
}

// Create checks the slug before the author, the order in which a SQL insert
// meets the unique index and the foreign key.
func (r posts) Create(ctx context.Context, p *domain.Post) error {
	return r.u.write(ctx, func(s *state) error { return s.createPost(p) })
}

func (r posts) CreateTagged(ctx context.Context, p *domain.Post, tagIDs []int64) ([]domain.Tag, error) {
	ids := distinctIDs(tagIDs)
	tags := make([]domain.Tag, 0, len(ids))
	err := r.u.write(ctx, func(s *state) error {
		for _, id := range ids {
			t, ok := s.tags[id]
			if !ok {
				return fmt.Errorf("create post: tag %d: %w", id, domain.ErrNotFound)
			}
			tags = append(tags, cloneTag(t))
		}
		if err := s.createPost(p); err != nil {
			return err
		}
		if len(ids) > 0 {
			s.postTags[p.ID()] = ids
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(tags, ports.TagOrder)
	return tags, nil
}

// createPost stores p and sets its ID.
func (s *state) createPost(p *domain.Post) error {
	stored := clonePostState(p.State())
	if _, taken := s.postSlugs[stored.Slug]; taken {
		return fmt.Errorf("create post: %w", domain.ErrSlugTaken)
	}
	if _, ok := s.users[stored.AuthorID]; !ok {
		return fmt.Errorf("create post: author %d: %w", stored.AuthorID, domain.ErrNotFound)
	}
	s.lastPost++
	stored.ID = s.lastPost
	s.posts[stored.ID] = stored
	s.postSlugs[stored.Slug] = stored.ID
	p.SetID(stored.ID)
	return nil
}

func (r posts) Get(ctx context.Context, id int64) (domain.Post, error) {
	return get(ctx, r.u, func(s *state) map[int64]domain.PostState { return s.posts }, restorePost, "post", id)
}

// Lock reads the post. Transactions already run one at a time, so there is
// nothing to hold.
func (r posts) Lock(ctx context.Context, id int64) (domain.Post, error) {
	return r.Get(ctx, id)
}

func (r posts) Update(ctx context.Context, p domain.Post) error {
	return r.u.write(ctx, func(s *state) error {
		stored := clonePostState(p.State())
		old, ok := s.posts[stored.ID]
		if !ok {
			return fmt.Errorf("update post %d: %w", stored.ID, domain.ErrNotFound)
		}
		stored.AuthorID, stored.Slug, stored.CreatedAt = old.AuthorID, old.Slug, old.CreatedAt
		s.posts[stored.ID] = stored
		return nil
	})
}

func (r posts) Delete(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.posts[id]; !ok {
			return fmt.Errorf("delete post %d: %w", id, domain.ErrNotFound)
		}
		s.deletePost(id)
		return nil
	})
}

// LastSlugSuffix compares slugs as text, so characters that are wildcards
// to LIKE need no escaping here. Transactions already run one at a time, so
// holding base until the transaction ends takes nothing more.
func (r posts) LastSlugSuffix(ctx context.Context, base string) (int, error) {
	last := 0
	err := r.u.read(ctx, func(s *state) error {
		prefix := base + "-"
		for slug := range s.postSlugs {
			switch {
			case slug == base:
				last = max(last, 1)
			case strings.HasPrefix(slug, prefix):
				if n, ok := slugSuffix(slug[len(prefix):]); ok {
					last = max(last, n)
				}
			}
		}
		return nil
	})
	return last, err
}

// slugSuffix reads the n of "base-n": decimal digits only, so that neither
// a sign nor anything after the number passes for one.
func slugSuffix(s string) (int, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// postsTagged returns the posts carrying a tag with the given slug. Slugs
// of tags are not unique (names are), so more than one tag may have it.
func (s *state) postsTagged(slug string) map[int64]bool {
	out := map[int64]bool{}
	for postID, tagIDs := range s.postTags {
		for _, id := range tagIDs {
			if s.tags[id].Slug == slug {
				out[postID] = true
				break
			}
		}
	}
	return out
}

func restorePosts(states []domain.PostState) []domain.Post {
	out := make([]domain.Post, len(states))
	for i, p := range states {
		out[i] = restorePost(p)
	}
	return out
}

// SetTags stores the distinct ids, so a tag given twice is linked once, as
// the SQL stores' primary key on the link allows.
func (r posts) SetTags(ctx context.Context, postID int64, tagIDs []int64) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.posts[postID]; !ok {
			return fmt.Errorf("set tags of post %d: %w", postID, domain.ErrNotFound)
		}
		for _, id := range tagIDs {
			if _, ok := s.tags[id]; !ok {
				return fmt.Errorf("set tags of post %d: tag %d: %w", postID, id, domain.ErrNotFound)
			}
		}
		if len(tagIDs) == 0 {
			delete(s.postTags, postID)
			return nil
		}
		s.postTags[postID] = distinctIDs(tagIDs)
		return nil
	})
}

func (r posts) ImagePathsByAuthor(ctx context.Context, authorID int64) ([]string, error) {
	var ids []int64
	var paths []string
	err := r.u.read(ctx, func(s *state) error {
		for id, p := range s.posts {
			if p.AuthorID == authorID && p.ImagePath != "" {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		for _, id := range ids {
			paths = append(paths, s.posts[id].ImagePath)
		}
		return nil
	})
	return paths, err
}

// distinctIDs returns a sorted copy of ids with each id once.
func distinctIDs(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
