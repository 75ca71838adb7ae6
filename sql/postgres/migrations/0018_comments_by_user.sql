-- The console lists one author's comments newest first (id descending).
-- comments_user_id (0003) holds user_id alone, so such a page read and
-- sorted every comment of the author; with id after user_id the page walks
-- the index backwards and stops at its last row. The new index serves what
-- the old one served (the cascade from a deleted user), which therefore
-- goes.
CREATE INDEX comments_user_id_id ON comments (user_id, id);
DROP INDEX comments_user_id;
