-- name: CreateProduct :one
INSERT INTO products (name, price_cents, description, stock, sku, created_at, updated_at)
VALUES (@name, @price_cents, @description, @stock, @sku, @created_at, @updated_at)
RETURNING id;

-- name: GetProduct :one
SELECT * FROM products WHERE id = @id;

-- LockProduct holds the row until the transaction ends, so that a
-- replacement checks and writes the version no other writer changes.
-- name: LockProduct :one
SELECT * FROM products WHERE id = @id FOR UPDATE;

-- name: UpdateProduct :execrows
UPDATE products SET
    name = @name,
    price_cents = @price_cents,
    description = @description,
    stock = @stock,
    sku = @sku,
    updated_at = @updated_at
WHERE id = @id;

-- name: DeleteProduct :execrows
DELETE FROM products WHERE id = @id;

-- ListProducts returns one page in id order with the number of products in
-- all, read in the same snapshot. A page past the end has no row to carry the
-- total; CountProducts answers then.
-- name: ListProducts :many
SELECT id, name, price_cents, description, stock, sku, created_at, updated_at,
       count(*) OVER () AS total
FROM products
ORDER BY id
LIMIT @row_limit::bigint OFFSET @row_offset::bigint;

-- name: CountProducts :one
SELECT count(*) FROM products;
