package sqlite

import (
	"context"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// productQueries are sqlrepo.ProductQueries.
type productQueries struct{ c conns }

var _ sqlrepo.ProductQueries = productQueries{}

func (r productQueries) CreateProduct(ctx context.Context, p domain.Product) (int64, error) {
	return r.c.write.CreateProduct(ctx, db.CreateProductParams(sqlrepo.NewProductOf(values, p, nullText)))
}

func (r productQueries) GetProduct(ctx context.Context, id int64) (domain.Product, error) {
	row, err := r.c.read.GetProduct(ctx, id)
	return productOf(row), err
}

// LockProduct reads the product. Inside InTx no more is needed: the
// transaction began IMMEDIATE and holds SQLite's single write lock.
func (r productQueries) LockProduct(ctx context.Context, id int64) (domain.Product, error) {
	return r.GetProduct(ctx, id)
}

func (r productQueries) UpdateProduct(ctx context.Context, p domain.Product) (int64, error) {
	return r.c.write.UpdateProduct(ctx, db.UpdateProductParams(sqlrepo.ProductUpdateOf(values, p, nullText)))
}

func (r productQueries) DeleteProduct(ctx context.Context, id int64) (int64, error) {
	return r.c.write.DeleteProduct(ctx, id)
}

func (r productQueries) ListProducts(ctx context.Context, page ports.Page) ([]domain.Product, int, error) {
	limit, offset := pageBounds(page)
	rows, err := r.c.read.ListProducts(ctx, db.ListProductsParams{Limit: limit, Offset: offset})
	if err != nil {
		return nil, 0, storeError("list products", err)
	}
	total, err := r.c.read.CountProducts(ctx)
	if err != nil {
		return nil, 0, storeError("count products", err)
	}
	list := make([]domain.Product, 0, len(rows))
	for _, row := range rows {
		list = append(list, productOf(row))
	}
	return list, int(total), nil
}

func productOf(row db.Product) domain.Product {
	p := domain.Product{
		ID:          row.ID,
		Name:        row.Name,
		PriceCents:  row.PriceCents,
		Description: row.Description,
		Stock:       row.Stock,
		CreatedAt:   timeOf(row.CreatedAt),
		UpdatedAt:   timeOf(row.UpdatedAt),
	}
	if row.Sku.Valid {
		sku := row.Sku.String
		p.SKU = &sku
	}
	return p
}

// pageBounds turns a page into SQL's LIMIT and OFFSET. A limit of zero or
// less asks for every row, which SQLite spells LIMIT -1.
func pageBounds(p ports.Page) (limit, offset int64) {
	limit, offset = int64(p.Limit), int64(p.Offset)
	if limit <= 0 {
		limit = -1
	}
	return limit, max(offset, 0)
}

// productsFilter is the WHERE clause of Search, people's filter on the
// name alone: instr of lower() takes % and _ literally and folds ASCII
// letters only.
const productsFilter = `?1 = '' OR instr(lower(name), lower(?1)) > 0`

// Search pages through the products whose name holds q.Search, newest
// first.
func (r productQueries) SearchProducts(ctx context.Context, q ports.ProductQuery) ([]domain.Product, int, error) {
	const op = "search products"
	limit, offset := pageBounds(q.Page)
	rows, err := r.c.readDB.QueryContext(ctx, `SELECT id, name, price_cents, description, stock, sku, created_at, updated_at
FROM products
WHERE `+productsFilter+`
ORDER BY id DESC
LIMIT ?2 OFFSET ?3`, q.Search, limit, offset)
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	defer rows.Close()
	list := []domain.Product{}
	for rows.Next() {
		var row db.Product
		if err := rows.Scan(&row.ID, &row.Name, &row.PriceCents, &row.Description, &row.Stock, &row.Sku, &row.CreatedAt, &row.UpdatedAt); err != nil {
			return nil, 0, storeError(op, err)
		}
		list = append(list, productOf(row))
	}
	if err := rows.Err(); err != nil {
		return nil, 0, storeError(op, err)
	}
	var total int64
	if err := r.c.readDB.QueryRowContext(ctx, `SELECT count(*) FROM products WHERE `+productsFilter, q.Search).Scan(&total); err != nil {
		return nil, 0, storeError(op, err)
	}
	return list, int(total), nil
}
