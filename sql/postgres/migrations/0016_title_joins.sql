-- posts_title_trgm (0004) holds the trigrams of each word of a title apart:
-- pg_trgm splits the text at anything but letters and digits. A search that
-- runs across words, "graceful worker", can then only ask it for titles
-- holding both words, which at a million posts were 1,779 titles for the
-- 222 that hold the phrase, each read from the heap to be tested. This
-- index holds the trigrams of the lower-cased title with its ASCII spaces
-- and punctuation taken out, "gracefulworker...", where the trigrams that
-- join two words ("ulw", "lwo") are rare wherever the words are common.
-- The expression must be the one the queries use (adapters/postgres,
-- joinedTitle), or the planner ignores it; the index only finds candidates,
-- each tested against the search itself after it. translate() deletes the
-- characters of its second argument that the third does not replace: the
-- ASCII space and the 32 ASCII punctuation marks, a fixed set rather than a
-- class of the locale, so that the search, cut into pieces in Go, is cut
-- where the titles are.
CREATE INDEX posts_title_joined_trgm ON posts
    USING gin (translate(lower(title), ' !"#$%&''()*+,-./:;<=>?@[\]^_`{|}~', '') gin_trgm_ops);
