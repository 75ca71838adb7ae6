package app

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// DirectoryConfig configures area B's use cases, People and Products.
type DirectoryConfig struct {
	// RequireToken makes every write need an actor that presented a
	// personal access token (CRUD_AUTH=token); otherwise area B is open to
	// anyone, the zero actor included.
	RequireToken bool
}

// checkWrite returns what the configuration refuses to actor's write.
func (c DirectoryConfig) checkWrite(actor domain.Actor) error {
	if c.RequireToken {
		return actor.CheckTokenPresented()
	}
	return nil
}

// checkWriter is checkWrite for a change of an existing record: by admin
// right the gate is the account's admin rights, which rightful reads in the
// transaction of the change, not the token CRUD_AUTH=token asks of the
// API's callers, since an operator acts through a console session.
func (c DirectoryConfig) checkWriter(actor domain.Acting) error {
	if actor.ByAdmin() {
		return nil
	}
	return c.checkWrite(actor.Actor)
}

// People runs the use cases of area B's user records: it stamps their times
// and merges updates into the stored record inside one transaction.
type People struct {
	store ports.Store
	clock ports.Clock
	cfg   DirectoryConfig
}

// NewPeople returns the use cases of area B's user records.
func NewPeople(store ports.Store, clock ports.Clock, cfg DirectoryConfig) *People {
	return &People{store: store, clock: clock, cfg: cfg}
}

var _ ports.People = (*People)(nil)

// Create stores a new record created and updated now, once it keeps the
// rules of domain.Person.Check.
func (p *People) Create(ctx context.Context, actor domain.Actor, in ports.PersonInput) (domain.Person, error) {
	if err := p.cfg.checkWrite(actor); err != nil {
		return domain.Person{}, err
	}
	now := p.clock.Now()
	person := domain.Person{
		Name:      in.Name,
		Email:     in.Email,
		Age:       in.Age,
		Address:   in.Address,
		CreatedAt: now,
		UpdatedAt: now,
	}
	if err := person.Check(); err != nil {
		return domain.Person{}, err
	}
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		if err := r.People.Create(ctx, &person); err != nil {
			return err
		}
		return record(ctx, r, domain.NewPersonEvent(domain.PersonCreated, person, now))
	})
	if err != nil {
		return domain.Person{}, fmt.Errorf("create person: %w", err)
	}
	return person, nil
}

// Replace overwrites every field of record id but its creation time.
func (p *People) Replace(ctx context.Context, actor domain.Acting, id int64, in ports.PersonInput, pre ports.Precondition) (domain.Person, error) {
	return p.Patch(ctx, actor, id, ports.PersonPatch{
		Name:    ports.Some(in.Name),
		Email:   ports.Some(in.Email),
		Age:     ports.Some(in.Age),
		Address: ports.Some(in.Address),
	}, pre)
}

// Patch reads record id, applies the fields patch sets and writes it back in
// one transaction, so that two concurrent patches of different fields both
// survive. The patched record must keep the rules of domain.Person.Check.
// Anyone area B's gate lets through may patch a record by own right
// (checkWrite), and an admin by admin right, whose change is audited as
// person.update.
func (p *People) Patch(ctx context.Context, actor domain.Acting, id int64, patch ports.PersonPatch, pre ports.Precondition) (domain.Person, error) {
	if err := p.cfg.checkWriter(actor); err != nil {
		return domain.Person{}, err
	}
	var person domain.Person
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if actor, err = rightful(ctx, r, actor); err != nil {
			return err
		}
		if person, err = r.People.Lock(ctx, id); err != nil {
			return err
		}
		if !pre.Allows(person.UpdatedAt) {
			return domain.ErrPreconditionFailed
		}
		patchField(&person.Name, patch.Name)
		patchField(&person.Email, patch.Email)
		patchField(&person.Age, patch.Age)
		patchField(&person.Address, patch.Address)
		if err := person.Check(); err != nil {
			return err
		}
		person.UpdatedAt = p.clock.Now()
		if err := r.People.Update(ctx, person); err != nil {
			return err
		}
		if err := audit(ctx, r, actor, domain.AuditPersonUpdate, domain.SubjectPerson, id, person.UpdatedAt); err != nil {
			return err
		}
		return record(ctx, r, domain.NewPersonEvent(domain.PersonUpdated, person, person.UpdatedAt))
	})
	if err != nil {
		return domain.Person{}, fmt.Errorf("update person %d: %w", id, err)
	}
	return person, nil
}

// Get implements ports.People.
func (p *People) Get(ctx context.Context, id int64) (domain.Person, error) {
	person, err := p.store.Repos().People.Get(ctx, id)
	if err != nil {
		return domain.Person{}, fmt.Errorf("get person %d: %w", id, err)
	}
	return person, nil
}

// List implements ports.People.
func (p *People) List(ctx context.Context, q ports.PersonQuery) ([]domain.Person, int, error) {
	people, total, err := p.store.Repos().People.List(ctx, q)
	if err != nil {
		return nil, 0, fmt.Errorf("list people: %w", err)
	}
	return people, total, nil
}

// Delete implements ports.People. The event shows the record as it was.
func (p *People) Delete(ctx context.Context, actor domain.Actor, id int64, pre ports.Precondition) error {
	if err := p.cfg.checkWrite(actor); err != nil {
		return err
	}
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		person, err := r.People.Lock(ctx, id)
		if err != nil {
			return err
		}
		if !pre.Allows(person.UpdatedAt) {
			return domain.ErrPreconditionFailed
		}
		if err := r.People.Delete(ctx, id); err != nil {
			return err
		}
		return record(ctx, r, domain.NewPersonEvent(domain.PersonDeleted, person, p.clock.Now()))
	})
	if err != nil {
		return fmt.Errorf("delete person %d: %w", id, err)
	}
	return nil
}

// patchField sets *dst to the field's value when the patch sets it.
func patchField[T any](dst *T, f ports.Optional[T]) {
	if f.Set {
		*dst = f.Value
	}
}
