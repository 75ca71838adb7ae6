-- kind is the transport that started a session: 'api' (the SPA's
-- inkwell_session cookie) or 'console' (the admin console's inkwell_admin
-- cookie). Each transport accepts only its own kind, so a cookie value sent
-- under the other's name is an unknown session there (domain.SessionKind).
-- The kind is fixed when the session starts and kept when a login replaces
-- it; no statement changes it.
--
-- Sessions that exist when this runs become API sessions: a console
-- session opened before it stops working and its admin signs in again,
-- which costs less than guessing. The constant default adds the column
-- without rewriting the table; every insert names the kind all the same.
ALTER TABLE sessions ADD COLUMN kind text NOT NULL DEFAULT 'api'
    CHECK (kind IN ('api', 'console'));
