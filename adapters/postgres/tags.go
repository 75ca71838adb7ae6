package postgres

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// tagQueries are sqlrepo.TagQueries. reads, nil in a transaction, chooses
// the database ListTags runs on: the standby for a context that tolerates
// staleness, while it is fresh. The other reads serve writes and stay on
// q's.
type tagQueries struct {
	q *db.Queries
	// conn runs CountedTags, whose ORDER BY varies, and MoveTag.
	conn  db.DBTX
	reads *reads
}

var _ sqlrepo.TagQueries = tagQueries{}

func (r tagQueries) CreateTag(ctx context.Context, t domain.Tag, key string) (int64, error) {
	return r.q.CreateTag(ctx, db.CreateTagParams(sqlrepo.NewTagOf(values, t, key)))
}

func (r tagQueries) ListTags(ctx context.Context) ([]domain.Tag, error) {
	if r.reads == nil {
		return listTags(ctx, r.q)
	}
	var list []domain.Tag
	err := r.reads.run(ctx, func(t target) error {
		var err error
		list, err = listTags(ctx, t.q)
		return err
	})
	return list, err
}

func listTags(ctx context.Context, q *db.Queries) ([]domain.Tag, error) {
	rows, err := q.ListTags(ctx)
	if err != nil {
		return nil, storeError("list tags", err)
	}
	return sqlrepo.Rows(rows, tagOf), nil
}

func (r tagQueries) GetTagsByIDs(ctx context.Context, ids []int64) ([]domain.Tag, error) {
	rows, err := r.q.GetTagsByIDs(ctx, ids)
	return sqlrepo.Rows(rows, tagOf), err
}

func (r tagQueries) ListTagsOfPosts(ctx context.Context, postIDs []int64) ([]sqlrepo.PostTag, error) {
	rows, err := r.q.ListTagsOfPosts(ctx, postIDs)
	return sqlrepo.PostTagsOf(rows, tagOf), err
}

func tagOf(row db.Tag) domain.Tag {
	return sqlrepo.TagOf(values, row)
}

// LockTag reads the tag FOR UPDATE: a post's new link to it, whose foreign
// key takes a share of the row, waits until the transaction ends.
func (r tagQueries) LockTag(ctx context.Context, id int64) (domain.Tag, error) {
	row, err := r.q.LockTag(ctx, id)
	return tagOf(row), err
}

func (r tagQueries) GetTagByNameKey(ctx context.Context, key string) (domain.Tag, error) {
	row, err := r.q.GetTagByNameKey(ctx, key)
	return tagOf(row), err
}

func (r tagQueries) UpdateTag(ctx context.Context, t domain.Tag, key string) (int64, error) {
	return r.q.UpdateTag(ctx, db.UpdateTagParams(sqlrepo.TagUpdateOf(values, t, key)))
}

// MoveTag locks both tags first, so that no post gains a link to either
// meanwhile, then moves the links in one statement, which stands or falls
// whole outside a transaction too. A trashed post's tag ids name into
// instead of from as well, so that its restore brings it back under into.
func (r tagQueries) MoveTag(ctx context.Context, from, into int64) (int64, error) {
	op := fmt.Sprintf("move tag %d to %d", from, into)
	for _, id := range []int64{from, into} {
		if _, err := r.q.LockTag(ctx, id); err != nil {
			return 0, storeError(op, err)
		}
	}
	var moved int64
	err := r.conn.QueryRow(ctx, `WITH moved AS (
  DELETE FROM post_tags WHERE tag_id = $1::bigint RETURNING post_id
), linked AS (
  INSERT INTO post_tags (post_id, tag_id) SELECT post_id, $2::bigint FROM moved
  ON CONFLICT DO NOTHING
), trashed AS (
  UPDATE trashed_posts
  SET tag_ids = ARRAY(SELECT DISTINCT x FROM unnest(array_replace(tag_ids, $1::bigint, $2::bigint)) x ORDER BY x)
  WHERE $1::bigint = ANY (tag_ids)
)
SELECT count(*) FROM moved`, from, into).Scan(&moved)
	if err != nil {
		return 0, storeError(op, err)
	}
	return moved, nil
}

// DeleteTag removes the tag; its links go with it by the foreign key's
// cascade.
func (r tagQueries) DeleteTag(ctx context.Context, id int64) error {
	n, err := r.q.DeleteTag(ctx, id)
	return border.Affected(fmt.Sprintf("delete tag %d", id), n, err)
}

// tagSortColumns are TagSortColumns; names compare by code point, as
// ListTags's do.
var tagSortColumns = map[string]string{
	"name":       `t.name COLLATE "C"`,
	"posts":      "posts",
	"created_at": "t.created_at",
}

func (tagQueries) TagSortColumns() map[string]string { return tagSortColumns }

// CountedTags counts each tag's posts on post_tags_tag_id (an index-only
// scan where the visibility map allows). Its ORDER BY varies, so it is not
// generated; CountTags has its filter.
func (r tagQueries) CountedTags(ctx context.Context, search, orderBy string, page ports.Page) ([]ports.TagCount, error) {
	limit, offset := pageBounds(page)
	rows, err := r.conn.Query(ctx, `SELECT `+tagColumns+`,
       (SELECT count(*) FROM post_tags pt WHERE pt.tag_id = t.id) AS posts
FROM tags t
WHERE strpos(t.name_key, $1) > 0
ORDER BY `+orderBy+`
LIMIT $2 OFFSET $3`, search, limit, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var row db.Tag
	var posts int64
	return sqlrepo.Scan(rows, append(tagFields(&row), &posts),
		func() (ports.TagCount, error) { return ports.TagCount{Tag: tagOf(row), Posts: int(posts)}, nil })
}

func (r tagQueries) CountTags(ctx context.Context, search string) (int64, error) {
	return r.q.CountTags(ctx, search)
}
