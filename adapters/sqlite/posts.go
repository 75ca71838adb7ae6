package sqlite

import (
	"context"
	"fmt"
	"slices"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// postQueries are sqlrepo.PostQueries.
type postQueries struct{ c conns }

var _ sqlrepo.PostQueries = postQueries{}

// CreatePost stores p. A taken slug violates posts_slug
// (domain.ErrSlugTaken); a missing author violates the foreign key
// (domain.ErrNotFound).
func (r postQueries) CreatePost(ctx context.Context, p *domain.Post) error {
	s := p.State()
	id, err := r.c.write.CreatePost(ctx, db.CreatePostParams{
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
		return storeError("create post", err)
	}
	p.SetID(id)
	return nil
}

// CreateTagged checks the tags, stores the post and links them in one
// transaction: SQLite runs the statements in the process, where a
// statement costs no round trip.
func (r postQueries) CreateTagged(ctx context.Context, p *domain.Post, tagIDs []int64) ([]domain.Tag, error) {
	ids := distinctIDs(tagIDs)
	var found []domain.Tag
	err := r.c.atomically(ctx, func(c conns) error {
		var err error
		if found, err = (sqlrepo.Tags{Q: tagQueries{c}, B: border}).ByIDs(ctx, ids); err != nil {
			return err
		}
		if len(found) != len(ids) {
			return fmt.Errorf("sqlite: create post: %d of the tags do not exist: %w", len(ids)-len(found), domain.ErrNotFound)
		}
		if err := (postQueries{c}).CreatePost(ctx, p); err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		if err := c.write.AddPostTags(ctx, db.AddPostTagsParams{PostID: p.ID(), TagIds: ids}); err != nil {
			return storeError("create post: link tags", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(found, ports.TagOrder)
	return found, nil
}

func (r postQueries) GetPost(ctx context.Context, id int64) (domain.Post, error) {
	row, err := r.c.read.GetPost(ctx, id)
	return postOf(row), err
}

// LockPost reads the post. Inside InTx no more is needed: the transaction
// began IMMEDIATE and holds SQLite's single write lock, so every other
// writer of the post waits for it to end. Outside a transaction there is
// nothing to hold.
func (r postQueries) LockPost(ctx context.Context, id int64) (domain.Post, error) {
	return r.GetPost(ctx, id)
}

func (r postQueries) UpdatePost(ctx context.Context, s domain.PostState) (int64, error) {
	return r.c.write.UpdatePost(ctx, db.UpdatePostParams(sqlrepo.PostUpdateOf(values, s)))
}

func (r postQueries) DeletePost(ctx context.Context, id int64) (int64, error) {
	return r.c.write.DeletePost(ctx, id)
}

// LastSlugSuffix reads the largest suffix of base (see the query in
// sql/sqlite/queries/posts.sql). The port also asks it to hold base until
// the transaction ends, and inside InTx that takes no statement of its own:
// the transaction began IMMEDIATE, so it already holds SQLite's single write
// lock, and a concurrent creator of the same slug cannot even begin before
// this one has inserted its post and committed. Outside a transaction there
// is nothing to hold, as with Lock.
func (r postQueries) LastSlugSuffix(ctx context.Context, base string) (int, error) {
	n, err := r.c.read.LastSlugSuffix(ctx, base)
	if err != nil {
		return 0, storeError("last slug suffix", err)
	}
	return int(n), nil
}

// SetTags replaces the post's tags. It checks the post and the tags before
// it changes anything, so a missing one leaves the old set in place, and it
// runs as one unit of work, so no reader sees the post between the old set
// and the new.
func (r postQueries) SetTags(ctx context.Context, postID int64, tagIDs []int64) error {
	op := fmt.Sprintf("set tags of post %d", postID)
	ids := distinctIDs(tagIDs)
	return r.c.atomically(ctx, func(c conns) error {
		found, err := c.write.CheckPostTags(ctx, db.CheckPostTagsParams{PostID: postID, TagIds: ids})
		if err != nil {
			return storeError(op, err)
		}
		if found.Posts == 0 {
			return notFound(op)
		}
		if found.Tags != int64(len(ids)) {
			return fmt.Errorf("sqlite: %s: %d of the tags do not exist: %w", op, int64(len(ids))-found.Tags, domain.ErrNotFound)
		}
		if err := c.write.DeletePostTags(ctx, postID); err != nil {
			return storeError(op, err)
		}
		if len(ids) == 0 {
			return nil
		}
		if err := c.write.AddPostTags(ctx, db.AddPostTagsParams{PostID: postID, TagIds: ids}); err != nil {
			return storeError(op, err)
		}
		return nil
	})
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
	return r.c.read.ImagePathsByAuthor(ctx, authorID)
}

// distinctIDs returns a sorted copy of ids with each id once.
func distinctIDs(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
