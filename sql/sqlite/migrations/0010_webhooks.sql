-- Webhooks and their deliveries, with the table and index names of
-- PostgreSQL's 0009. SQLite has one writer, so claims never collide.
CREATE TABLE webhooks (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url             TEXT    NOT NULL,
    events          TEXT    NOT NULL,
    secret          TEXT    NOT NULL,
    failures        INTEGER NOT NULL,
    disabled_at     INTEGER,
    disabled_reason TEXT    NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX webhooks_user_id ON webhooks (user_id, id);

CREATE TABLE webhook_deliveries (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id       INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event            TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         INTEGER NOT NULL,
    next_attempt_at  INTEGER NOT NULL,
    claimed_until    INTEGER,
    last_status_code INTEGER NOT NULL,
    last_error       TEXT    NOT NULL,
    delivered_at     INTEGER,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_webhook_id ON webhook_deliveries (webhook_id, id);

CREATE TABLE webhook_cursor (
    single        INTEGER PRIMARY KEY CHECK (single = 1),
    last_event_id INTEGER NOT NULL
);
INSERT INTO webhook_cursor (single, last_event_id) VALUES (1, 0);
