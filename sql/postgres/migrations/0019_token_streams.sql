-- streamed marks a token that ever opened an event stream (Tokens.
-- MarkStreamed). A login deletes the user's earlier tokens, and records a
-- credentials.revoked event for the streams of those tokens only when one
-- of them is marked, since the record takes the event id counter's lock
-- until its commit and most tokens never read a stream. The default adds
-- the column without rewriting the table.
ALTER TABLE personal_access_tokens ADD COLUMN streamed boolean NOT NULL DEFAULT false;
