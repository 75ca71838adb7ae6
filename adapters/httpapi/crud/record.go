package crud

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// recordCases are the use cases of one of area B's record kinds, T, whose
// whole body is In: ports.People and ports.Products alike.
type recordCases[T, In any] interface {
	Get(ctx context.Context, id int64) (T, error)
	Create(ctx context.Context, actor domain.Actor, in In) (T, error)
	Replace(ctx context.Context, actor domain.Acting, id int64, in In, pre ports.Precondition) (T, error)
	Delete(ctx context.Context, actor domain.Actor, id int64, pre ports.Precondition) error
}

// record serves what users and products do alike: the create, the read,
// the replacement and the delete of one record, shown as View.
type record[T, In, View any] struct {
	cases recordCases[T, In]
	// input validates a whole body, for a create or a replacement.
	input   func(*validate.Validator) (In, error)
	present func(T) View
	// tag is the cache tag of the record with an id (domain.PersonTag).
	tag func(id int64) string
	// stamp is the record's id and the time its version is made of.
	stamp func(T) (int64, time.Time)
}

func (r record[T, In, View]) create(c *fiber.Ctx) error {
	item, err := r.createRecord(c)
	if err != nil {
		return err
	}
	return created(c, r.present(item))
}

// createRecord creates the record the body describes.
func (r record[T, In, View]) createRecord(c *fiber.Ctx) (T, error) {
	var none T
	v, err := decodeBody(c)
	if err != nil {
		return none, err
	}
	in, err := r.input(v)
	if err != nil {
		return none, err
	}
	return r.cases.Create(c.UserContext(), writerOf(c), in)
}

func (r record[T, In, View]) read(c *fiber.Ctx) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	item, err := r.cases.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	id, updated := r.stamp(item)
	respcache.Tag(c, r.tag(id))
	conditional.Version(c, updated)
	return ok(c, r.present(item))
}

func (r record[T, In, View]) replace(c *fiber.Ctx) error {
	id, v, err := idAndBody(c)
	if err != nil {
		return err
	}
	in, err := r.input(v)
	if err != nil {
		return err
	}
	item, err := r.cases.Replace(c.UserContext(), domain.ByOwnRight(writerOf(c)), id, in, conditional.IfMatch(c))
	if err != nil {
		return err
	}
	_, updated := r.stamp(item)
	conditional.Version(c, updated)
	return ok(c, r.present(item))
}

func (r record[T, In, View]) delete(c *fiber.Ctx) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	if err := r.cases.Delete(c.UserContext(), writerOf(c), id, conditional.IfMatch(c)); err != nil {
		return err
	}
	return noContent(c)
}
