package crud

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
)

// timeLayout renders times in UTC with microseconds, the precision the stores
// keep: 2026-11-20T10:00:00.000000Z.
const timeLayout = "2006-01-02T15:04:05.000000Z07:00"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// personView is the representation of an area B user. Age and address are
// null when the record has none.
type personView struct {
	ID        int64        `json:"id"`
	Name      string       `json:"name"`
	Email     string       `json:"email"`
	Age       *int         `json:"age"`
	Address   *addressView `json:"address"`
	CreatedAt string       `json:"created_at"`
	UpdatedAt string       `json:"updated_at"`
}

// addressView is the representation of a user's address: the fields it
// has, and none of those it lacks.
type addressView struct {
	Street  string `json:"street,omitempty"`
	City    string `json:"city,omitempty"`
	Zip     string `json:"zip,omitempty"`
	Country string `json:"country,omitempty"`
}

func presentAddress(a *domain.Address) *addressView {
	if a == nil {
		return nil
	}
	v := addressView(*a)
	return &v
}

func presentPerson(p domain.Person) personView {
	return personView{
		ID:        p.ID,
		Name:      p.Name,
		Email:     p.Email,
		Age:       p.Age,
		Address:   presentAddress(p.Address),
		CreatedAt: formatTime(p.CreatedAt),
		UpdatedAt: formatTime(p.UpdatedAt),
	}
}

func presentPeople(ps []domain.Person) []personView {
	out := make([]personView, len(ps))
	for i, p := range ps {
		out[i] = presentPerson(p)
	}
	return out
}

// productView is the representation of a product. The price is a JSON
// number rendered from cents, so 19.99 is written exactly as 19.99; sku is
// null when the product has none.
type productView struct {
	ID          int64       `json:"id"`
	Name        string      `json:"name"`
	Price       json.Number `json:"price"`
	Description string      `json:"description"`
	Stock       int64       `json:"stock"`
	SKU         *string     `json:"sku"`
	CreatedAt   string      `json:"created_at"`
	UpdatedAt   string      `json:"updated_at"`
}

func presentProduct(p domain.Product) productView {
	return productView{
		ID:          p.ID,
		Name:        p.Name,
		Price:       json.Number(formatCents(p.PriceCents)),
		Description: p.Description,
		Stock:       p.Stock,
		SKU:         p.SKU,
		CreatedAt:   formatTime(p.CreatedAt),
		UpdatedAt:   formatTime(p.UpdatedAt),
	}
}

func presentProducts(ps []domain.Product) []productView {
	out := make([]productView, len(ps))
	for i, p := range ps {
		out[i] = presentProduct(p)
	}
	return out
}

// ok answers 200 with data in the envelope.
func ok(c *fiber.Ctx, data any) error {
	return c.JSON(envelope{Success: true, Message: statusMessage[fiber.StatusOK], Data: data})
}

// created answers 201 with data in the envelope.
func created(c *fiber.Ctx, data any) error {
	return c.Status(fiber.StatusCreated).JSON(envelope{Success: true, Message: statusMessage[fiber.StatusCreated], Data: data})
}

// noContent answers a delete: 204 and no body at all.
func noContent(c *fiber.Ctx) error {
	c.Status(fiber.StatusNoContent)
	c.Context().Response.ResetBody()
	return nil
}

// formatCents renders an amount of cents as the shortest decimal: 1999 is
// "19.99", 1990 "19.9", 2000 "20", as JavaScript would print the number.
func formatCents(c int64) string {
	s := strconv.FormatInt(c/100, 10)
	if r := c % 100; r != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%02d", r), "0")
	}
	return s
}

// PersonJSON is the representation of an area B user, for what carries one
// outside the CRUD routes (events).
func PersonJSON(p domain.Person) any { return presentPerson(p) }

// ProductJSON is the representation of a product, for what carries one
// outside the CRUD routes (events).
func ProductJSON(p domain.Product) any { return presentProduct(p) }
