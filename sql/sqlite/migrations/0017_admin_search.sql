-- The console's searches at a million posts and a hundred thousand
-- accounts (adapters/internal/adminsearch). Without an index, each read
-- every title or every account: 790 ms for one title search at 200,000
-- posts.
--
-- draft_titles is published_titles (0007) for the posts that are not
-- published: the two together index every title, folded by inkwell_lower
-- before the case-keeping trigram tokenizer sees it, so that a phrase of
-- three characters or more finds the titles holding it. Drafts are about
-- one post in seven, and the published ones are indexed already.
CREATE VIRTUAL TABLE draft_titles USING fts5(
    title, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
);
INSERT INTO draft_titles (rowid, title)
SELECT id, inkwell_lower(title) FROM posts WHERE status <> 'published';

CREATE TRIGGER posts_draft_title_inserted AFTER INSERT ON posts
WHEN new.status <> 'published'
BEGIN
    INSERT INTO draft_titles (rowid, title) VALUES (new.id, inkwell_lower(new.title));
END;
CREATE TRIGGER posts_draft_title_deleted AFTER DELETE ON posts
WHEN old.status <> 'published'
BEGIN
    DELETE FROM draft_titles WHERE rowid = old.id;
END;
CREATE TRIGGER posts_draft_title_updated AFTER UPDATE OF title, status ON posts
WHEN (old.status <> 'published' OR new.status <> 'published')
 AND (old.title IS NOT new.title OR old.status IS NOT new.status)
BEGIN
    DELETE FROM draft_titles WHERE rowid = old.id;
    INSERT INTO draft_titles (rowid, title)
    SELECT new.id, inkwell_lower(new.title) WHERE new.status <> 'published';
END;

-- account_search indexes the accounts' names, lower-cased by lower() as
-- the search folds them (ASCII letters only), and e-mail keys, for the
-- console's search by a substring of either.
CREATE VIRTUAL TABLE account_search USING fts5(
    name, email_key, content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
);
INSERT INTO account_search (rowid, name, email_key)
SELECT id, lower(name), email_key FROM users;

CREATE TRIGGER users_search_inserted AFTER INSERT ON users
BEGIN
    INSERT INTO account_search (rowid, name, email_key) VALUES (new.id, lower(new.name), new.email_key);
END;
CREATE TRIGGER users_search_deleted AFTER DELETE ON users
BEGIN
    DELETE FROM account_search WHERE rowid = old.id;
END;
CREATE TRIGGER users_search_updated AFTER UPDATE OF name, email_key ON users
WHEN old.name IS NOT new.name OR old.email_key IS NOT new.email_key
BEGIN
    DELETE FROM account_search WHERE rowid = old.id;
    INSERT INTO account_search (rowid, name, email_key) VALUES (new.id, lower(new.name), new.email_key);
END;
