package postgres

import (
	"context"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// productQueries are sqlrepo.ProductQueries.
type productQueries struct {
	q *db.Queries
	// conn is the connection or transaction q runs on, for
	// SearchProducts's query, whose pattern sqlc would not add to.
	conn db.DBTX
}

var _ sqlrepo.ProductQueries = productQueries{}

func (r productQueries) CreateProduct(ctx context.Context, p domain.Product) (int64, error) {
	return r.q.CreateProduct(ctx, db.CreateProductParams(sqlrepo.NewProductOf(values, p, nullText)))
}

func (r productQueries) GetProduct(ctx context.Context, id int64) (domain.Product, error) {
	row, err := r.q.GetProduct(ctx, id)
	return productOf(row), err
}

func (r productQueries) LockProduct(ctx context.Context, id int64) (domain.Product, error) {
	row, err := r.q.LockProduct(ctx, id)
	return productOf(row), err
}

func (r productQueries) UpdateProduct(ctx context.Context, p domain.Product) (int64, error) {
	return r.q.UpdateProduct(ctx, db.UpdateProductParams(sqlrepo.ProductUpdateOf(values, p, nullText)))
}

func (r productQueries) DeleteProduct(ctx context.Context, id int64) (int64, error) {
	return r.q.DeleteProduct(ctx, id)
}

func (r productQueries) ListProducts(ctx context.Context, page ports.Page) ([]domain.Product, int, error) {
	const op = "list products"
	limit, offset := pageBounds(page)
	rows, err := r.q.ListProducts(ctx, db.ListProductsParams{RowLimit: limit, RowOffset: offset})
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	list := make([]domain.Product, 0, len(rows))
	var total int64
	for _, row := range rows {
		total = row.Total
		list = append(list, productOf(db.Product{
			ID:          row.ID,
			Name:        row.Name,
			PriceCents:  row.PriceCents,
			Description: row.Description,
			Stock:       row.Stock,
			Sku:         row.Sku,
			CreatedAt:   row.CreatedAt,
			UpdatedAt:   row.UpdatedAt,
		}))
	}
	if len(rows) == 0 && offset > 0 {
		// A page past the end carries no total; count apart.
		if total, err = r.q.CountProducts(ctx); err != nil {
			return nil, 0, storeError(op, err)
		}
	}
	return list, int(total), nil
}

func productOf(row db.Product) domain.Product {
	return domain.Product{
		ID:          row.ID,
		Name:        row.Name,
		PriceCents:  row.PriceCents,
		Description: row.Description,
		Stock:       row.Stock,
		SKU:         textPtrOf(row.Sku),
		CreatedAt:   timeOf(row.CreatedAt),
		UpdatedAt:   timeOf(row.UpdatedAt),
	}
}

// productsFilter is the WHERE clause of Search: people's filter
// (CountPeople) on the name alone, an ILIKE pattern whose literal % and _
// are escaped, folding ASCII letters only under the "C" collation.
const productsFilter = `name COLLATE "C" ILIKE $1 ESCAPE '\'`

// Search pages through the products whose name holds q.Search, newest
// first, reading the total in the page's snapshot (count(*) OVER ()).
func (r productQueries) SearchProducts(ctx context.Context, q ports.ProductQuery) ([]domain.Product, int, error) {
	const op = "search products"
	pattern := "%" + escapeLike(q.Search) + "%"
	limit, offset := pageBounds(q.Page)
	rows, err := r.conn.Query(ctx, `SELECT id, name, price_cents, description, stock, sku, created_at, updated_at, count(*) OVER ()
FROM products
WHERE `+productsFilter+`
ORDER BY id DESC
LIMIT $2 OFFSET $3`, pattern, limit, offset)
	if err != nil {
		return nil, 0, storeError(op, err)
	}
	defer rows.Close()
	list := []domain.Product{}
	var total int64
	for rows.Next() {
		var row db.Product
		if err := rows.Scan(&row.ID, &row.Name, &row.PriceCents, &row.Description, &row.Stock, &row.Sku, &row.CreatedAt, &row.UpdatedAt, &total); err != nil {
			return nil, 0, storeError(op, err)
		}
		list = append(list, productOf(row))
	}
	if err := rows.Err(); err != nil {
		return nil, 0, storeError(op, err)
	}
	if len(list) == 0 && offset > 0 {
		// A page past the end carries no total; count apart.
		if err := r.conn.QueryRow(ctx, `SELECT count(*) FROM products WHERE `+productsFilter, pattern).Scan(&total); err != nil {
			return nil, 0, storeError(op, err)
		}
	}
	return list, int(total), nil
}
