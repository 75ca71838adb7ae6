package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// people implements ports.PersonRepository.
type people struct{ u unit }

func clonePerson(p domain.Person) domain.Person {
	p.Age = clonePtr(p.Age)
	p.Address = clonePtr(p.Address)
	p.CreatedAt = norm(p.CreatedAt)
	p.UpdatedAt = norm(p.UpdatedAt)
	return p
}

func (r people) Create(ctx context.Context, p *domain.Person) error {
	return r.u.write(ctx, func(s *state) error {
		key := domain.EmailKey(p.Email)
		if _, taken := s.personEmails[key]; taken {
			return fmt.Errorf("create person: %w", domain.ErrEmailTaken)
		}
		s.lastPerson++
		stored := clonePerson(*p)
		stored.ID = s.lastPerson
		s.people[stored.ID] = stored
		s.personEmails[key] = stored.ID
		p.ID = stored.ID
		return nil
	})
}

func (r people) Get(ctx context.Context, id int64) (domain.Person, error) {
	return get(ctx, r.u, func(s *state) map[int64]domain.Person { return s.people }, clonePerson, "person", id)
}

// Lock reads the record. Transactions already run one at a time, so there
// is nothing to hold.
func (r people) Lock(ctx context.Context, id int64) (domain.Person, error) {
	return r.Get(ctx, id)
}

func (r people) Update(ctx context.Context, p domain.Person) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.people[p.ID]
		if !ok {
			return fmt.Errorf("update person %d: %w", p.ID, domain.ErrNotFound)
		}
		key := domain.EmailKey(p.Email)
		if id, taken := s.personEmails[key]; taken && id != p.ID {
			return fmt.Errorf("update person %d: %w", p.ID, domain.ErrEmailTaken)
		}
		stored := clonePerson(p)
		stored.CreatedAt = old.CreatedAt
		delete(s.personEmails, domain.EmailKey(old.Email))
		s.personEmails[key] = p.ID
		s.people[p.ID] = stored
		return nil
	})
}

func (r people) Delete(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.people[id]
		if !ok {
			return fmt.Errorf("delete person %d: %w", id, domain.ErrNotFound)
		}
		delete(s.people, id)
		delete(s.personEmails, domain.EmailKey(old.Email))
		return nil
	})
}

// List filters with a plain substring test, so % and _ need no escaping. It
// folds the case of ASCII letters only, as SQLite's lower() does, so that
// the embedded store and this one find the same records.
func (r people) List(ctx context.Context, q ports.PersonQuery) ([]domain.Person, int, error) {
	compare, err := personOrder(q.Sort)
	if err != nil {
		return nil, 0, err
	}
	needle := foldASCII(q.Search)
	var matches []domain.Person
	err = r.u.read(ctx, func(s *state) error {
		for _, p := range s.people {
			if needle == "" ||
				strings.Contains(foldASCII(p.Name), needle) ||
				strings.Contains(foldASCII(p.Email), needle) {
				matches = append(matches, p)
			}
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return clonedPage(matches, compare, q.Page, clonePerson), len(matches), nil
}

// personOrder builds the comparison of a sort. Names and e-mails compare by
// bytes, as the SQL stores compare them (SQLite's default collation,
// PostgreSQL's "C"); a missing age sorts after every age, PostgreSQL's
// default, which the SQLite store spells out too. The id breaks ties,
// ascending. A field outside ports.PersonFields is refused as the SQL stores
// refuse it, since they never put a caller's text into their ORDER BY.
func personOrder(keys []ports.SortKey) (func(a, b domain.Person) int, error) {
	fields := make([]func(a, b domain.Person) int, len(keys))
	for i, k := range keys {
		f, ok := personCompare[k.Field]
		if !ok {
			return nil, fmt.Errorf("memory: list people: %w", domain.InvalidField("sort", domain.RuleOf(domain.RuleIn, ports.PersonFields...)))
		}
		if k.Desc {
			fields[i] = func(a, b domain.Person) int { return f(b, a) }
		} else {
			fields[i] = f
		}
	}
	return func(a, b domain.Person) int {
		for _, f := range fields {
			if c := f(a, b); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.ID, b.ID)
	}, nil
}

// personCompare orders two people by one of ports.PersonFields, ascending.
var personCompare = map[string]func(a, b domain.Person) int{
	"id":    func(a, b domain.Person) int { return cmp.Compare(a.ID, b.ID) },
	"name":  func(a, b domain.Person) int { return strings.Compare(a.Name, b.Name) },
	"email": func(a, b domain.Person) int { return strings.Compare(a.Email, b.Email) },
	"age": func(a, b domain.Person) int {
		switch {
		case a.Age == nil && b.Age == nil:
			return 0
		case a.Age == nil:
			return 1
		case b.Age == nil:
			return -1
		}
		return cmp.Compare(*a.Age, *b.Age)
	},
	"created_at": func(a, b domain.Person) int { return a.CreatedAt.Compare(b.CreatedAt) },
	"updated_at": func(a, b domain.Person) int { return a.UpdatedAt.Compare(b.UpdatedAt) },
}

// paginate returns the page of items as the SQL stores read a ports.Page: a
// negative offset counts as zero, and a limit below one means no limit.
func paginate[T any](items []T, p ports.Page) []T {
	offset := min(max(p.Offset, 0), len(items))
	items = items[offset:]
	if p.Limit > 0 && p.Limit < len(items) {
		items = items[:p.Limit]
	}
	return items
}

// clonedPage sorts items by compare and returns clones of the page of them
// that p selects, as paginate selects it.
func clonedPage[T any](items []T, compare func(a, b T) int, p ports.Page, clone func(T) T) []T {
	slices.SortFunc(items, compare)
	page := paginate(items, p)
	out := make([]T, len(page))
	for i, v := range page {
		out[i] = clone(v)
	}
	return out
}

// foldASCII lowers the ASCII letters of s and leaves every other byte alone.
func foldASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
