package sqlrepo

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// PersonQueries are a store's statements on people. An e-mail is matched
// by domain.EmailKey, which CreatePerson and UpdatePerson store beside it;
// a clash violates people's unique key, which the store's Border turns
// into domain.ErrEmailTaken. A person's address is kept as JSON, which the
// store encodes and decodes in its column type.
type PersonQueries interface {
	CreatePerson(ctx context.Context, p domain.Person) (int64, error)
	GetPerson(ctx context.Context, id int64) (domain.Person, error)
	// LockPerson reads the person and holds it until the transaction ends.
	LockPerson(ctx context.Context, id int64) (domain.Person, error)
	UpdatePerson(ctx context.Context, p domain.Person) (int64, error)
	DeletePerson(ctx context.Context, id int64) (int64, error)
	// ListPeople is the store's own, whole, its errors translated: each
	// engine searches, orders and counts its way.
	ListPeople(ctx context.Context, q ports.PersonQuery) ([]domain.Person, int, error)
}

// People is ports.PersonRepository.
type People struct {
	Q PersonQueries
	B Border
}

var _ ports.PersonRepository = People{}

func (r People) Create(ctx context.Context, p *domain.Person) error {
	id, err := r.Q.CreatePerson(ctx, *p)
	if err != nil {
		return r.B.Err("create person", err)
	}
	p.ID = id
	return nil
}

func (r People) Get(ctx context.Context, id int64) (domain.Person, error) {
	p, err := r.Q.GetPerson(ctx, id)
	if err != nil {
		return domain.Person{}, r.B.Err(fmt.Sprintf("get person %d", id), err)
	}
	return p, nil
}

func (r People) Lock(ctx context.Context, id int64) (domain.Person, error) {
	p, err := r.Q.LockPerson(ctx, id)
	if err != nil {
		return domain.Person{}, r.B.Err(fmt.Sprintf("lock person %d", id), err)
	}
	return p, nil
}

func (r People) Update(ctx context.Context, p domain.Person) error {
	n, err := r.Q.UpdatePerson(ctx, p)
	return r.B.Affected(fmt.Sprintf("update person %d", p.ID), n, err)
}

func (r People) Delete(ctx context.Context, id int64) error {
	n, err := r.Q.DeletePerson(ctx, id)
	return r.B.Affected(fmt.Sprintf("delete person %d", id), n, err)
}

// List is the store's own (PersonQueries.ListPeople).
func (r People) List(ctx context.Context, q ports.PersonQuery) ([]domain.Person, int, error) {
	return r.Q.ListPeople(ctx, q)
}
