package sqlrepo

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// ProductQueries are a store's statements on products. A taken SKU
// violates products' unique key, which the store's Border turns into
// domain.ErrSKUTaken.
type ProductQueries interface {
	CreateProduct(ctx context.Context, p domain.Product) (int64, error)
	GetProduct(ctx context.Context, id int64) (domain.Product, error)
	// LockProduct reads the product and holds it until the transaction ends.
	LockProduct(ctx context.Context, id int64) (domain.Product, error)
	UpdateProduct(ctx context.Context, p domain.Product) (int64, error)
	DeleteProduct(ctx context.Context, id int64) (int64, error)
	// ListProducts and SearchProducts are the store's own, whole, their
	// errors translated: each engine searches and counts its way.
	ListProducts(ctx context.Context, page ports.Page) ([]domain.Product, int, error)
	SearchProducts(ctx context.Context, q ports.ProductQuery) ([]domain.Product, int, error)
}

// Products is ports.ProductRepository.
type Products struct {
	Q ProductQueries
	B Border
}

var _ ports.ProductRepository = Products{}

func (r Products) Create(ctx context.Context, p *domain.Product) error {
	id, err := r.Q.CreateProduct(ctx, *p)
	if err != nil {
		return r.B.Err("create product", err)
	}
	p.ID = id
	return nil
}

func (r Products) Get(ctx context.Context, id int64) (domain.Product, error) {
	p, err := r.Q.GetProduct(ctx, id)
	if err != nil {
		return domain.Product{}, r.B.Err(fmt.Sprintf("get product %d", id), err)
	}
	return p, nil
}

func (r Products) Lock(ctx context.Context, id int64) (domain.Product, error) {
	p, err := r.Q.LockProduct(ctx, id)
	if err != nil {
		return domain.Product{}, r.B.Err(fmt.Sprintf("lock product %d", id), err)
	}
	return p, nil
}

func (r Products) Update(ctx context.Context, p domain.Product) error {
	n, err := r.Q.UpdateProduct(ctx, p)
	return r.B.Affected(fmt.Sprintf("update product %d", p.ID), n, err)
}

func (r Products) Delete(ctx context.Context, id int64) error {
	n, err := r.Q.DeleteProduct(ctx, id)
	return r.B.Affected(fmt.Sprintf("delete product %d", id), n, err)
}

// List is the store's own (ProductQueries.ListProducts).
func (r Products) List(ctx context.Context, page ports.Page) ([]domain.Product, int, error) {
	return r.Q.ListProducts(ctx, page)
}

// Search is the store's own (ProductQueries.SearchProducts).
func (r Products) Search(ctx context.Context, q ports.ProductQuery) ([]domain.Product, int, error) {
	return r.Q.SearchProducts(ctx, q)
}
