-- Admin rights and the console's audit log, as PostgreSQL's 0015. SQLite
-- has no trigram index for the account search: a search reads the users
-- table (100k rows take a few milliseconds); the unsearched list walks the
-- primary key.
ALTER TABLE users ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1));
CREATE INDEX users_admins ON users (id) WHERE is_admin = 1;

CREATE TABLE admin_audit (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    at           INTEGER NOT NULL,
    admin_id     INTEGER NOT NULL,
    admin_email  TEXT    NOT NULL,
    action       TEXT    NOT NULL,
    subject_type TEXT    NOT NULL,
    subject_id   INTEGER NOT NULL,
    address      TEXT    NOT NULL
);

CREATE INDEX webhook_deliveries_failures ON webhook_deliveries (updated_at, id) WHERE last_error <> '';
CREATE INDEX mail_outbox_failures ON mail_outbox (updated_at, id) WHERE last_error <> '';
CREATE INDEX mail_outbox_status ON mail_outbox (status, id);
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (id) WHERE status = 'failed';
CREATE INDEX webhooks_failing ON webhooks ((disabled_at IS NULL), failures DESC, id);
CREATE INDEX posts_drafts ON posts (created_at, id) WHERE status = 'draft';

-- The number of accounts, kept as PostgreSQL's user_counts keeps it; SQLite
-- has one writer at a time, so one row serves.
CREATE TABLE user_counts (
    single INTEGER PRIMARY KEY CHECK (single = 1),
    users  INTEGER NOT NULL
);
INSERT INTO user_counts (single, users) SELECT 1, count(*) FROM users;
CREATE TRIGGER users_count_inserted AFTER INSERT ON users
BEGIN
    UPDATE user_counts SET users = users + 1;
END;
CREATE TRIGGER users_count_deleted AFTER DELETE ON users
BEGIN
    UPDATE user_counts SET users = users - 1;
END;
