-- Admin rights and the console's audit log (DESIGN §10). Only the command
-- line sets is_admin; the partial index keeps "inkwell admin list" and the
-- check of a console request to the few admins.
ALTER TABLE users ADD COLUMN is_admin boolean NOT NULL DEFAULT false;
CREATE INDEX users_admins ON users (id) WHERE is_admin;

-- The console searches accounts by a substring of the name or the e-mail,
-- ignoring case: trigram indexes serve both sides of the OR (a bitmap OR
-- of the two), as posts_title_trgm (0004) serves title searches. email_key
-- is the address lower-cased already.
CREATE INDEX users_name_trgm ON users USING gin (lower(name) gin_trgm_ops);
CREATE INDEX users_email_key_trgm ON users USING gin (email_key gin_trgm_ops);

-- One row per admin action, written in the action's transaction. No
-- foreign key: a row outlives the admin's account and its subject, so it
-- keeps the admin's e-mail as it was.
CREATE TABLE admin_audit (
    id           bigserial   PRIMARY KEY,
    at           timestamptz NOT NULL,
    admin_id     bigint      NOT NULL,
    admin_email  text        NOT NULL,
    action       text        NOT NULL,
    subject_type text        NOT NULL,
    subject_id   bigint      NOT NULL,
    address      text        NOT NULL
);

-- The overview's recent failures and the webhooks page, failing first.
CREATE INDEX webhook_deliveries_failures ON webhook_deliveries (updated_at, id) WHERE last_error <> '';
CREATE INDEX mail_outbox_failures ON mail_outbox (updated_at, id) WHERE last_error <> '';
CREATE INDEX mail_outbox_status ON mail_outbox (status, id);
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (id) WHERE status = 'failed';
CREATE INDEX webhooks_failing ON webhooks ((disabled_at IS NULL), failures DESC, id);
CREATE INDEX posts_drafts ON posts (created_at, id) WHERE status = 'draft';

-- The console's unsearched list of accounts shows their number on every
-- page; counting 100k rows each time cost 10-40 ms. user_counts keeps it,
-- in 16 shards by id as post_counts (0006) does, so that concurrent
-- registrations do not queue on one row. The lock keeps writers out while
-- the counts are filled.
LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE;
CREATE TABLE user_counts (
    shard smallint PRIMARY KEY CHECK (shard >= 0 AND shard < 16),
    users bigint   NOT NULL
);
INSERT INTO user_counts (shard, users)
SELECT s, count(u.id) FROM generate_series(0, 15) AS s LEFT JOIN users u ON u.id % 16 = s GROUP BY s;

CREATE FUNCTION users_count_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE user_counts AS c SET users = c.users + n.k
        FROM (SELECT id % 16 AS shard, count(*) AS k FROM new_users GROUP BY 1) AS n
        WHERE c.shard = n.shard;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE user_counts AS c SET users = c.users - o.k
        FROM (SELECT id % 16 AS shard, count(*) AS k FROM old_users GROUP BY 1) AS o
        WHERE c.shard = o.shard;
    ELSE
        UPDATE user_counts SET users = 0;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER users_count_inserted AFTER INSERT ON users
    REFERENCING NEW TABLE AS new_users
    FOR EACH STATEMENT EXECUTE FUNCTION users_count_changed();
CREATE TRIGGER users_count_deleted AFTER DELETE ON users
    REFERENCING OLD TABLE AS old_users
    FOR EACH STATEMENT EXECUTE FUNCTION users_count_changed();
CREATE TRIGGER users_count_truncated AFTER TRUNCATE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION users_count_changed();
