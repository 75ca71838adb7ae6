package postgres

import (
	"cmp"
	"context"
	"fmt"
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
	q *db.Queries
	// conn runs Counted, whose ORDER BY varies.
	conn  db.DBTX
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

// Lock reads the tag FOR UPDATE: a post's new link to it, whose foreign
// key takes a share of the row, waits until the transaction ends.
func (r tags) Lock(ctx context.Context, id int64) (domain.Tag, error) {
	row, err := r.q.LockTag(ctx, id)
	if err != nil {
		return domain.Tag{}, storeError(fmt.Sprintf("lock tag %d", id), err)
	}
	return tagOf(row), nil
}

func (r tags) ByName(ctx context.Context, name string) (domain.Tag, error) {
	row, err := r.q.GetTagByNameKey(ctx, strings.ToLower(name))
	if err != nil {
		return domain.Tag{}, storeError("tag by name", err)
	}
	return tagOf(row), nil
}

// Update writes the name with its key, folded in Go as in Create; a clash
// violates tags_name_key (domain.ErrTagTaken).
func (r tags) Update(ctx context.Context, t domain.Tag) error {
	op := fmt.Sprintf("update tag %d", t.ID)
	n, err := r.q.UpdateTag(ctx, db.UpdateTagParams{
		ID:        t.ID,
		Name:      t.Name,
		NameKey:   strings.ToLower(t.Name),
		Slug:      t.Slug,
		UpdatedAt: dbTime(t.UpdatedAt),
	})
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

// Move locks both tags first, so that no post gains a link to either
// meanwhile, then moves the links in one statement, which stands or falls
// whole outside a transaction too. A trashed post's tag ids name into
// instead of from as well, so that its restore brings it back under into.
func (r tags) Move(ctx context.Context, from, into int64) (int64, error) {
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

// Delete removes the tag; its links go with it by the foreign key's
// cascade.
func (r tags) Delete(ctx context.Context, id int64) error {
	op := fmt.Sprintf("delete tag %d", id)
	n, err := r.q.DeleteTag(ctx, id)
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

// tagSortColumns maps each field of ports.TagFields to what orders by it.
// Only these ever reach the ORDER BY that Counted builds; names compare by
// code point, as List's do.
var tagSortColumns = map[string]string{
	"name":       `t.name COLLATE "C"`,
	"posts":      "posts",
	"created_at": "t.created_at",
}

// Counted counts each tag's posts on post_tags_tag_id (an index-only scan
// where the visibility map allows), and the search's total with
// CountTags. Its ORDER BY varies, so it is not generated.
func (r tags) Counted(ctx context.Context, q ports.TagQuery) ([]ports.TagCount, int, error) {
	const op = "list tags with their posts"
	col, ok := tagSortColumns[cmp.Or(q.Sort.Field, "name")]
	if !ok {
		return nil, 0, fmt.Errorf("%s: %w", op, domain.InvalidField("sort", domain.RuleOf(domain.RuleIn, ports.TagFields...)))
	}
	dir := " ASC"
	if q.Sort.Desc {
		dir = " DESC"
	}
	search := strings.ToLower(q.Search)
	limit, offset := pageBounds(q.Page)
	rows, err := r.conn.Query(ctx, `SELECT `+tagColumns+`,
       (SELECT count(*) FROM post_tags pt WHERE pt.tag_id = t.id) AS posts
FROM tags t
WHERE strpos(t.name_key, $1) > 0
ORDER BY `+col+dir+`, t.id`+dir+`
LIMIT $2 OFFSET $3`, search, limit, offset)
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	defer rows.Close()
	list := []ports.TagCount{}
	var row db.Tag
	var posts int64
	fields := append(tagFields(&row), &posts)
	for rows.Next() {
		if err := rows.Scan(fields...); err != nil {
			return nil, 0, storeError(op, err)
		}
		list = append(list, ports.TagCount{Tag: tagOf(row), Posts: int(posts)})
	}
	if err := rows.Err(); err != nil {
		return nil, 0, storeError(op, err)
	}
	total, err := r.q.CountTags(ctx, search)
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	return list, int(total), nil
}
