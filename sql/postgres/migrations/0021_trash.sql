-- The trash: posts and comments deleted without being purged. A trashed
-- row leaves the live table for these, stamped with deleted_at, so every
-- read, count, search and trigger-kept counter of the live tables treats it
-- as removed, and their plans stay what they were; a restore moves it back
-- with its id. A post's comments trashed with it carry its deleted_at and
-- come back with it; a comment trashed before keeps its own, earlier stamp.
-- tag_ids are the post's tag ids when it was trashed.
CREATE TABLE trashed_posts (
    id           bigint      PRIMARY KEY,
    author_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title        text        NOT NULL,
    slug         text        COLLATE "C" NOT NULL,
    excerpt      text        NOT NULL,
    body         text        NOT NULL,
    status       text        NOT NULL,
    image_path   text        NOT NULL,
    published_at timestamptz,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    tag_ids      bigint[]    NOT NULL DEFAULT '{}',
    deleted_at   timestamptz NOT NULL
);
-- An author's trash, most recently trashed first; the retention purge,
-- oldest first.
CREATE INDEX trashed_posts_author ON trashed_posts (author_id, deleted_at, id);
CREATE INDEX trashed_posts_deleted_at ON trashed_posts (deleted_at, id);

-- post_id names a live or a trashed post, so it has no foreign key; the
-- purge of a post and the deletion of an account remove its comments here.
CREATE TABLE trashed_comments (
    id         bigint      PRIMARY KEY,
    post_id    bigint      NOT NULL,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body       text        NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz NOT NULL
);
CREATE INDEX trashed_comments_post ON trashed_comments (post_id, deleted_at);
CREATE INDEX trashed_comments_user ON trashed_comments (user_id, deleted_at, id);
CREATE INDEX trashed_comments_deleted_at ON trashed_comments (deleted_at, id);
