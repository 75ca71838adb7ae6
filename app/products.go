package app

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Products runs the use cases of area B's products: it stamps their times
// and replaces stored products inside one transaction.
type Products struct {
	store ports.Store
	clock ports.Clock
	cfg   DirectoryConfig
}

// NewProducts returns the use cases of area B's products.
func NewProducts(store ports.Store, clock ports.Clock, cfg DirectoryConfig) *Products {
	return &Products{store: store, clock: clock, cfg: cfg}
}

var _ ports.Products = (*Products)(nil)

// Create stores a new product created and updated now, once it keeps the
// rules of domain.Product.Check.
func (p *Products) Create(ctx context.Context, actor domain.Actor, in ports.ProductInput) (domain.Product, error) {
	if err := p.cfg.checkWrite(actor); err != nil {
		return domain.Product{}, err
	}
	now := p.clock.Now()
	product := domain.Product{
		Name:        in.Name,
		PriceCents:  in.PriceCents,
		Description: in.Description,
		Stock:       in.Stock,
		SKU:         in.SKU,
		CreatedAt:   now,
		UpdatedAt:   now,
	}
	if err := product.Check(); err != nil {
		return domain.Product{}, err
	}
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		if err := r.Products.Create(ctx, &product); err != nil {
			return err
		}
		return record(ctx, r, domain.NewProductEvent(domain.ProductCreated, product, now))
	})
	if err != nil {
		return domain.Product{}, fmt.Errorf("create product: %w", err)
	}
	return product, nil
}

// Replace overwrites every field of product id but its creation time. The
// read and the write share a transaction so that the answer carries the
// creation time of the very row written. The replacement must keep the
// rules of domain.Product.Check. Anyone area B's gate lets through may
// replace a product by own right (checkWrite), and an admin by admin
// right, whose change is audited as product.update.
func (p *Products) Replace(ctx context.Context, actor domain.Acting, id int64, in ports.ProductInput, pre ports.Precondition) (domain.Product, error) {
	if err := p.cfg.checkWriter(actor); err != nil {
		return domain.Product{}, err
	}
	var product domain.Product
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if actor, err = rightful(ctx, r, actor); err != nil {
			return err
		}
		if product, err = r.Products.Lock(ctx, id); err != nil {
			return err
		}
		if !pre.Allows(product.UpdatedAt) {
			return domain.ErrPreconditionFailed
		}
		product.Name = in.Name
		product.PriceCents = in.PriceCents
		product.Description = in.Description
		product.Stock = in.Stock
		product.SKU = in.SKU
		if err := product.Check(); err != nil {
			return err
		}
		product.UpdatedAt = p.clock.Now()
		if err := r.Products.Update(ctx, product); err != nil {
			return err
		}
		if err := audit(ctx, r, actor, domain.AuditProductUpdate, domain.SubjectProduct, id, product.UpdatedAt); err != nil {
			return err
		}
		return record(ctx, r, domain.NewProductEvent(domain.ProductUpdated, product, product.UpdatedAt))
	})
	if err != nil {
		return domain.Product{}, fmt.Errorf("replace product %d: %w", id, err)
	}
	return product, nil
}

// Get implements ports.Products.
func (p *Products) Get(ctx context.Context, id int64) (domain.Product, error) {
	product, err := p.store.Repos().Products.Get(ctx, id)
	if err != nil {
		return domain.Product{}, fmt.Errorf("get product %d: %w", id, err)
	}
	return product, nil
}

// List implements ports.Products.
func (p *Products) List(ctx context.Context, page ports.Page) ([]domain.Product, int, error) {
	products, total, err := p.store.Repos().Products.List(ctx, page)
	if err != nil {
		return nil, 0, fmt.Errorf("list products: %w", err)
	}
	return products, total, nil
}

// Delete implements ports.Products. The event shows the product as it was.
func (p *Products) Delete(ctx context.Context, actor domain.Actor, id int64, pre ports.Precondition) error {
	if err := p.cfg.checkWrite(actor); err != nil {
		return err
	}
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		product, err := r.Products.Lock(ctx, id)
		if err != nil {
			return err
		}
		if !pre.Allows(product.UpdatedAt) {
			return domain.ErrPreconditionFailed
		}
		if err := r.Products.Delete(ctx, id); err != nil {
			return err
		}
		return record(ctx, r, domain.NewProductEvent(domain.ProductDeleted, product, p.clock.Now()))
	})
	if err != nil {
		return fmt.Errorf("delete product %d: %w", id, err)
	}
	return nil
}
