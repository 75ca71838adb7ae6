package app

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Webhook implements ports.Admin. The secret signs deliveries to its
// owner's receiver: it never leaves for the console.
func (a *Admin) Webhook(ctx context.Context, c ports.AdminCaller, id int64) (ports.AdminWebhook, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return ports.AdminWebhook{}, err
	}
	w, err := r.Webhooks.Get(ctx, id)
	if err != nil {
		return ports.AdminWebhook{}, fmt.Errorf("admin webhook %d: %w", id, err)
	}
	owner, err := r.Users.ByID(ctx, w.UserID)
	if err != nil {
		return ports.AdminWebhook{}, fmt.Errorf("admin webhook %d: owner: %w", id, err)
	}
	w.Secret = ""
	return ports.AdminWebhook{Webhook: w, OwnerEmail: owner.Email}, nil
}

// People implements ports.Admin.
func (a *Admin) People(ctx context.Context, c ports.AdminCaller, q ports.AdminDirectoryQuery) ([]domain.Person, int, error) {
	if err := checkSearch("q", q.Search); err != nil {
		return nil, 0, err
	}
	r, err := a.reads(ctx, c)
	if err != nil {
		return nil, 0, err
	}
	people, total, err := r.People.List(ctx, ports.PersonQuery{
		Search: q.Search, Sort: []ports.SortKey{{Field: "id", Desc: true}}, Page: capped(q.Page),
	})
	if err != nil {
		return nil, 0, fmt.Errorf("admin people: %w", err)
	}
	return people, total, nil
}

// Person implements ports.Admin.
func (a *Admin) Person(ctx context.Context, c ports.AdminCaller, id int64) (domain.Person, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return domain.Person{}, err
	}
	p, err := r.People.Get(ctx, id)
	if err != nil {
		return domain.Person{}, fmt.Errorf("admin person %d: %w", id, err)
	}
	return p, nil
}

// Products implements ports.Admin.
func (a *Admin) Products(ctx context.Context, c ports.AdminCaller, q ports.AdminDirectoryQuery) ([]domain.Product, int, error) {
	if err := checkSearch("q", q.Search); err != nil {
		return nil, 0, err
	}
	r, err := a.reads(ctx, c)
	if err != nil {
		return nil, 0, err
	}
	products, total, err := r.Products.Search(ctx, ports.ProductQuery{Search: q.Search, Page: capped(q.Page)})
	if err != nil {
		return nil, 0, fmt.Errorf("admin products: %w", err)
	}
	return products, total, nil
}

// Product implements ports.Admin.
func (a *Admin) Product(ctx context.Context, c ports.AdminCaller, id int64) (domain.Product, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return domain.Product{}, err
	}
	p, err := r.Products.Get(ctx, id)
	if err != nil {
		return domain.Product{}, fmt.Errorf("admin product %d: %w", id, err)
	}
	return p, nil
}
