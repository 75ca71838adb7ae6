-- Browser sessions of Sanctum's stateful mode, with the table and index names
-- of PostgreSQL's 0005. id_hash is the hex SHA-256 of the session cookie's
-- value: a leaked file hands out no live session. user_id stays null until a
-- login binds the session, and deleting the user takes their sessions with
-- them.
--
-- The table is WITHOUT ROWID: every request that carries a session cookie
-- looks it up by id_hash, and keyed on it the row is found in one B-tree
-- instead of an index and then the table. The rows are small, as such tables
-- should be.
CREATE TABLE sessions (
    id_hash       TEXT    NOT NULL PRIMARY KEY,
    user_id       INTEGER REFERENCES users (id) ON DELETE CASCADE,
    csrf_token    TEXT    NOT NULL,
    last_activity INTEGER NOT NULL,
    created_at    INTEGER NOT NULL
) WITHOUT ROWID;
-- sessions_user_id serves logout everywhere and the cascade of a user
-- delete; sessions_last_activity the sweep of idle sessions.
CREATE INDEX sessions_user_id ON sessions (user_id);
CREATE INDEX sessions_last_activity ON sessions (last_activity);
