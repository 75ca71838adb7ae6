package crud

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// products serves area B's products on every products mount.
type products struct {
	record[domain.Product, ports.ProductInput, productView]
	products ports.Products
	base     func(c *fiber.Ctx) string
}

func newProducts(cases ports.Products, base func(c *fiber.Ctx) string) products {
	return products{
		record: record[domain.Product, ports.ProductInput, productView]{
			cases: cases, input: productInput, present: presentProduct, tag: domain.ProductTag,
			stamp: func(p domain.Product) (int64, time.Time) { return p.ID, p.UpdatedAt },
		},
		products: cases, base: base,
	}
}

func (p products) list(c *fiber.Ctx) error {
	page, limit := positive(c, "page", 1, maxPage), positive(c, "limit", defaultLimit, maxLimit)
	items, total, err := p.products.List(c.UserContext(), pageOf(page, limit))
	if err != nil {
		return err
	}
	respcache.Tag(c, domain.TagProducts)
	for _, it := range items {
		respcache.Tag(c, domain.ProductTag(it.ID))
	}
	setPagingHeaders(c, p.base(c), page, limit, total)
	return ok(c, presentProducts(items))
}

// productInput validates a whole product body, for a create or a
// replacement. The description is kept as sent, white space included. A
// blank SKU is no SKU, so that any number of products may have none.
func productInput(v *validate.Validator) (ports.ProductInput, error) {
	in := ports.ProductInput{Name: v.String("name", validate.Required, validate.Check(domain.CheckProductName))}
	if cents := v.Cents("price", validate.Required, validate.Max(domain.MaxPrice)); cents != nil {
		in.PriceCents = *cents
	}
	in.Description = v.String("description", validate.Nullable, validate.NoTrim, validate.Check(domain.CheckDescription))
	if stock := v.Int("stock", validate.Nullable, validate.CheckInt(domain.CheckStock)); stock != nil {
		in.Stock = *stock
	}
	if sku := v.String("sku", validate.Nullable, validate.Check(domain.CheckSKU)); sku != "" {
		in.SKU = &sku
	}
	return in, v.Err()
}
