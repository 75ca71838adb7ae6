-- A version of the published titles, for the totals of title searches
-- that adapters/internal/searchtotal keeps: the sum of
-- post_counts.title_changes grows in the transaction of every statement
-- that adds, removes, retitles, publishes or unpublishes a published post,
-- so an unchanged sum means unchanged published titles. It never goes
-- down, not even when the posts are truncated.
--
-- The counters' triggers already upsert the shards of the posts a
-- statement writes, in shard order; they now raise title_changes in the
-- same upserts, so a create of a published post writes no more rows than
-- before, and the locks are taken in the same order as before.
ALTER TABLE post_counts ADD COLUMN title_changes bigint NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION posts_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO post_counts AS c (shard, published, drafts, title_changes)
    SELECT id % 16, count(*) FILTER (WHERE status = 'published'), count(*) FILTER (WHERE status = 'draft'),
           count(*) FILTER (WHERE status = 'published')
    FROM new_posts
    GROUP BY 1
    ORDER BY 1
    ON CONFLICT (shard) DO UPDATE
    SET published = c.published + excluded.published, drafts = c.drafts + excluded.drafts,
        title_changes = c.title_changes + excluded.title_changes;

    INSERT INTO author_post_counts AS c (author_id, published, drafts)
    SELECT author_id, count(*) FILTER (WHERE status = 'published'), count(*) FILTER (WHERE status = 'draft')
    FROM new_posts
    GROUP BY 1
    ORDER BY 1
    ON CONFLICT (author_id) DO UPDATE
    SET published = c.published + excluded.published, drafts = c.drafts + excluded.drafts;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION posts_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO post_counts AS c (shard, published, drafts, title_changes)
    SELECT id % 16, -count(*) FILTER (WHERE status = 'published'), -count(*) FILTER (WHERE status = 'draft'),
           count(*) FILTER (WHERE status = 'published')
    FROM old_posts
    GROUP BY 1
    ORDER BY 1
    ON CONFLICT (shard) DO UPDATE
    SET published = c.published + excluded.published, drafts = c.drafts + excluded.drafts,
        title_changes = c.title_changes + excluded.title_changes;

    -- An UPDATE locks its rows in whatever order its plan meets them.
    PERFORM 1 FROM author_post_counts
    WHERE author_id IN (SELECT author_id FROM old_posts)
    ORDER BY author_id
    FOR UPDATE;
    UPDATE author_post_counts AS c
    SET published = c.published - d.published, drafts = c.drafts - d.drafts
    FROM (
        SELECT author_id, count(*) FILTER (WHERE status = 'published') AS published,
               count(*) FILTER (WHERE status = 'draft') AS drafts
        FROM old_posts
        GROUP BY 1
    ) AS d
    WHERE c.author_id = d.author_id;
    RETURN NULL;
END
$$;

-- A changed published title counts once, in the shard of the post's new
-- id, beside the status moves.
CREATE OR REPLACE FUNCTION posts_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO post_counts AS c (shard, published, drafts, title_changes)
    SELECT shard, sum(published), sum(drafts), sum(title_changes)
    FROM (
        SELECT id % 16 AS shard, (status = 'published')::int AS published, (status = 'draft')::int AS drafts,
               0 AS title_changes
        FROM new_posts
        UNION ALL
        SELECT id % 16, -(status = 'published')::int, -(status = 'draft')::int, 0
        FROM old_posts
        UNION ALL
        SELECT n.id % 16, 0, 0, 1
        FROM new_posts n
        JOIN old_posts o ON o.id = n.id
        WHERE (o.status = 'published' OR n.status = 'published')
          AND (o.title IS DISTINCT FROM n.title OR o.status IS DISTINCT FROM n.status)
    ) AS delta
    GROUP BY shard
    HAVING sum(published) <> 0 OR sum(drafts) <> 0 OR sum(title_changes) <> 0
    ORDER BY shard
    ON CONFLICT (shard) DO UPDATE
    SET published = c.published + excluded.published, drafts = c.drafts + excluded.drafts,
        title_changes = c.title_changes + excluded.title_changes;

    INSERT INTO author_post_counts AS c (author_id, published, drafts)
    SELECT author_id, sum(published), sum(drafts)
    FROM (
        SELECT author_id, (status = 'published')::int AS published, (status = 'draft')::int AS drafts
        FROM new_posts
        UNION ALL
        SELECT author_id, -(status = 'published')::int, -(status = 'draft')::int
        FROM old_posts
    ) AS delta
    GROUP BY author_id
    HAVING sum(published) <> 0 OR sum(drafts) <> 0
    ORDER BY author_id
    ON CONFLICT (author_id) DO UPDATE
    SET published = c.published + excluded.published, drafts = c.drafts + excluded.drafts;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION posts_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE post_counts SET published = 0, drafts = 0, title_changes = title_changes + 1;
    DELETE FROM author_post_counts;
    RETURN NULL;
END
$$;
