package crud

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/adapters/httpapi/respcache"
	"github.com/inkwell/inkwell/adapters/httpapi/validate"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// users serves area B's user records on every users mount.
type users struct {
	record[domain.Person, ports.PersonInput, personView]
	people ports.People
	base   func(c *fiber.Ctx) string
}

func newUsers(people ports.People, base func(c *fiber.Ctx) string) users {
	return users{
		record: record[domain.Person, ports.PersonInput, personView]{
			cases: people, input: personInput, present: presentPerson, tag: domain.PersonTag,
			stamp: func(p domain.Person) (int64, time.Time) { return p.ID, p.UpdatedAt },
		},
		people: people, base: base,
	}
}

func (u users) list(c *fiber.Ctx) error {
	page, limit := positive(c, "page", 1, maxPage), positive(c, "limit", defaultLimit, maxLimit)
	people, total, err := u.people.List(c.UserContext(), ports.PersonQuery{Page: pageOf(page, limit)})
	if err != nil {
		return err
	}
	tagPeople(c, people)
	setPagingHeaders(c, u.base(c), page, limit, total)
	return ok(c, presentPeople(people))
}

func (u users) listV2(c *fiber.Ctx) error {
	q, err := personQuery(c)
	if err != nil {
		return err
	}
	people, total, err := u.people.List(c.UserContext(), q)
	if err != nil {
		return err
	}
	tagPeople(c, people)
	return c.JSON(envelope{Success: true, Message: statusMessage[fiber.StatusOK], Data: presentPeople(people), Meta: metaOf(q.Page, total)})
}

func (u users) createV2(c *fiber.Ctx) error {
	p, err := u.createRecord(c)
	if err != nil {
		return err
	}
	c.Location(u.base(c) + usersV2Mount + "/" + strconv.FormatInt(p.ID, 10))
	return created(c, presentPerson(p))
}

func (u users) patch(c *fiber.Ctx) error {
	id, v, err := idAndBody(c)
	if err != nil {
		return err
	}
	in, err := personPatch(v, true)
	if err != nil {
		return err
	}
	p, err := u.people.Patch(c.UserContext(), domain.ByOwnRight(writerOf(c)), id, in, conditional.IfMatch(c))
	if err != nil {
		return err
	}
	conditional.Version(c, p.UpdatedAt)
	return ok(c, presentPerson(p))
}

// personPatch validates a user body; a partial one checks only the fields
// it carries. Null (or a blank form value) clears age and address.
func personPatch(v *validate.Validator, partial bool) (ports.PersonPatch, error) {
	wants := func(field string) bool { return !partial || v.Has(field) }
	var p ports.PersonPatch
	if wants("name") {
		p.Name = ports.Some(v.String("name", validate.Required, validate.Check(domain.CheckPersonName)))
	}
	if wants("email") {
		p.Email = ports.Some(v.String("email", validate.Required, validate.Check(domain.CheckEmail)))
	}
	if wants("age") {
		p.Age = ports.Some(intPtr(v.Int("age", validate.Nullable, validate.CheckInt(domain.CheckAge))))
	}
	if wants("address") {
		p.Address = ports.Some(address(v))
	}
	return p, v.Err()
}

// address reads the optional address object; other keys in it are ignored,
// and an address with none of its four fields is no address.
func address(v *validate.Validator) *domain.Address {
	o, given := v.Object("address", validate.Nullable)
	a := domain.Address{
		Street:  o.String("street", validate.Nullable, validate.Check(domain.CheckAddressLine)),
		City:    o.String("city", validate.Nullable, validate.Check(domain.CheckAddressLine)),
		Zip:     o.String("zip", validate.Nullable, validate.Check(domain.CheckAddressLine)),
		Country: o.String("country", validate.Nullable, validate.Check(domain.CheckAddressLine)),
	}
	if !given || a == (domain.Address{}) {
		return nil
	}
	return &a
}

// personInput validates a whole user body, for a create or a replacement.
func personInput(v *validate.Validator) (ports.PersonInput, error) {
	p, err := personPatch(v, false)
	return ports.PersonInput{Name: p.Name.Value, Email: p.Email.Value, Age: p.Age.Value, Address: p.Address.Value}, err
}

func intPtr(n *int64) *int {
	if n == nil {
		return nil
	}
	i := int(*n)
	return &i
}

// personQuery reads the v2 list's page, per_page, q and sort parameters.
func personQuery(c *fiber.Ctx) (ports.PersonQuery, error) {
	page, perPage := positive(c, "page", 1, maxPage), positive(c, "per_page", defaultPerPage, maxPerPage)
	v := validate.New(map[string]any{"q": c.Query("q")})
	q := v.String("q", validate.Nullable, validate.Check(domain.CheckSearch))
	sort := sortKeys(v, c.Query("sort"))
	return ports.PersonQuery{Search: q, Sort: sort, Page: pageOf(page, perPage)}, v.Err()
}

// sortKeys reads a sort parameter such as "name,-created_at": fields of
// ports.PersonFields, each descending when prefixed with "-".
func sortKeys(v *validate.Validator, param string) []ports.SortKey {
	var keys []ports.SortKey
	for _, item := range strings.Split(param, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key := ports.SortKey{Field: strings.TrimPrefix(item, "-"), Desc: strings.HasPrefix(item, "-")}
		if !slices.Contains(ports.PersonFields, key.Field) {
			v.Fail("sort", domain.RuleOf(ruleSortFields, ports.PersonFields...))
			return nil
		}
		keys = append(keys, key)
	}
	return keys
}

// idParam reads the :id of a record route. Anything but a positive integer
// names no record, so it is a 404 as Express would answer, not a 400.
func idParam(c *fiber.Ctx) (int64, error) {
	s := c.Params("id")
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 || strings.TrimLeft(s, "0123456789") != "" {
		return 0, domain.ErrNotFound
	}
	return id, nil
}

// idAndBody reads the :id and the body of an update.
func idAndBody(c *fiber.Ctx) (int64, *validate.Validator, error) {
	id, err := idParam(c)
	if err != nil {
		return 0, nil, err
	}
	v, err := decodeBody(c)
	return id, v, err
}

// tagPeople records that a list shows people, for the cache of anonymous
// reads.
func tagPeople(c *fiber.Ctx, people []domain.Person) {
	respcache.Tag(c, domain.TagPeople)
	for _, p := range people {
		respcache.Tag(c, domain.PersonTag(p.ID))
	}
}
