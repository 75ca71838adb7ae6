-- Title search is a case-insensitive substring match (lower(title) LIKE
-- lower(pattern)), which no B-tree can serve; a trigram index on the
-- lower-cased title can, for any pattern of three characters or more. The
-- expression must be the one the queries use, or the planner ignores it.
-- pg_trgm is a trusted extension: any role with CREATE on the database may
-- create it, superuser or not.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX posts_title_trgm ON posts USING gin (lower(title) gin_trgm_ops);
