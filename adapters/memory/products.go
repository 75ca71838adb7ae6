package memory

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// products implements ports.ProductRepository. Products without a SKU are
// absent from the SKU index, so any number of them coexist, as NULLs do
// under a unique index.
type products struct{ u unit }

func cloneProduct(p domain.Product) domain.Product {
	p.SKU = clonePtr(p.SKU)
	p.CreatedAt = norm(p.CreatedAt)
	p.UpdatedAt = norm(p.UpdatedAt)
	return p
}

func (r products) Create(ctx context.Context, p *domain.Product) error {
	return r.u.write(ctx, func(s *state) error {
		if p.SKU != nil {
			if _, taken := s.productSKUs[*p.SKU]; taken {
				return fmt.Errorf("create product: %w", domain.ErrSKUTaken)
			}
		}
		s.lastProduct++
		stored := cloneProduct(*p)
		stored.ID = s.lastProduct
		s.products[stored.ID] = stored
		if stored.SKU != nil {
			s.productSKUs[*stored.SKU] = stored.ID
		}
		p.ID = stored.ID
		return nil
	})
}

func (r products) Get(ctx context.Context, id int64) (domain.Product, error) {
	return get(ctx, r.u, func(s *state) map[int64]domain.Product { return s.products }, cloneProduct, "product", id)
}

// Lock reads the product. Transactions already run one at a time, so there
// is nothing to hold.
func (r products) Lock(ctx context.Context, id int64) (domain.Product, error) {
	return r.Get(ctx, id)
}

func (r products) Update(ctx context.Context, p domain.Product) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.products[p.ID]
		if !ok {
			return fmt.Errorf("update product %d: %w", p.ID, domain.ErrNotFound)
		}
		if p.SKU != nil {
			if id, taken := s.productSKUs[*p.SKU]; taken && id != p.ID {
				return fmt.Errorf("update product %d: %w", p.ID, domain.ErrSKUTaken)
			}
		}
		stored := cloneProduct(p)
		stored.CreatedAt = old.CreatedAt
		if old.SKU != nil {
			delete(s.productSKUs, *old.SKU)
		}
		if stored.SKU != nil {
			s.productSKUs[*stored.SKU] = p.ID
		}
		s.products[p.ID] = stored
		return nil
	})
}

func (r products) Delete(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.products[id]
		if !ok {
			return fmt.Errorf("delete product %d: %w", id, domain.ErrNotFound)
		}
		delete(s.products, id)
		if old.SKU != nil {
			delete(s.productSKUs, *old.SKU)
		}
		return nil
	})
}

func (r products) List(ctx context.Context, page ports.Page) ([]domain.Product, int, error) {
	var all []domain.Product
	err := r.u.read(ctx, func(s *state) error {
		all = make([]domain.Product, 0, len(s.products))
		for _, p := range s.products {
			all = append(all, p)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return clonedPage(all, func(a, b domain.Product) int { return cmp.Compare(a.ID, b.ID) }, page, cloneProduct), len(all), nil
}

// Search filters as people.List does, folding the case of ASCII letters
// only, and lists newest first.
func (r products) Search(ctx context.Context, q ports.ProductQuery) ([]domain.Product, int, error) {
	needle := foldASCII(q.Search)
	var matches []domain.Product
	err := r.u.read(ctx, func(s *state) error {
		for _, p := range s.products {
			if needle == "" || strings.Contains(foldASCII(p.Name), needle) {
				matches = append(matches, p)
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return clonedPage(matches, func(a, b domain.Product) int { return cmp.Compare(b.ID, a.ID) }, q.Page, cloneProduct), len(matches), nil
}
