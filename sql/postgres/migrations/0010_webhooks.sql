-- Webhooks: a user's subscription of a URL to the events of their posts and
-- comments. events is a JSON array of event types; failures counts failed
-- attempts in a row, and a webhook that failed too often is disabled, with
-- the reason, until its owner enables it again.
CREATE TABLE webhooks (
    id              bigserial   PRIMARY KEY,
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url             text        NOT NULL,
    events          jsonb       NOT NULL,
    secret          text        NOT NULL,
    failures        integer     NOT NULL,
    disabled_at     timestamptz,
    disabled_reason text        NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
CREATE INDEX webhooks_user_id ON webhooks (user_id, id);

-- One row per event and webhook. A worker claims due rows with FOR UPDATE
-- SKIP LOCKED and leases them until claimed_until, so that a replica that
-- dies mid-attempt leaves the delivery to another once the lease runs out.
-- event is the event as the domain shapes it, kept here since the outbox
-- may prune it before the last retry.
CREATE TABLE webhook_deliveries (
    id               bigserial   PRIMARY KEY,
    webhook_id       bigint      NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event            jsonb       NOT NULL,
    status           text        NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts         integer     NOT NULL,
    next_attempt_at  timestamptz NOT NULL,
    claimed_until    timestamptz,
    last_status_code integer     NOT NULL,
    last_error       text        NOT NULL,
    delivered_at     timestamptz,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_webhook_id ON webhook_deliveries (webhook_id, id);

-- The id of the last event turned into deliveries. Its one row is locked
-- by the replica that fans events out; the others skip it.
CREATE TABLE webhook_cursor (
    single        boolean PRIMARY KEY DEFAULT true CHECK (single),
    last_event_id bigint  NOT NULL
);
INSERT INTO webhook_cursor (single, last_event_id) VALUES (true, 0);
