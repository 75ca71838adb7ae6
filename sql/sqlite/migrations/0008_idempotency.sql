-- Idempotency-Key records of POST requests, with the names of PostgreSQL's
-- 0008. status is 0 while the request that claimed the key runs; expires_at
-- ends its lease, then the replay period.
CREATE TABLE idempotency_keys (
    key          TEXT    NOT NULL PRIMARY KEY,
    fingerprint  TEXT    NOT NULL,
    status       INTEGER NOT NULL,
    content_type TEXT    NOT NULL,
    location     TEXT    NOT NULL,
    body         BLOB    NOT NULL,
    expires_at   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
