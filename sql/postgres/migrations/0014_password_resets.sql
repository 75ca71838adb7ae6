-- Each account's one live password reset: the SHA-256 of the mailed token
-- (text, as token digests are kept: see tokens), keyed by the account, so a
-- new request replaces the old one and an address change does not orphan it.
CREATE TABLE password_resets (
    user_id    bigint      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    token_hash text        NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
