package ports

import (
	"context"

	"github.com/inkwell/inkwell/domain"
)

// Optional is one field of a partial update. A field that is not Set keeps
// its stored value; a Set field takes Value, which for a nullable field may be
// nil to clear it.
type Optional[T any] struct {
	Set   bool
	Value T
}

// Some returns an Optional that sets the field to v.
func Some[T any](v T) Optional[T] {
	return Optional[T]{Set: true, Value: v}
}

// PersonInput is an area B user record, as a create or a full replacement
// carries it. Nil Age or Address means the record has none.
type PersonInput struct {
	Name    string
	Email   string
	Age     *int
	Address *domain.Address
}

// PersonPatch is a partial update of an area B user record.
type PersonPatch struct {
	Name    Optional[string]
	Email   Optional[string]
	Age     Optional[*int]
	Address Optional[*domain.Address]
}

// People is the driving port of area B's user records.
//
// Every write (Create, Replace, Patch, Delete) first returns
// domain.ErrUnauthenticated when the service requires a token for area B's
// writes (CRUD_AUTH=token) and the actor presented none
// (domain.Actor.CheckTokenPresented); reads are open to anyone.
type People interface {
	// Get returns record id. domain.ErrNotFound.
	Get(ctx context.Context, id int64) (domain.Person, error)
	// List returns one page of the records q selects, in q's order, and how
	// many match in all. An error of kind domain.Invalid for a sort field
	// outside PersonFields.
	List(ctx context.Context, q PersonQuery) ([]domain.Person, int, error)
	// Create stamps and stores a new record. An Invalid error naming each
	// field that breaks domain.Person.Check; domain.ErrEmailTaken when the
	// e-mail is in use, compared by domain.EmailKey.
	Create(ctx context.Context, actor domain.Actor, in PersonInput) (domain.Person, error)
	// Replace overwrites every field of record id in one transaction, as
	// Patch does.
	// domain.ErrNotFound, an Invalid error as Create's,
	// domain.ErrEmailTaken, domain.ErrPreconditionFailed when pre does not allow the version found.
	Replace(ctx context.Context, actor domain.Acting, id int64, in PersonInput, pre Precondition) (domain.Person, error)
	// Patch changes the fields p sets and keeps the others, reading and
	// writing in one transaction. domain.ErrNotFound, an Invalid error when
	// the patched record breaks domain.Person.Check, domain.ErrEmailTaken,
	// domain.ErrPreconditionFailed when pre does not allow the version found.
	// The actor acts by own right, as the API's callers do (gated as every
	// write is), or by admin right (the console), which the gate does not
	// ask: the account is read again in the transaction and refused with
	// domain.ErrForbidden unless it is an admin acting through a browser
	// session, and the change writes the audit row person.update.
	Patch(ctx context.Context, actor domain.Acting, id int64, p PersonPatch, pre Precondition) (domain.Person, error)
	// Delete removes record id. domain.ErrNotFound,
	// domain.ErrPreconditionFailed when pre does not allow the version found.
	Delete(ctx context.Context, actor domain.Actor, id int64, pre Precondition) error
}

// ProductInput is an area B product, as a create or a full replacement
// carries it. A nil SKU means the product has none.
type ProductInput struct {
	Name        string
	PriceCents  int64
	Description string
	Stock       int64
	SKU         *string
}

// Products is the driving port of area B's products.
// Its writes are gated as People's are.
type Products interface {
	// Get returns product id. domain.ErrNotFound.
	Get(ctx context.Context, id int64) (domain.Product, error)
	// List returns one page of products in id order and how many there are.
	List(ctx context.Context, page Page) ([]domain.Product, int, error)
	// Create stamps and stores a new product. An Invalid error naming each
	// field that breaks domain.Product.Check; domain.ErrSKUTaken when the SKU
	// is in use.
	Create(ctx context.Context, actor domain.Actor, in ProductInput) (domain.Product, error)
	// Replace overwrites every field of product id in one transaction.
	// domain.ErrNotFound, an Invalid error as Create's, domain.ErrSKUTaken,
	// domain.ErrPreconditionFailed when pre does not allow the version found.
	// The actor acts by own right or by admin right as in People.Patch;
	// the change by admin right writes the audit row product.update.
	Replace(ctx context.Context, actor domain.Acting, id int64, in ProductInput, pre Precondition) (domain.Product, error)
	// Delete removes product id. domain.ErrNotFound,
	// domain.ErrPreconditionFailed when pre does not allow the version found.
	Delete(ctx context.Context, actor domain.Actor, id int64, pre Precondition) error
}
