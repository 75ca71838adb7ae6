-- published_joined_titles indexes the published titles as published_titles
-- (0007) does, lower-cased by inkwell_lower, with their spaces taken out:
-- "gracefulworker...". A search that runs across words, "graceful worker",
-- found its candidates in published_titles through trigrams of common
-- words ("gra" AND "l w" AND "ker": 406 titles, whose posting lists cost
-- most of the page at a million posts); here the trigrams where two words
-- meet ("ulw", "lwo") are rare wherever the words are common, and the
-- phrase "ulwo" finds 422 titles in a tenth of the time. It only finds
-- candidates, each tested against the search itself after it
-- (adapters/internal/titlejoin).
CREATE VIRTUAL TABLE published_joined_titles USING fts5(
    title, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
);
INSERT INTO published_joined_titles (rowid, title)
SELECT id, replace(inkwell_lower(title), ' ', '') FROM posts WHERE status = 'published';

-- The triggers of 0011 keep it beside published_titles, in the same
-- writes.
DROP TRIGGER IF EXISTS posts_title_inserted;
DROP TRIGGER IF EXISTS posts_title_deleted;
DROP TRIGGER IF EXISTS posts_title_updated;

CREATE TRIGGER posts_title_inserted AFTER INSERT ON posts
WHEN new.status = 'published'
BEGIN
    INSERT INTO published_titles (rowid, title) VALUES (new.id, inkwell_lower(new.title));
    INSERT INTO published_joined_titles (rowid, title) VALUES (new.id, replace(inkwell_lower(new.title), ' ', ''));
    UPDATE post_counts SET title_changes = title_changes + 1 WHERE shard = new.id % 16;
END;
CREATE TRIGGER posts_title_deleted AFTER DELETE ON posts
WHEN old.status = 'published'
BEGIN
    DELETE FROM published_titles WHERE rowid = old.id;
    DELETE FROM published_joined_titles WHERE rowid = old.id;
    UPDATE post_counts SET title_changes = title_changes + 1 WHERE shard = old.id % 16;
END;
CREATE TRIGGER posts_title_updated AFTER UPDATE OF title, status ON posts
WHEN (old.status = 'published' OR new.status = 'published')
 AND (old.title IS NOT new.title OR old.status IS NOT new.status)
BEGIN
    DELETE FROM published_titles WHERE rowid = old.id;
    DELETE FROM published_joined_titles WHERE rowid = old.id;
    INSERT INTO published_titles (rowid, title)
    SELECT new.id, inkwell_lower(new.title) WHERE new.status = 'published';
    INSERT INTO published_joined_titles (rowid, title)
    SELECT new.id, replace(inkwell_lower(new.title), ' ', '') WHERE new.status = 'published';
    UPDATE post_counts SET title_changes = title_changes + 1 WHERE shard = new.id % 16;
END;
