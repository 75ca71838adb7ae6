-- The outbox of mails, with the table and index names of PostgreSQL's
-- 0013. SQLite has one writer, so claims never collide.
CREATE TABLE mail_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id      TEXT    NOT NULL UNIQUE,
    recipient       TEXT    NOT NULL,
    subject         TEXT    NOT NULL,
    text_body       TEXT    NOT NULL,
    html_body       TEXT    NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'expired')),
    attempts        INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    claimed_until   INTEGER,
    last_error      TEXT    NOT NULL,
    sent_at         INTEGER,
    expires_at      INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX mail_outbox_expiry ON mail_outbox (expires_at) WHERE status = 'pending';
