-- Area A content: posts, the tags they carry, and comments on them, with the
-- table and index names of PostgreSQL's 0003. Deleting a user takes their
-- posts and comments with them, and deleting a post its comments and tag
-- links, so no delete is ever refused for a reference. Every foreign key has
-- an index that leads with it, so a cascade finds its rows without a scan.
--
-- The content tables are AUTOINCREMENT: their ids appear in URLs, and a plain
-- rowid would hand the id of a deleted newest post to the next one, so an old
-- link would show another post. PostgreSQL's sequences never reuse an id
-- either.
CREATE TABLE posts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    author_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title        TEXT    NOT NULL,
    slug         TEXT    NOT NULL,
    excerpt      TEXT    NOT NULL,
    body         TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('draft', 'published')),
    image_path   TEXT    NOT NULL DEFAULT '',
    published_at INTEGER,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
-- posts_slug also serves the range scan of LastSlugSuffix: the default
-- BINARY collation orders slugs byte by byte.
CREATE UNIQUE INDEX posts_slug ON posts (slug);
-- Lists run newest first, (created_at, id) descending, and page by cursor;
-- SQLite walks these indexes backwards, so neither needs a sort.
CREATE INDEX posts_created_at_id ON posts (created_at, id);
CREATE INDEX posts_author_id ON posts (author_id, created_at, id);

CREATE TABLE tags (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    -- name_key is the name lower-cased by strings.ToLower: names are unique
    -- ignoring case, Unicode letters included, which SQLite's lower() and
    -- NOCASE (ASCII only) could not promise.
    name_key   TEXT    NOT NULL,
    slug       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX tags_name_key ON tags (name_key);
CREATE INDEX tags_slug ON tags (slug);

-- post_tags is a pure link table: WITHOUT ROWID stores it in its primary
-- key's order, and post_tags_tag_id then holds (tag_id, post_id), enough to
-- answer the tag filter from the index alone.
CREATE TABLE post_tags (
    post_id INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    tag_id  INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (post_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX post_tags_tag_id ON post_tags (tag_id);

CREATE TABLE comments (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    post_id    INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
-- A post's comments are listed oldest first, (created_at, id).
CREATE INDEX comments_post_id ON comments (post_id, created_at, id);
CREATE INDEX comments_user_id ON comments (user_id);
