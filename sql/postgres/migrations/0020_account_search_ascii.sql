-- The console's account search ignores ASCII case only, as SQLite's
-- lower() does (ports.AdminUserQuery): lower() under the C collation folds
-- A to Z and nothing else, whatever the database's own collation, so the
-- name's trigram index is rebuilt on that expression.
DROP INDEX users_name_trgm;
CREATE INDEX users_name_trgm ON users USING gin (lower(name COLLATE "C") gin_trgm_ops);
