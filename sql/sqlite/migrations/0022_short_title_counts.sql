-- A search of one or two characters ("er", "é", "日本") matches most titles
-- or few, and no index of trigrams serves it: its page is found by walking
-- the newest posts, but its exact total counted every matching title, at a
-- million posts more than five seconds a request. short_title_counts keeps
-- that total instead: for each substring of one or two characters of the
-- titles of the published posts, lower-cased by inkwell_lower as the search
-- folds them, how many titles hold it. inkwell_short_grams
-- (adapters/sqlite) returns a title's distinct substrings as a JSON array.
CREATE TABLE short_title_counts (
    gram TEXT PRIMARY KEY,
    titles INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO short_title_counts (gram, titles)
SELECT g.value, count(*)
FROM posts p, json_each(inkwell_short_grams(p.title)) AS g
WHERE p.status = 'published'
GROUP BY 1;

-- The triggers of 0016 keep the counts beside published_titles, in the
-- same writes: their WHEN clauses (and the update's WHERE) are where a
-- post counts as listed.
DROP TRIGGER IF EXISTS posts_title_inserted;
DROP TRIGGER IF EXISTS posts_title_deleted;
DROP TRIGGER IF EXISTS posts_title_updated;

CREATE TRIGGER posts_title_inserted AFTER INSERT ON posts
WHEN new.status = 'published'
BEGIN
    INSERT INTO published_titles (rowid, title) VALUES (new.id, inkwell_lower(new.title));
    INSERT INTO published_joined_titles (rowid, title) VALUES (new.id, replace(inkwell_lower(new.title), ' ', ''));
    INSERT INTO short_title_counts (gram, titles)
    SELECT value, 1 FROM json_each(inkwell_short_grams(new.title)) WHERE true
    ON CONFLICT (gram) DO UPDATE SET titles = titles + 1;
    UPDATE post_counts SET title_changes = title_changes + 1 WHERE shard = new.id % 16;
END;
CREATE TRIGGER posts_title_deleted AFTER DELETE ON posts
WHEN old.status = 'published'
BEGIN
    DELETE FROM published_titles WHERE rowid = old.id;
    DELETE FROM published_joined_titles WHERE rowid = old.id;
    UPDATE short_title_counts SET titles = titles - 1
    WHERE gram IN (SELECT value FROM json_each(inkwell_short_grams(old.title)));
    UPDATE post_counts SET title_changes = title_changes + 1 WHERE shard = old.id % 16;
END;
CREATE TRIGGER posts_title_updated AFTER UPDATE OF title, status ON posts
WHEN (old.status = 'published' OR new.status = 'published')
 AND (old.title IS NOT new.title OR old.status IS NOT new.status)
BEGIN
    DELETE FROM published_titles WHERE rowid = old.id;
    DELETE FROM published_joined_titles WHERE rowid = old.id;
    UPDATE short_title_counts SET titles = titles - 1
    WHERE old.status = 'published' AND gram IN (SELECT value FROM json_each(inkwell_short_grams(old.title)));
    INSERT INTO published_titles (rowid, title)
    SELECT new.id, inkwell_lower(new.title) WHERE new.status = 'published';
    INSERT INTO published_joined_titles (rowid, title)
    SELECT new.id, replace(inkwell_lower(new.title), ' ', '') WHERE new.status = 'published';
    INSERT INTO short_title_counts (gram, titles)
    SELECT value, 1 FROM json_each(inkwell_short_grams(new.title)) WHERE new.status = 'published'
    ON CONFLICT (gram) DO UPDATE SET titles = titles + 1;
    UPDATE post_counts SET title_changes = title_changes + 1 WHERE shard = new.id % 16;
END;
