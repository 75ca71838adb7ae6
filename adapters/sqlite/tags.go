package sqlite

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// tagQueries are sqlrepo.TagQueries.
type tagQueries struct{ c conns }

var _ sqlrepo.TagQueries = tagQueries{}

func (r tagQueries) CreateTag(ctx context.Context, t domain.Tag, key string) (int64, error) {
	return r.c.write.CreateTag(ctx, db.CreateTagParams(sqlrepo.NewTagOf(values, t, key)))
}

func (r tagQueries) ListTags(ctx context.Context) ([]domain.Tag, error) {
	rows, err := r.c.read.ListTags(ctx)
	if err != nil {
		return nil, storeError("list tags", err)
	}
	return sqlrepo.Rows(rows, tagOf), nil
}

func (r tagQueries) GetTagsByIDs(ctx context.Context, ids []int64) ([]domain.Tag, error) {
	rows, err := r.c.read.GetTagsByIDs(ctx, ids)
	return sqlrepo.Rows(rows, tagOf), err
}

func (r tagQueries) ListTagsOfPosts(ctx context.Context, postIDs []int64) ([]sqlrepo.PostTag, error) {
	rows, err := r.c.read.ListTagsOfPosts(ctx, postIDs)
	return sqlrepo.PostTagsOf(rows, tagOf), err
}

func tagOf(row db.Tag) domain.Tag {
	return sqlrepo.TagOf(values, row)
}

// LockTag reads the tag: a transaction of this store holds the database's
// write lock from its start, so nothing changes the tag until it ends.
func (r tagQueries) LockTag(ctx context.Context, id int64) (domain.Tag, error) {
	row, err := r.c.write.GetTag(ctx, id)
	return tagOf(row), err
}

func (r tagQueries) GetTagByNameKey(ctx context.Context, key string) (domain.Tag, error) {
	row, err := r.c.write.GetTagByNameKey(ctx, key)
	return tagOf(row), err
}

func (r tagQueries) UpdateTag(ctx context.Context, t domain.Tag, key string) (int64, error) {
	return r.c.write.UpdateTag(ctx, db.UpdateTagParams(sqlrepo.TagUpdateOf(values, t, key)))
}

// MoveTag runs as one unit of work: inside InTx on its transaction, else in
// an immediate transaction of its own. A trashed post's tag ids (a JSON
// array, ascending) name into instead of from too, so that its restore
// brings it back under into.
func (r tagQueries) MoveTag(ctx context.Context, from, into int64) (int64, error) {
	op := fmt.Sprintf("move tag %d to %d", from, into)
	var moved int64
	err := r.c.atomically(ctx, func(c conns) error {
		for _, id := range []int64{from, into} {
			if _, err := c.write.GetTag(ctx, id); err != nil {
				return storeError(op, err)
			}
		}
		if err := c.write.CopyTagLinks(ctx, db.CopyTagLinksParams{IntoID: into, FromID: from}); err != nil {
			return storeError(op, err)
		}
		n, err := c.write.DeleteTagLinks(ctx, from)
		if err != nil {
			return storeError(op, err)
		}
		moved = n
		_, err = c.readDB.ExecContext(ctx, `UPDATE trashed_posts
SET tag_ids = (SELECT json_group_array(v) FROM (
    SELECT DISTINCT CASE WHEN j.value = ?1 THEN ?2 ELSE j.value END AS v
    FROM json_each(trashed_posts.tag_ids) j ORDER BY v))
WHERE EXISTS (SELECT 1 FROM json_each(trashed_posts.tag_ids) j WHERE j.value = ?1)`, from, into)
		return storeError(op, err)
	})
	return moved, err
}

// Delete removes the tag's links itself rather than through the foreign
// key's cascade, which holds only on connections that enforce keys, as
// one unit of work.
func (r tagQueries) Delete(ctx context.Context, id int64) error {
	op := fmt.Sprintf("delete tag %d", id)
	return r.c.atomically(ctx, func(c conns) error {
		if _, err := c.write.DeleteTagLinks(ctx, id); err != nil {
			return storeError(op, err)
		}
		n, err := c.write.DeleteTag(ctx, id)
		if err != nil {
			return storeError(op, err)
		}
		if n == 0 {
			return notFound(op)
		}
		return nil
	})
}

// DeleteTag removes the tag's links itself rather than through the foreign
// key's cascade, which holds only on connections that enforce keys, as
// one unit of work.
func (r tagQueries) DeleteTag(ctx context.Context, id int64) error {
	op := fmt.Sprintf("delete tag %d", id)
	return r.c.atomically(ctx, func(c conns) error {
		if _, err := c.write.DeleteTagLinks(ctx, id); err != nil {
			return storeError(op, err)
		}
		n, err := c.write.DeleteTag(ctx, id)
		return border.Affected(op, n, err)
	})
}

// tagSortColumns are TagSortColumns. BINARY compares UTF-8 bytes, which
// sort as code points do.
var tagSortColumns = map[string]string{
	"name":       "t.name",
	"posts":      "posts",
	"created_at": "t.created_at",
}

func (tagQueries) TagSortColumns() map[string]string { return tagSortColumns }

// CountedTags counts each tag's posts through post_tags_tag_id, which holds
// (tag_id, post_id): a count of the index's entries, no post read. Its
// ORDER BY varies, so it is not generated; CountTags has its filter.
func (r tagQueries) CountedTags(ctx context.Context, search, orderBy string, page ports.Page) ([]ports.TagCount, error) {
	limit, offset := pageBounds(page)
	rows, err := r.c.readDB.QueryContext(ctx, `SELECT t.id, t.name, t.name_key, t.slug, t.created_at, t.updated_at,
       (SELECT count(*) FROM post_tags pt WHERE pt.tag_id = t.id) AS posts
FROM tags t
WHERE instr(t.name_key, ?1) > 0
ORDER BY `+orderBy+`
LIMIT ?2 OFFSET ?3`, search, limit, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var row db.Tag
	var posts int64
	return sqlrepo.Scan(rows, []any{&row.ID, &row.Name, &row.NameKey, &row.Slug, &row.CreatedAt, &row.UpdatedAt, &posts},
		func() (ports.TagCount, error) { return ports.TagCount{Tag: tagOf(row), Posts: int(posts)}, nil })
}

func (r tagQueries) CountTags(ctx context.Context, search string) (int64, error) {
	return r.c.read.CountTags(ctx, search)
}
