-- Deep pages and title search at a million posts.
--
-- posts_published holds the published posts in list order. A page deep in
-- the public list is found by skipping its offset in this index alone,
-- which holds the post id (the rowid) beside the order: walking
-- posts_created_at_id instead reads every skipped post's row for its
-- status. Being partial, it is used wherever a query says
-- p.status = 'published', and stays out of every other list's way.
CREATE INDEX posts_published ON posts (created_at, id) WHERE status = 'published';

-- published_titles indexes the titles of the published posts, lower-cased by
-- inkwell_lower (strings.ToLower), by their trigrams: a phrase of three
-- characters or more then finds exactly the titles that contain it, a
-- lookup instead of reading every title. The text is folded before it is
-- indexed and the tokenizer keeps case, so that the index folds as the
-- search does (the tokenizer's own folding follows other rules). It holds
-- no copy of the titles (content='') and deletes by rowid
-- (contentless_delete). Drafts stay out: they are visible to their author
-- only, whose posts posts_author_id finds, and leaving them out lets the
-- index alone count a public search.
CREATE VIRTUAL TABLE published_titles USING fts5(
    title, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
);
INSERT INTO published_titles (rowid, title)
SELECT id, inkwell_lower(title) FROM posts WHERE status = 'published';

-- The triggers keep published_titles in the transaction of every write of a
-- post, the cascade of a user deletion included.
CREATE TRIGGER posts_title_inserted AFTER INSERT ON posts
WHEN new.status = 'published'
BEGIN
    INSERT INTO published_titles (rowid, title) VALUES (new.id, inkwell_lower(new.title));
END;
CREATE TRIGGER posts_title_deleted AFTER DELETE ON posts
WHEN old.status = 'published'
BEGIN
    DELETE FROM published_titles WHERE rowid = old.id;
END;
CREATE TRIGGER posts_title_updated AFTER UPDATE OF title, status ON posts
WHEN old.status = 'published' OR new.status = 'published'
BEGIN
    DELETE FROM published_titles WHERE rowid = old.id;
    INSERT INTO published_titles (rowid, title)
    SELECT new.id, inkwell_lower(new.title) WHERE new.status = 'published';
END;
