-- name: CreateProduct :one
INSERT INTO products (name, price_cents, description, stock, sku, created_at, updated_at)
VALUES (@name, @price_cents, @description, @stock, @sku, @created_at, @updated_at)
RETURNING id;

-- name: GetProduct :one
SELECT * FROM products WHERE id = @id;

-- name: UpdateProduct :execrows
UPDATE products
SET name = @name,
    price_cents = @price_cents,
    description = @description,
    stock = @stock,
    sku = @sku,
    updated_at = @updated_at
WHERE id = @id;

-- name: DeleteProduct :execrows
DELETE FROM products WHERE id = @id;

-- name: ListProducts :many
SELECT * FROM products ORDER BY id LIMIT @limit OFFSET @offset;

-- name: CountProducts :one
SELECT count(*) FROM products;
