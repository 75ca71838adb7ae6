-- Idempotency-Key records of POST requests, kept in the database so that a
-- retry reaching another replica is answered alike. key is the caller and
-- the key the caller chose; fingerprint the digest of the request that
-- claimed it. status is 0 while that request runs, its answer's status once
-- it has finished. expires_at ends the running request's lease, then the
-- replay period; idempotency_keys_expires_at serves the pruning.
CREATE TABLE idempotency_keys (
    key          text        PRIMARY KEY,
    fingerprint  text        NOT NULL,
    status       integer     NOT NULL,
    content_type text        NOT NULL,
    location     text        NOT NULL,
    body         bytea       NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
