-- Area A accounts, their personal access tokens, and the shared rate-limit counters.
-- Times are INTEGER microseconds since the Unix epoch, UTC: exact round trips and
-- index-friendly ordering.
CREATE TABLE users (
    id                INTEGER PRIMARY KEY,
    name              TEXT    NOT NULL,
    email             TEXT    NOT NULL,
    email_key         TEXT    NOT NULL,
    password_hash     TEXT    NOT NULL,
    remember_token    TEXT    NOT NULL DEFAULT '',
    email_verified_at INTEGER,
    avatar_path       TEXT    NOT NULL DEFAULT '',
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email_key);

CREATE TABLE personal_access_tokens (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL,
    abilities    TEXT    NOT NULL,
    last_used_at INTEGER,
    expires_at   INTEGER,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE UNIQUE INDEX personal_access_tokens_token_hash ON personal_access_tokens (token_hash);
CREATE INDEX personal_access_tokens_user_id ON personal_access_tokens (user_id);
CREATE INDEX personal_access_tokens_expires_at ON personal_access_tokens (expires_at);

CREATE TABLE rate_limits (
    key      TEXT    PRIMARY KEY,
    hits     INTEGER NOT NULL,
    reset_at INTEGER NOT NULL
);
