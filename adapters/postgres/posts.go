package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// postQueries are sqlrepo.PostQueries.
type postQueries struct{ q *db.Queries }

var _ sqlrepo.PostQueries = postQueries{}

// CreatePost is CreateTagged with no tags: one statement either way.
func (r postQueries) CreatePost(ctx context.Context, p *domain.Post) error {
	_, err := r.CreateTagged(ctx, p, nil)
	return err
}

func (r postQueries) CreateTagged(ctx context.Context, p *domain.Post, tagIDs []int64) ([]domain.Tag, error) {
	const op = "create post with tags"
	if tagIDs == nil {
		tagIDs = []int64{} // an empty array, not NULL, for unnest
	}
	s := p.State()
	rows, err := r.q.CreatePostTagged(ctx, db.CreatePostTaggedParams{
		TagIds:      tagIDs,
		AuthorID:    s.AuthorID,
		Title:       s.Title,
		Slug:        s.Slug,
		Excerpt:     s.Excerpt,
		Body:        s.Body,
		Status:      string(s.Status),
		ImagePath:   s.ImagePath,
		PublishedAt: nullTime(s.PublishedAt),
		CreatedAt:   dbTime(s.CreatedAt),
		UpdatedAt:   dbTime(s.UpdatedAt),
	})
	if err != nil {
		// A missing author, or a tag deleted meanwhile, is a foreign-key
		// violation: domain.ErrNotFound.
		return nil, storeError(op, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: a tag does not exist: %w", op, domain.ErrNotFound)
	}
	tags := make([]domain.Tag, 0, len(rows))
	for _, row := range rows {
		if row.TagID.Valid {
			tags = append(tags, tagOf(db.Tag{ID: row.TagID.Int64, Name: row.Name.String, NameKey: row.NameKey.String,
				Slug: row.Slug.String, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt}))
		}
	}
	slices.SortFunc(tags, ports.TagOrder)
	p.SetID(rows[0].PostID)
	return tags, nil
}

func (r postQueries) GetPost(ctx context.Context, id int64) (domain.Post, error) {
	row, err := r.q.GetPost(ctx, id)
	return postOf(row), err
}

func (r postQueries) LockPost(ctx context.Context, id int64) (domain.Post, error) {
	row, err := r.q.LockPost(ctx, id)
	return postOf(row), err
}

func (r postQueries) UpdatePost(ctx context.Context, s domain.PostState) (int64, error) {
	return r.q.UpdatePost(ctx, db.UpdatePostParams(sqlrepo.PostUpdateOf(values, s)))
}

func (r postQueries) DeletePost(ctx context.Context, id int64) (int64, error) {
	return r.q.DeletePost(ctx, id)
}

// LastSlugSuffix first takes a transaction-level advisory lock on base, in
// a statement of its own so that the query after it reads a snapshot taken
// once the lock is held (see LockSlug). Inside a transaction the lock lasts
// until the transaction ends, past the caller's Create, so creators of one
// title take their suffixes in turn. Outside one it ends with its own
// statement: the caller then holds nothing, but its answer still counts the
// posts of creators that held base when it asked.
func (r postQueries) LastSlugSuffix(ctx context.Context, base string) (int, error) {
	if err := r.q.LockSlug(ctx, base); err != nil {
		return 0, storeError("lock slug", err)
	}
	n, err := r.q.LastSlugSuffix(ctx, db.LastSlugSuffixParams{Base: base, Prefix: escapeLike(base) + "-%"})
	if err != nil {
		return 0, storeError("last slug suffix", err)
	}
	return int(n), nil
}

func (r postQueries) SetTags(ctx context.Context, postID int64, tagIDs []int64) error {
	op := fmt.Sprintf("set tags of post %d", postID)
	if tagIDs == nil {
		tagIDs = []int64{} // an empty array, not NULL, for ANY and unnest
	}
	n, err := r.q.SetPostTags(ctx, db.SetPostTagsParams{PostID: postID, TagIds: tagIDs})
	if err != nil {
		// A missing tag is a foreign-key violation: domain.ErrNotFound.
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func postOf(row db.Post) domain.Post {
	return domain.RestorePost(domain.PostState{
		ID:          row.ID,
		AuthorID:    row.AuthorID,
		Title:       row.Title,
		Slug:        row.Slug,
		Excerpt:     row.Excerpt,
		Body:        row.Body,
		Status:      domain.PostStatus(row.Status),
		ImagePath:   row.ImagePath,
		PublishedAt: timePtrOf(row.PublishedAt),
		CreatedAt:   timeOf(row.CreatedAt),
		UpdatedAt:   timeOf(row.UpdatedAt),
	})
}

func (r postQueries) ImagePathsByAuthor(ctx context.Context, authorID int64) ([]string, error) {
	return r.q.ImagePathsByAuthor(ctx, authorID)
}
