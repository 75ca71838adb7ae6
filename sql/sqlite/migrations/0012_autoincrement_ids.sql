-- Ids that never come back. The tables of 0001 and 0002 used SQLite's
-- plain rowid, which hands out the largest id plus one: after the newest
-- row was deleted, the next row took its id, so every fresh login got
-- token 1|… again and the outbox told of product.deleted and then
-- product.created for one id. AUTOINCREMENT keeps the largest id ever
-- handed out in sqlite_sequence, as PostgreSQL's sequences do. The content,
-- event and webhook tables had it from the start.
--
-- A table's id column cannot be altered, so each table is rebuilt by
-- SQLite's procedure (https://sqlite.org/lang_altertable.html, "making other
-- kinds of table schema changes"): create the new table, copy every row
-- with its id, drop the old one, rename the new one, and create its indexes
-- again. The migration runs with foreign keys off, so dropping users takes
-- no post, token or session with it, and checks every reference before it
-- commits (adapters/sqlite/migrate.go). No trigger, view or derived table
-- is defined on these four tables; the tables that refer to users keep
-- referring to it by name. Copying the rows sets each table's sequence to
-- its largest id.

CREATE TABLE users_new (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    name              TEXT    NOT NULL,
    email             TEXT    NOT NULL,
    email_key         TEXT    NOT NULL,
    password_hash     TEXT    NOT NULL,
    remember_token    TEXT    NOT NULL DEFAULT '',
    email_verified_at INTEGER,
    avatar_path       TEXT    NOT NULL DEFAULT '',
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);
INSERT INTO users_new (id, name, email, email_key, password_hash, remember_token, email_verified_at, avatar_path, created_at, updated_at)
SELECT id, name, email, email_key, password_hash, remember_token, email_verified_at, avatar_path, created_at, updated_at FROM users;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;
CREATE UNIQUE INDEX users_email_key ON users (email_key);

CREATE TABLE personal_access_tokens_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    token_hash   TEXT    NOT NULL,
    abilities    TEXT    NOT NULL,
    last_used_at INTEGER,
    expires_at   INTEGER,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
INSERT INTO personal_access_tokens_new (id, user_id, name, token_hash, abilities, last_used_at, expires_at, created_at, updated_at)
SELECT id, user_id, name, token_hash, abilities, last_used_at, expires_at, created_at, updated_at FROM personal_access_tokens;
DROP TABLE personal_access_tokens;
ALTER TABLE personal_access_tokens_new RENAME TO personal_access_tokens;
CREATE UNIQUE INDEX personal_access_tokens_token_hash ON personal_access_tokens (token_hash);
CREATE INDEX personal_access_tokens_user_id ON personal_access_tokens (user_id);
CREATE INDEX personal_access_tokens_expires_at ON personal_access_tokens (expires_at);

CREATE TABLE people_new (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    email      TEXT    NOT NULL,
    email_key  TEXT    NOT NULL,
    age        INTEGER,
    address    TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
INSERT INTO people_new (id, name, email, email_key, age, address, created_at, updated_at)
SELECT id, name, email, email_key, age, address, created_at, updated_at FROM people;
DROP TABLE people;
ALTER TABLE people_new RENAME TO people;
CREATE UNIQUE INDEX people_email_key ON people (email_key);

CREATE TABLE products_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    description TEXT    NOT NULL DEFAULT '',
    stock       INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0),
    sku         TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
INSERT INTO products_new (id, name, price_cents, description, stock, sku, created_at, updated_at)
SELECT id, name, price_cents, description, stock, sku, created_at, updated_at FROM products;
DROP TABLE products;
ALTER TABLE products_new RENAME TO products;
CREATE UNIQUE INDEX products_sku ON products (sku);
