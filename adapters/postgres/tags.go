package postgres

import (
	"context"
	"slices"
	"strings"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// tags implements ports.TagRepository. reads, nil in a transaction, chooses
// the database List runs on: the standby for a context that tolerates
// staleness, while it is fresh. The other reads serve writes and stay on
// q's.
type tags struct {
	q     *db.Queries
	reads *reads
}

var _ ports.TagRepository = tags{}

func (r tags) Create(ctx context.Context, t *domain.Tag) error {
	id, err := r.q.CreateTag(ctx, db.CreateTagParams{
		Name: t.Name,
		// The key is folded in Go rather than by PostgreSQL's lower(), whose
		// result depends on the database's collation: names then clash
		// alike in every store.
		NameKey:   strings.ToLower(t.Name),
		Slug:      t.Slug,
		CreatedAt: dbTime(t.CreatedAt),
		UpdatedAt: dbTime(t.UpdatedAt),
	})
	if err != nil {
		return storeError("create tag", err)
	}
	t.ID = id
	return nil
}

func (r tags) List(ctx context.Context) ([]domain.Tag, error) {
	if r.reads == nil {
		return r.list(ctx, r.q)
	}
	var list []domain.Tag
	err := r.reads.run(ctx, func(t target) error {
		var err error
		list, err = r.list(ctx, t.q)
		return err
	})
	return list, err
}

func (r tags) list(ctx context.Context, q *db.Queries) ([]domain.Tag, error) {
	rows, err := q.ListTags(ctx)
	if err != nil {
		return nil, storeError("list tags", err)
	}
	return tagsOf(rows), nil
}

func (r tags) ByIDs(ctx context.Context, ids []int64) ([]domain.Tag, error) {
	if len(ids) == 0 {
		return []domain.Tag{}, nil
	}
	rows, err := r.q.GetTagsByIDs(ctx, ids)
	if err != nil {
		return nil, storeError("get tags by ids", err)
	}
	return tagsOf(rows), nil
}

func (r tags) OfPosts(ctx context.Context, postIDs []int64) (map[int64][]domain.Tag, error) {
	byPost := make(map[int64][]domain.Tag)
	if len(postIDs) == 0 {
		return byPost, nil
	}
	rows, err := r.q.ListTagsOfPosts(ctx, postIDs)
	if err != nil {
		return nil, storeError("list tags of posts", err)
	}
	for _, row := range rows {
		byPost[row.PostID] = append(byPost[row.PostID], tagOf(row.Tag))
	}
	for _, list := range byPost {
		slices.SortFunc(list, ports.TagOrder)
	}
	return byPost, nil
}

func tagsOf(rows []db.Tag) []domain.Tag {
	list := make([]domain.Tag, 0, len(rows))
	for _, row := range rows {
		list = append(list, tagOf(row))
	}
	return list
}

func tagOf(row db.Tag) domain.Tag {
	return domain.Tag{
		ID:        row.ID,
		Name:      row.Name,
		Slug:      row.Slug,
		CreatedAt: timeOf(row.CreatedAt),
		UpdatedAt: timeOf(row.UpdatedAt),
	}
}
