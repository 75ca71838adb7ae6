-- The outbox of mails. A mail is inserted in the transaction that makes
-- what it is about, so it exists if and only if that committed. Workers
-- claim due rows with FOR UPDATE SKIP LOCKED and lease them until
-- claimed_until, so that a replica that dies mid-attempt leaves the mail to
-- another once the lease runs out. message_id is fixed at insert, so that
-- retries send the same message. The bodies hold live links: they are
-- emptied once the mail is sent, has failed or has expired.
CREATE TABLE mail_outbox (
    id              bigserial   PRIMARY KEY,
    message_id      text        NOT NULL UNIQUE,
    recipient       text        NOT NULL,
    subject         text        NOT NULL,
    text_body       text        NOT NULL,
    html_body       text        NOT NULL,
    status          text        NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'expired')),
    attempts        integer     NOT NULL,
    next_attempt_at timestamptz NOT NULL,
    claimed_until   timestamptz,
    last_error      text        NOT NULL,
    sent_at         timestamptz,
    expires_at      timestamptz NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX mail_outbox_expiry ON mail_outbox (expires_at) WHERE status = 'pending';
