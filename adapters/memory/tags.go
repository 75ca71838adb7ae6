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

func (r tags) Lock(ctx context.Context, id int64) (domain.Tag, error) {
	return get(ctx, r.u, func(s *state) map[int64]domain.Tag { return s.tags }, cloneTag, "lock tag", id)
}

func (r tags) ByName(ctx context.Context, name string) (domain.Tag, error) {
	var out domain.Tag
	err := r.u.read(ctx, func(s *state) error {
		id, ok := s.tagNames[tagKey(name)]
		if !ok {
			return fmt.Errorf("tag by name: %w", domain.ErrNotFound)
		}
		out = cloneTag(s.tags[id])
		return nil
	})
	return out, err
}

func (r tags) Update(ctx context.Context, t domain.Tag) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.tags[t.ID]
		if !ok {
			return fmt.Errorf("update tag %d: %w", t.ID, domain.ErrNotFound)
		}
		key := tagKey(t.Name)
		if id, taken := s.tagNames[key]; taken && id != t.ID {
			return fmt.Errorf("update tag %d: %w", t.ID, domain.ErrTagTaken)
		}
		delete(s.tagNames, tagKey(old.Name))
		s.tagNames[key] = t.ID
		old.Name, old.Slug, old.UpdatedAt = t.Name, t.Slug, t.UpdatedAt
		s.tags[t.ID] = cloneTag(old)
		return nil
	})
}

// Move gives each post of from a new list of tag ids rather than changing
// its list in place: a transaction's copy of the state shares the lists
// with the state it was cloned from.
func (r tags) Move(ctx context.Context, from, into int64) (int64, error) {
	var moved int64
	err := r.u.write(ctx, func(s *state) error {
		for _, id := range []int64{from, into} {
			if _, ok := s.tags[id]; !ok {
				return fmt.Errorf("move tag %d to %d: %w", from, into, domain.ErrNotFound)
			}
		}
		for postID, ids := range s.postTags {
			if !slices.Contains(ids, from) {
				continue
			}
			moved++
			next := slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return id == from })
			s.postTags[postID] = distinctIDs(append(next, into))
		}
		// A trashed post comes back under into too.
		for id, t := range s.trashedPosts {
			if slices.Contains(t.tagIDs, from) {
				next := slices.DeleteFunc(slices.Clone(t.tagIDs), func(id int64) bool { return id == from })
				t.tagIDs = distinctIDs(append(next, into))
				s.trashedPosts[id] = t
			}
		}
		return nil
	})
	return moved, err
}

func (r tags) Delete(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		t, ok := s.tags[id]
		if !ok {
			return fmt.Errorf("delete tag %d: %w", id, domain.ErrNotFound)
		}
		for postID, ids := range s.postTags {
			if slices.Contains(ids, id) {
				next := slices.DeleteFunc(slices.Clone(ids), func(tid int64) bool { return tid == id })
				if len(next) == 0 {
					delete(s.postTags, postID)
				} else {
					s.postTags[postID] = next
				}
			}
		}
		delete(s.tagNames, tagKey(t.Name))
		delete(s.tags, id)
		return nil
	})
}

func (r tags) Counted(ctx context.Context, q ports.TagQuery) ([]ports.TagCount, int, error) {
	field := cmp.Or(q.Sort.Field, "name")
	if !slices.Contains(ports.TagFields, field) {
		return nil, 0, fmt.Errorf("list tags by %q: %w", field, domain.InvalidField("sort", domain.RuleOf(domain.RuleIn, ports.TagFields...)))
	}
	var all []ports.TagCount
	err := r.u.read(ctx, func(s *state) error {
		counts := map[int64]int{}
		for _, ids := range s.postTags {
			for _, id := range ids {
				counts[id]++
			}
		}
		needle := strings.ToLower(q.Search)
		for _, t := range s.tags {
			if strings.Contains(tagKey(t.Name), needle) {
				all = append(all, ports.TagCount{Tag: cloneTag(t), Posts: counts[t.ID]})
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	slices.SortFunc(all, func(a, b ports.TagCount) int {
		var c int
		switch field {
		case "name":
			c = strings.Compare(a.Tag.Name, b.Tag.Name)
		case "posts":
			c = cmp.Compare(a.Posts, b.Posts)
		case "created_at":
			c = a.Tag.CreatedAt.Compare(b.Tag.CreatedAt)
		}
		c = cmp.Or(c, cmp.Compare(a.Tag.ID, b.Tag.ID))
		if q.Sort.Desc {
			return -c
		}
		return c
	})
	total := len(all)
	start := min(max(q.Page.Offset, 0), total)
	end := total
	if q.Page.Limit > 0 {
		end = min(start+q.Page.Limit, total)
	}
	return all[start:end], total, nil
}
