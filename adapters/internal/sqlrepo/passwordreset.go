package sqlrepo

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// PasswordResetQueries are a store's statements on password resets, one
// a user at the most.
type PasswordResetQueries interface {
	PutPasswordReset(ctx context.Context, p domain.PasswordReset) error
	GetPasswordReset(ctx context.Context, userID int64) (domain.PasswordReset, error)
	DeletePasswordReset(ctx context.Context, userID int64) error
}

// PasswordResets is ports.PasswordResetRepository.
type PasswordResets struct {
	Q PasswordResetQueries
	B Border
}

var _ ports.PasswordResetRepository = PasswordResets{}

func (r PasswordResets) Put(ctx context.Context, p domain.PasswordReset) error {
	return r.B.Err(fmt.Sprintf("put password reset of user %d", p.UserID), r.Q.PutPasswordReset(ctx, p))
}

func (r PasswordResets) ByUser(ctx context.Context, userID int64) (domain.PasswordReset, error) {
	p, err := r.Q.GetPasswordReset(ctx, userID)
	if err != nil {
		return domain.PasswordReset{}, r.B.Err(fmt.Sprintf("get password reset of user %d", userID), err)
	}
	return p, nil
}

func (r PasswordResets) DeleteByUser(ctx context.Context, userID int64) error {
	return r.B.Err(fmt.Sprintf("delete password reset of user %d", userID), r.Q.DeletePasswordReset(ctx, userID))
}
