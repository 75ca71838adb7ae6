-- The outbox, with the table and index names of PostgreSQL's 0008. SQLite
-- has one writer at a time, so ids commit in the order they are handed out;
-- AUTOINCREMENT keeps an id from being handed out twice after pruning.
CREATE TABLE events (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    type              TEXT    NOT NULL,
    topic             TEXT    NOT NULL,
    created_at        INTEGER NOT NULL,
    post_id           INTEGER NOT NULL,
    post_author_id    INTEGER NOT NULL,
    comment_author_id INTEGER NOT NULL,
    draft             INTEGER NOT NULL,
    payload           TEXT    NOT NULL
);
CREATE INDEX events_created_at ON events (created_at);
CREATE INDEX events_post_id ON events (post_id, id);
