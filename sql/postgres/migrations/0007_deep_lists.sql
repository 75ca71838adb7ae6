-- posts_published holds the published posts in list order. A page deep in
-- the public list is found by skipping its offset in this index alone, an
-- index-only scan wherever the visibility map says the heap pages are all
-- visible, and reading only the page's rows: walking posts_created_at_id
-- instead reads every skipped post's row for its status. Being partial, it
-- serves the queries that say p.status = 'published'.
CREATE INDEX posts_published ON posts (created_at, id) WHERE status = 'published';
