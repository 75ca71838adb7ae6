-- The outbox: every change of posts, comments and area B's records appends
-- its event here in the transaction that makes the change.
--
-- Readers resume after the last id they saw, so ids must become visible in
-- id order: an id that commits after a larger one would be skipped. A
-- sequence hands out ids as transactions ask, not as they commit, so ids
-- come from event_ids instead, one row whose update each appending
-- transaction holds until it commits. Appenders thus commit one after the
-- other from their append on, which is why a transaction appends last, and
-- an id is never handed out twice, even after pruning.
CREATE TABLE event_ids (
    single  boolean PRIMARY KEY DEFAULT true CHECK (single),
    last_id bigint  NOT NULL
);
INSERT INTO event_ids (single, last_id) VALUES (true, 0);

-- post_id, post_author_id, comment_author_id and draft decide who may see
-- an event (0 and false for area B's records); the payload is the
-- resource's snapshot, as the domain shapes it.
CREATE TABLE events (
    id                bigint      PRIMARY KEY,
    type              text        NOT NULL,
    topic             text        NOT NULL,
    created_at        timestamptz NOT NULL,
    post_id           bigint      NOT NULL,
    post_author_id    bigint      NOT NULL,
    comment_author_id bigint      NOT NULL,
    draft             boolean     NOT NULL,
    payload           jsonb       NOT NULL
);
-- events_created_at serves pruning; events_post_id the readers of one post.
CREATE INDEX events_created_at ON events (created_at);
CREATE INDEX events_post_id ON events (post_id, id);
