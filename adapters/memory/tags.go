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

// tags implements ports.TagRepository.
type tags struct{ u unit }

func cloneTag(t domain.Tag) domain.Tag {
	t.CreatedAt = norm(t.CreatedAt)
	t.UpdatedAt = norm(t.UpdatedAt)
	return t
}

// tagKey is the form in which tag names are compared for uniqueness.
func tagKey(name string) string {
	return strings.ToLower(name)
}

func (r tags) Create(ctx context.Context, t *domain.Tag) error {
	return r.u.write(ctx, func(s *state) error {
		key := tagKey(t.Name)
		if _, taken := s.tagNames[key]; taken {
			return fmt.Errorf("create tag: %w", domain.ErrTagTaken)
		}
		s.lastTag++
		stored := cloneTag(*t)
		stored.ID = s.lastTag
		s.tags[stored.ID] = stored
		s.tagNames[key] = stored.ID
		t.ID = stored.ID
		return nil
	})
}

func (r tags) List(ctx context.Context) ([]domain.Tag, error) {
	var out []domain.Tag
	err := r.u.read(ctx, func(s *state) error {
		for _, t := range s.tags {
			out = append(out, cloneTag(t))
		}
		return nil
	})
	slices.SortFunc(out, ports.TagOrder)
	return out, err
}

func (r tags) ByIDs(ctx context.Context, ids []int64) ([]domain.Tag, error) {
	out := []domain.Tag{}
	err := r.u.read(ctx, func(s *state) error {
		for _, id := range ids {
			if t, ok := s.tags[id]; ok {
				out = append(out, cloneTag(t))
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b domain.Tag) int { return cmp.Compare(a.ID, b.ID) })
	return slices.CompactFunc(out, func(a, b domain.Tag) bool { return a.ID == b.ID }), err
}

func (r tags) OfPosts(ctx context.Context, postIDs []int64) (map[int64][]domain.Tag, error) {
	out := map[int64][]domain.Tag{}
	err := r.u.read(ctx, func(s *state) error {
		for _, postID := range postIDs {
			if list := s.tagsOf(postID); len(list) > 0 {
				out[postID] = list
			}
		}
		return nil
	})
	return out, err
}

// tagsOf returns copies of the post's tags in ports.TagOrder, never nil.
func (s *state) tagsOf(postID int64) []domain.Tag {
	tagIDs := s.postTags[postID]
	list := make([]domain.Tag, len(tagIDs))
	for i, id := range tagIDs {
		list[i] = cloneTag(s.tags[id])
	}
	slices.SortFunc(list, ports.TagOrder)
	return list
}
