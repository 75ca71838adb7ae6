-- A search of one or two characters ("er", "é", "日本") matches most titles
-- or few, and no index of trigrams serves it: its page is found by walking
-- the newest posts, but its exact total counted every matching title, at a
-- million posts more than five seconds a request. short_title_counts keeps
-- that total instead: for each substring of one or two characters of the
-- lower-cased titles of the listed posts, how many titles hold it, in
-- sixteen shards by post id (id % 16, as post_counts), so that two writes
-- of posts in different shards never wait on the same rows. A total is the
-- sum of a substring's sixteen rows.
CREATE TABLE short_title_counts (
    gram text NOT NULL,
    shard smallint NOT NULL,
    titles bigint NOT NULL,
    PRIMARY KEY (gram, shard)
);

-- title_listed says which posts a public search lists, and so which
-- titles short_title_counts counts: the one place to change when that
-- condition changes.
CREATE FUNCTION title_listed(p posts) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT p.status = 'published'
$$;

-- A title's substrings are counted once each (DISTINCT by post), folded
-- as the search folds them (lower(title) LIKE lower(search)).
INSERT INTO short_title_counts (gram, shard, titles)
SELECT g, shard, count(*)
FROM (
    SELECT DISTINCT p.id, p.id % 16 AS shard, substr(lower(p.title), i, w) AS g
    FROM posts p, generate_series(1, char_length(p.title)) AS i, (VALUES (1), (2)) AS widths (w)
    WHERE title_listed(p) AND i + w - 1 <= char_length(p.title)
) AS grams
GROUP BY 1, 2;

-- The triggers upsert the rows a statement changes in (gram, shard) order,
-- so that two statements lock shared rows in the same order. The
-- substrings are written out in each rather than in a function of their
-- own: a set-returning SQL function with DISTINCT was planned again at
-- each call, and a create of a post took 2.2 to 3.4 ms instead of 1.3.
CREATE FUNCTION posts_short_titles_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO short_title_counts AS c (gram, shard, titles)
    SELECT g, shard, count(*)
    FROM (
        SELECT DISTINCT n.id, n.id % 16 AS shard, substr(lower(n.title), i, w) AS g
        FROM new_posts n, generate_series(1, char_length(n.title)) AS i, (VALUES (1), (2)) AS widths (w)
        WHERE title_listed(n) AND i + w - 1 <= char_length(n.title)
    ) AS grams
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT (gram, shard) DO UPDATE SET titles = c.titles + excluded.titles;
    RETURN NULL;
END
$$;

CREATE FUNCTION posts_short_titles_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO short_title_counts AS c (gram, shard, titles)
    SELECT g, shard, -count(*)
    FROM (
        SELECT DISTINCT o.id, o.id % 16 AS shard, substr(lower(o.title), i, w) AS g
        FROM old_posts o, generate_series(1, char_length(o.title)) AS i, (VALUES (1), (2)) AS widths (w)
        WHERE title_listed(o) AND i + w - 1 <= char_length(o.title)
    ) AS grams
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT (gram, shard) DO UPDATE SET titles = c.titles + excluded.titles;
    RETURN NULL;
END
$$;

-- An update counts only where a title or whether it is listed changed: an
-- edit of a body computes no substrings.
CREATE FUNCTION posts_short_titles_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO short_title_counts AS c (gram, shard, titles)
    SELECT g, shard, sum(d)
    FROM (
        SELECT DISTINCT n.id, n.id % 16 AS shard, substr(lower(n.title), i, w) AS g, 1 AS d
        FROM old_posts o JOIN new_posts n ON n.id = o.id,
             generate_series(1, char_length(n.title)) AS i, (VALUES (1), (2)) AS widths (w)
        WHERE title_listed(n) AND i + w - 1 <= char_length(n.title)
          AND (o.title IS DISTINCT FROM n.title OR title_listed(o) IS DISTINCT FROM title_listed(n))
        UNION ALL
        SELECT DISTINCT o.id, o.id % 16, substr(lower(o.title), i, w), -1
        FROM old_posts o JOIN new_posts n ON n.id = o.id,
             generate_series(1, char_length(o.title)) AS i, (VALUES (1), (2)) AS widths (w)
        WHERE title_listed(o) AND i + w - 1 <= char_length(o.title)
          AND (o.title IS DISTINCT FROM n.title OR title_listed(o) IS DISTINCT FROM title_listed(n))
    ) AS delta
    GROUP BY 1, 2
    HAVING sum(d) <> 0
    ORDER BY 1, 2
    ON CONFLICT (gram, shard) DO UPDATE SET titles = c.titles + excluded.titles;
    RETURN NULL;
END
$$;

CREATE FUNCTION posts_short_titles_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM short_title_counts;
    RETURN NULL;
END
$$;

CREATE TRIGGER posts_short_titles_inserted AFTER INSERT ON posts
    REFERENCING NEW TABLE AS new_posts
    FOR EACH STATEMENT EXECUTE FUNCTION posts_short_titles_inserted();
CREATE TRIGGER posts_short_titles_deleted AFTER DELETE ON posts
    REFERENCING OLD TABLE AS old_posts
    FOR EACH STATEMENT EXECUTE FUNCTION posts_short_titles_deleted();
CREATE TRIGGER posts_short_titles_updated AFTER UPDATE ON posts
    REFERENCING OLD TABLE AS old_posts NEW TABLE AS new_posts
    FOR EACH STATEMENT EXECUTE FUNCTION posts_short_titles_updated();
CREATE TRIGGER posts_short_titles_truncated AFTER TRUNCATE ON posts
    FOR EACH STATEMENT EXECUTE FUNCTION posts_short_titles_truncated();
