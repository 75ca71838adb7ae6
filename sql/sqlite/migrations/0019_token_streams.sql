-- streamed marks a token that ever opened an event stream, as
-- PostgreSQL's 0019.
ALTER TABLE personal_access_tokens ADD COLUMN streamed INTEGER NOT NULL DEFAULT 0 CHECK (streamed IN (0, 1));
