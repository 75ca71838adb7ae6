-- Browser sessions of Sanctum's stateful mode, kept in the database so that
-- every replica sees them. id_hash is the hex SHA-256 of the session cookie's
-- value: a leaked table hands out no live session. It is text, not char(64):
-- a char(n) key made the planner skip its index in a measurement here.
-- user_id stays null until a login binds the session, and deleting the user
-- takes their sessions with them.
CREATE TABLE sessions (
    id_hash       text        PRIMARY KEY,
    user_id       bigint      REFERENCES users (id) ON DELETE CASCADE,
    csrf_token    text        NOT NULL,
    last_activity timestamptz NOT NULL,
    created_at    timestamptz NOT NULL
);
-- sessions_user_id serves logout everywhere and the cascade of a user
-- delete; sessions_last_activity the sweep of idle sessions.
CREATE INDEX sessions_user_id ON sessions (user_id);
CREATE INDEX sessions_last_activity ON sessions (last_activity);
