package app

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// rightful returns actor as the store knows it now. An actor claiming
// admin rights is read again through r, in the transaction of the change,
// and refused with domain.ErrForbidden unless the account holds them now
// and acts through a browser session (authorize), so that rights revoked
// or an account deleted a moment ago count at once. An actor by its own
// right is returned as it is.
func rightful(ctx context.Context, r ports.Repos, actor domain.Acting) (domain.Acting, error) {
	if !actor.ByAdmin() {
		return actor, nil
	}
	u, err := authorize(ctx, r, ports.AdminCaller{Actor: actor.Actor, Address: actor.Address})
	if err != nil {
		return domain.Acting{}, err
	}
	actor.User = u
	return actor, nil
}

// audit writes, through r, the audit row of a change actor made by admin
// right; a change by the actor's own right writes none.
func audit(ctx context.Context, r ports.Repos, actor domain.Acting, action domain.AuditAction, subject string, id int64, now time.Time) error {
	if !actor.ByAdmin() {
		return nil
	}
	e := domain.NewAuditEntry(actor.User, action, subject, id, actor.Address, now)
	return r.Admin.AppendAudit(ctx, &e)
}
