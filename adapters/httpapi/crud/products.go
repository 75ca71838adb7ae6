package crud

import (
	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// products serves area B's products on every products mount.
type products struct {
	products ports.Products
	base     func(c *fiber.Ctx) string
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

func (p products) create(c *fiber.Ctx) error {
	v, err := decodeBody(c)
	if err != nil {
		return err
	}
	in, err := productInput(v)
	if err != nil {
		return err
	}
	item, err := p.products.Create(c.UserContext(), writerOf(c), in)
	if err != nil {
		return err
	}
	return created(c, presentProduct(item))
}

func (p products) read(c *fiber.Ctx) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	item, err := p.products.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	respcache.Tag(c, domain.ProductTag(item.ID))
	conditional.Version(c, item.UpdatedAt)
	return ok(c, presentProduct(item))
}

func (p products) replace(c *fiber.Ctx) error {
	id, v, err := idAndBody(c)
	if err != nil {
		return err
	}
	in, err := productInput(v)
	if err != nil {
		return err
	}
	item, err := p.products.Replace(c.UserContext(), domain.ByOwnRight(writerOf(c)), id, in, conditional.IfMatch(c))
	if err != nil {
		return err
	}
	conditional.Version(c, item.UpdatedAt)
	return ok(c, presentProduct(item))
}

func (p products) delete(c *fiber.Ctx) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	if err := p.products.Delete(c.UserContext(), writerOf(c), id, conditional.IfMatch(c)); err != nil {
		return err
	}
	return noContent(c)
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
