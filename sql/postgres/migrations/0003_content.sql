-- Area A content: posts, the tags they carry, and comments on them. Deleting
-- a user takes their posts and comments with them, and deleting a post its
-- comments and tag links, so no delete is ever refused for a reference.
CREATE TABLE posts (
    id           bigserial   PRIMARY KEY,
    author_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title        text        NOT NULL,
    -- Slugs are ASCII. The "C" collation lets posts_slug serve the prefix
    -- search for "<slug>-<n>" whatever the database's default collation.
    slug         text        COLLATE "C" NOT NULL,
    excerpt      text        NOT NULL,
    body         text        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('draft', 'published')),
    image_path   text        NOT NULL DEFAULT '',
    published_at timestamptz,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX posts_slug ON posts (slug);
-- Lists run newest first, (created_at, id) descending, and page by cursor.
CREATE INDEX posts_created_at_id ON posts (created_at, id);
CREATE INDEX posts_author_id ON posts (author_id, created_at, id);

CREATE TABLE tags (
    id         bigserial   PRIMARY KEY,
    name       text        NOT NULL,
    -- name_key is the lower-cased name: names are unique ignoring case.
    name_key   text        NOT NULL,
    slug       text        NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX tags_name_key ON tags (name_key);
CREATE INDEX tags_slug ON tags (slug);

CREATE TABLE post_tags (
    post_id bigint NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    tag_id  bigint NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (post_id, tag_id)
);
CREATE INDEX post_tags_tag_id ON post_tags (tag_id);

CREATE TABLE comments (
    id         bigserial   PRIMARY KEY,
    post_id    bigint      NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body       text        NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
CREATE INDEX comments_post_id ON comments (post_id, created_at, id);
CREATE INDEX comments_user_id ON comments (user_id);
