-- Post counters, with the table names and shapes of PostgreSQL's 0006: the
-- exact totals of the post lists without counting rows. count(*) of the
-- published posts reads every one of them (tens of milliseconds at 100,000
-- posts); these tables answer the lists whose filter is a status, a viewer
-- and an author (adapters/internal/postcount) with a few rows. Triggers keep them
-- in the transaction of every write that changes them: creates, status
-- changes, deletes, the cascade of a user deletion and the seeder's inserts
-- alike. SQLite has row triggers only, so each costs two small writes per
-- post written. The migration runs in an immediate transaction, so no
-- writer slips in between the fills and the triggers.

-- post_counts holds the published posts and drafts of everybody in 16 rows
-- by post id (id % 16), summed when read. SQLite admits one writer at a
-- time, so the split spreads no contention here as it does on PostgreSQL;
-- it keeps one schema and one reading of it for both stores, and summing 16
-- rows costs next to nothing.
CREATE TABLE post_counts (
    shard     INTEGER PRIMARY KEY CHECK (shard >= 0 AND shard < 16),
    published INTEGER NOT NULL,
    drafts    INTEGER NOT NULL
);
WITH RECURSIVE shards(shard) AS (SELECT 0 UNION ALL SELECT shard + 1 FROM shards WHERE shard < 15)
INSERT INTO post_counts (shard, published, drafts)
SELECT s.shard, count(p.id) FILTER (WHERE p.status = 'published'), count(p.id) FILTER (WHERE p.status = 'draft')
FROM shards s
LEFT JOIN posts p ON p.id % 16 = s.shard
GROUP BY s.shard;

-- author_post_counts holds each author's published posts and drafts, for a
-- viewer's own drafts and for the lists of one author; the row goes with
-- its user.
CREATE TABLE author_post_counts (
    author_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    published INTEGER NOT NULL,
    drafts    INTEGER NOT NULL
);
INSERT INTO author_post_counts (author_id, published, drafts)
SELECT author_id, count(*) FILTER (WHERE status = 'published'), count(*) FILTER (WHERE status = 'draft')
FROM posts
GROUP BY author_id;

CREATE TRIGGER posts_count_inserted AFTER INSERT ON posts
BEGIN
    UPDATE post_counts
    SET published = published + (NEW.status = 'published'), drafts = drafts + (NEW.status = 'draft')
    WHERE shard = NEW.id % 16;
    INSERT INTO author_post_counts (author_id, published, drafts)
    VALUES (NEW.author_id, NEW.status = 'published', NEW.status = 'draft')
    ON CONFLICT (author_id) DO UPDATE
    SET published = published + excluded.published, drafts = drafts + excluded.drafts;
END;

-- The author's row is updated, never inserted: when a user deletion
-- cascades to their posts, their row may already be gone with them.
CREATE TRIGGER posts_count_deleted AFTER DELETE ON posts
BEGIN
    UPDATE post_counts
    SET published = published - (OLD.status = 'published'), drafts = drafts - (OLD.status = 'draft')
    WHERE shard = OLD.id % 16;
    UPDATE author_post_counts
    SET published = published - (OLD.status = 'published'), drafts = drafts - (OLD.status = 'draft')
    WHERE author_id = OLD.author_id;
END;

-- An update that changes neither status nor author (nor id) moves nothing
-- and fires nothing.
CREATE TRIGGER posts_count_updated AFTER UPDATE OF id, author_id, status ON posts
WHEN OLD.status IS NOT NEW.status OR OLD.author_id IS NOT NEW.author_id OR OLD.id IS NOT NEW.id
BEGIN
    UPDATE post_counts
    SET published = published - (OLD.status = 'published'), drafts = drafts - (OLD.status = 'draft')
    WHERE shard = OLD.id % 16;
    UPDATE post_counts
    SET published = published + (NEW.status = 'published'), drafts = drafts + (NEW.status = 'draft')
    WHERE shard = NEW.id % 16;
    UPDATE author_post_counts
    SET published = published - (OLD.status = 'published'), drafts = drafts - (OLD.status = 'draft')
    WHERE author_id = OLD.author_id;
    INSERT INTO author_post_counts (author_id, published, drafts)
    VALUES (NEW.author_id, NEW.status = 'published', NEW.status = 'draft')
    ON CONFLICT (author_id) DO UPDATE
    SET published = published + excluded.published, drafts = drafts + excluded.drafts;
END;
