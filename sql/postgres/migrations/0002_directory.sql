-- Area B records: people (the generic CRUD "users") and products.
CREATE TABLE people (
    id         bigserial   PRIMARY KEY,
    name       text        NOT NULL,
    email      text        NOT NULL,
    email_key  text        NOT NULL,
    age        integer,
    address    jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX people_email_key ON people (email_key);

CREATE TABLE products (
    id          bigserial   PRIMARY KEY,
    name        text        NOT NULL,
    price_cents bigint      NOT NULL CHECK (price_cents >= 0),
    description text        NOT NULL DEFAULT '',
    stock       bigint      NOT NULL DEFAULT 0 CHECK (stock >= 0),
    sku         text,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX products_sku ON products (sku);
