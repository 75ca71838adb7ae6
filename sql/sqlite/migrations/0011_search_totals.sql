-- A version of the published titles, for the totals of title searches
-- that adapters/internal/searchtotal keeps: the sum of
-- post_counts.title_changes grows in the transaction of every write that
-- adds, removes, retitles, publishes or unpublishes a published post, so
-- an unchanged sum means unchanged published titles. It never goes down.
--
-- The triggers that keep published_titles are the ones that fire on
-- exactly those writes; they now also raise the sum, in the shard of the
-- post's id as PostgreSQL does. An update that leaves the title and the
-- status as they were changes neither the index nor the sum.
ALTER TABLE post_counts ADD COLUMN title_changes INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER IF EXISTS posts_title_inserted;
DROP TRIGGER IF EXISTS posts_title_deleted;
DROP TRIGGER IF EXISTS posts_title_updated;

CREATE TRIGGER posts_title_inserted AFTER INSERT ON posts
WHEN new.status = 'published'
BEGIN
    INSERT INTO published_titles (rowid, title) VALUES (new.id, inkwell_lower(new.title));
    UPDATE post_counts SET title_changes = title_changes + 1 WHERE shard = new.id % 16;
END;
CREATE TRIGGER posts_title_deleted AFTER DELETE ON posts
WHEN old.status = 'published'
BEGIN
    DELETE FROM published_titles WHERE rowid = old.id;
    UPDATE post_counts SET title_changes = title_changes + 1 WHERE shard = old.id % 16;
END;
CREATE TRIGGER posts_title_updated AFTER UPDATE OF title, status ON posts
WHEN (old.status = 'published' OR new.status = 'published')
 AND (old.title IS NOT new.title OR old.status IS NOT new.status)
BEGIN
    DELETE FROM published_titles WHERE rowid = old.id;
    INSERT INTO published_titles (rowid, title)
    SELECT new.id, inkwell_lower(new.title) WHERE new.status = 'published';
    UPDATE post_counts SET title_changes = title_changes + 1 WHERE shard = new.id % 16;
END;
