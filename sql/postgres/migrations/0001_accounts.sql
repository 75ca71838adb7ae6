-- Area A accounts, their personal access tokens, and the shared rate-limit counters.
CREATE TABLE users (
    id                bigserial   PRIMARY KEY,
    name              text        NOT NULL,
    email             text        NOT NULL,
    email_key         text        NOT NULL,
    password_hash     text        NOT NULL,
    remember_token    text        NOT NULL DEFAULT '',
    email_verified_at timestamptz,
    avatar_path       text        NOT NULL DEFAULT '',
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email_key);

CREATE TABLE personal_access_tokens (
    id           bigserial   PRIMARY KEY,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text        NOT NULL,
    token_hash   text        NOT NULL,
    abilities    text        NOT NULL,
    last_used_at timestamptz,
    expires_at   timestamptz,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX personal_access_tokens_token_hash ON personal_access_tokens (token_hash);
CREATE INDEX personal_access_tokens_user_id ON personal_access_tokens (user_id);
CREATE INDEX personal_access_tokens_expires_at ON personal_access_tokens (expires_at);

CREATE TABLE rate_limits (
    key      text        PRIMARY KEY,
    hits     integer     NOT NULL,
    reset_at timestamptz NOT NULL
);
