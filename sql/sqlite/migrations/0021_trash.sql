-- The trash: posts and comments deleted without being purged. A trashed
-- row leaves the live table for these, stamped with deleted_at, so every
-- read, count, search and trigger-kept counter of the live tables treats it
-- as removed, and their plans stay what they were; a restore moves it back
-- with its id. A post's comments trashed with it carry its deleted_at and
-- come back with it; a comment trashed before keeps its own, earlier stamp.
-- tag_ids is the JSON array of the post's tag ids when it was trashed.
CREATE TABLE trashed_posts (
    id           INTEGER PRIMARY KEY,
    author_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title        TEXT    NOT NULL,
    slug         TEXT    NOT NULL,
    excerpt      TEXT    NOT NULL,
    body         TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    image_path   TEXT    NOT NULL,
    published_at INTEGER,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    tag_ids      TEXT    NOT NULL DEFAULT '[]',
    deleted_at   INTEGER NOT NULL
);
-- An author's trash, most recently trashed first; the retention purge,
-- oldest first.
CREATE INDEX trashed_posts_author ON trashed_posts (author_id, deleted_at, id);
CREATE INDEX trashed_posts_deleted_at ON trashed_posts (deleted_at, id);

-- post_id names a live or a trashed post, so it has no foreign key; the
-- purge of a post and the deletion of an account remove its comments here.
CREATE TABLE trashed_comments (
    id         INTEGER PRIMARY KEY,
    post_id    INTEGER NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    deleted_at INTEGER NOT NULL
);
CREATE INDEX trashed_comments_post ON trashed_comments (post_id, deleted_at);
CREATE INDEX trashed_comments_user ON trashed_comments (user_id, deleted_at, id);
CREATE INDEX trashed_comments_deleted_at ON trashed_comments (deleted_at, id);
