package postgres

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// passwordResets implements ports.PasswordResetRepository.
type passwordResets struct{ q *db.Queries }

var _ ports.PasswordResetRepository = passwordResets{}

func (r passwordResets) Put(ctx context.Context, p domain.PasswordReset) error {
	err := r.q.PutPasswordReset(ctx, db.PutPasswordResetParams{
		UserID: p.UserID, TokenHash: p.TokenHash, CreatedAt: dbTime(p.CreatedAt), ExpiresAt: dbTime(p.ExpiresAt),
	})
	return storeError(fmt.Sprintf("put password reset of user %d", p.UserID), err)
}

func (r passwordResets) ByUser(ctx context.Context, userID int64) (domain.PasswordReset, error) {
	row, err := r.q.GetPasswordReset(ctx, userID)
	if err != nil {
		return domain.PasswordReset{}, storeError(fmt.Sprintf("get password reset of user %d", userID), err)
	}
	return domain.PasswordReset{UserID: row.UserID, TokenHash: row.TokenHash, CreatedAt: timeOf(row.CreatedAt), ExpiresAt: timeOf(row.ExpiresAt)}, nil
}

func (r passwordResets) DeleteByUser(ctx context.Context, userID int64) error {
	return storeError(fmt.Sprintf("delete password reset of user %d", userID), r.q.DeletePasswordReset(ctx, userID))
}
