package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// comments implements ports.CommentRepository.
type comments struct{ u unit }

func cloneComment(c domain.Comment) domain.Comment {
	c.CreatedAt = norm(c.CreatedAt)
	c.UpdatedAt = norm(c.UpdatedAt)
	return c
}

// deleteComments removes the comments for which match holds.
func (s *state) deleteComments(match func(domain.Comment) bool) {
	for id, c := range s.comments {
		if match(c) {
			delete(s.comments, id)
		}
	}
}

func (r comments) Create(ctx context.Context, c *domain.Comment) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.posts[c.PostID]; !ok {
			return fmt.Errorf("create comment: post %d: %w", c.PostID, domain.ErrNotFound)
		}
		if _, ok := s.users[c.UserID]; !ok {
			return fmt.Errorf("create comment: user %d: %w", c.UserID, domain.ErrNotFound)
		}
		s.lastComment++
		stored := cloneComment(*c)
		stored.ID = s.lastComment
		s.comments[stored.ID] = stored
		c.ID = stored.ID
		return nil
	})
}

func (r comments) Get(ctx context.Context, id int64) (domain.Comment, error) {
	return get(ctx, r.u, func(s *state) map[int64]domain.Comment { return s.comments }, cloneComment, "comment", id)
}

// Lock reads the comment. Transactions already run one at a time, so there
// is nothing to hold.
func (r comments) Lock(ctx context.Context, id int64) (domain.Comment, error) {
	return r.Get(ctx, id)
}

func (r comments) Update(ctx context.Context, c domain.Comment) error {
	return r.u.write(ctx, func(s *state) error {
		stored, ok := s.comments[c.ID]
		if !ok {
			return fmt.Errorf("update comment %d: %w", c.ID, domain.ErrNotFound)
		}
		stored.Body, stored.UpdatedAt = c.Body, norm(c.UpdatedAt)
		s.comments[c.ID] = stored
		return nil
	})
}

func (r comments) Delete(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.comments[id]; !ok {
			return fmt.Errorf("delete comment %d: %w", id, domain.ErrNotFound)
		}
		delete(s.comments, id)
		return nil
	})
}

func (r comments) ListByPost(ctx context.Context, postID int64, page ports.Page) ([]ports.CommentView, int, error) {
	var out []ports.CommentView
	var total int
	err := r.u.read(ctx, func(s *state) error {
		out, total = s.commentsOf(postID, page)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// commentsOf returns one page of the post's comments, oldest first, each
// with its author, and how many the post has.
func (s *state) commentsOf(postID int64, page ports.Page) ([]ports.CommentView, int) {
	var matches []domain.Comment
	for _, c := range s.comments {
		if c.PostID == postID {
			matches = append(matches, c)
		}
	}
	slices.SortFunc(matches, func(a, b domain.Comment) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	list := paginate(matches, page)
	out := make([]ports.CommentView, len(list))
	for i, c := range list {
		// Deleting a user deletes their comments, so the author is always
		// there.
		out[i] = ports.CommentView{Comment: cloneComment(c), Author: s.users[c.UserID].Author()}
	}
	return out, len(matches)
}
