-- Post counters: the exact totals of the post lists without counting rows.
-- count(*) of the published posts reads every one of them (tens of
-- milliseconds at 100,000 posts); these tables answer the lists whose filter
-- is a status, a viewer and an author (adapters/internal/postcount) with a few
-- rows. Triggers keep them in the transaction of every write that changes
-- them: creates, status changes, deletes, the cascade of a user deletion
-- and bulk loads by COPY alike.
--
-- No writer may slip in between the fill below and the triggers that take
-- over from it.
LOCK TABLE posts IN SHARE ROW EXCLUSIVE MODE;

-- post_counts holds the published posts and drafts of everybody, split into
-- 16 rows by post id (id % 16) and summed when read: a single row that every
-- create updated would make concurrent creates wait for each other's commit,
-- while consecutive ids fall on distinct rows.
CREATE TABLE post_counts (
    shard     smallint PRIMARY KEY CHECK (shard >= 0 AND shard < 16),
    published bigint   NOT NULL,
    drafts    bigint   NOT NULL
);
INSERT INTO post_counts (shard, published, drafts)
SELECT s, count(p.id) FILTER (WHERE p.status = 'published'), count(p.id) FILTER (WHERE p.status = 'draft')
FROM generate_series(0, 15) AS s
LEFT JOIN posts p ON p.id % 16 = s
GROUP BY s;

-- author_post_counts holds each author's published posts and drafts, for a
-- viewer's own drafts and for the lists of one author. One row per author
-- rather than one per (author, status): a status change updates one row, and
-- one look-up answers both counts. The row goes with its user.
CREATE TABLE author_post_counts (
    author_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    published bigint NOT NULL,
    drafts    bigint NOT NULL
);
INSERT INTO author_post_counts (author_id, published, drafts)
SELECT author_id, count(*) FILTER (WHERE status = 'published'), count(*) FILTER (WHERE status = 'draft')
FROM posts
GROUP BY author_id;

-- The triggers run once per statement and read the statement's rows from
-- its transition tables, so that a COPY of a million posts costs one
-- aggregate and a few hundred upserts rather than a million trigger calls.
-- Every function locks its rows in key order, shards first and then
-- authors, so that two statements that touch several rows take their locks
-- in one order and never deadlock: an INSERT ... SELECT ... ORDER BY upserts
-- its rows in that order.

CREATE FUNCTION posts_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO post_counts AS c (shard, published, drafts)
    SELECT id % 16, count(*) FILTER (WHERE status = 'published'), count(*) FILTER (WHERE status = 'draft')
    FROM new_posts
    GROUP BY 1
    ORDER BY 1
    ON CONFLICT (shard) DO UPDATE
    SET published = c.published + excluded.published, drafts = c.drafts + excluded.drafts;

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

-- posts_count_deleted subtracts the deleted posts. The authors' rows are
-- updated, never inserted: when a user deletion cascades to their posts,
-- their row may already be gone with them, and an insert would then refer
-- to a deleted user.
CREATE FUNCTION posts_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO post_counts AS c (shard, published, drafts)
    SELECT id % 16, -count(*) FILTER (WHERE status = 'published'), -count(*) FILTER (WHERE status = 'draft')
    FROM old_posts
    GROUP BY 1
    ORDER BY 1
    ON CONFLICT (shard) DO UPDATE
    SET published = c.published + excluded.published, drafts = c.drafts + excluded.drafts;

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

-- posts_count_updated moves the posts whose status (or author) changed, and
-- writes nothing for an update that changed neither: the delta of each
-- shard and author is then zero.
CREATE FUNCTION posts_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO post_counts AS c (shard, published, drafts)
    SELECT shard, sum(published), sum(drafts)
    FROM (
        SELECT id % 16 AS shard, (status = 'published')::int AS published, (status = 'draft')::int AS drafts
        FROM new_posts
        UNION ALL
        SELECT id % 16, -(status = 'published')::int, -(status = 'draft')::int
        FROM old_posts
    ) AS delta
    GROUP BY shard
    HAVING sum(published) <> 0 OR sum(drafts) <> 0
    ORDER BY shard
    ON CONFLICT (shard) DO UPDATE
    SET published = c.published + excluded.published, drafts = c.drafts + excluded.drafts;

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

-- posts_count_truncated empties the counters with the table.
CREATE FUNCTION posts_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE post_counts SET published = 0, drafts = 0;
    DELETE FROM author_post_counts;
    RETURN NULL;
END
$$;

CREATE TRIGGER posts_count_inserted AFTER INSERT ON posts
    REFERENCING NEW TABLE AS new_posts
    FOR EACH STATEMENT EXECUTE FUNCTION posts_count_inserted();
CREATE TRIGGER posts_count_deleted AFTER DELETE ON posts
    REFERENCING OLD TABLE AS old_posts
    FOR EACH STATEMENT EXECUTE FUNCTION posts_count_deleted();
CREATE TRIGGER posts_count_updated AFTER UPDATE ON posts
    REFERENCING OLD TABLE AS old_posts NEW TABLE AS new_posts
    FOR EACH STATEMENT EXECUTE FUNCTION posts_count_updated();
CREATE TRIGGER posts_count_truncated AFTER TRUNCATE ON posts
    FOR EACH STATEMENT EXECUTE FUNCTION posts_count_truncated();
