package postgres

import (
	"context"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// passwordResetQueries are sqlrepo.PasswordResetQueries.
type passwordResetQueries struct{ q *db.Queries }

var _ sqlrepo.PasswordResetQueries = passwordResetQueries{}

func (r passwordResetQueries) PutPasswordReset(ctx context.Context, p domain.PasswordReset) error {
	return r.q.PutPasswordReset(ctx, db.PutPasswordResetParams{
		UserID: p.UserID, TokenHash: p.TokenHash, CreatedAt: dbTime(p.CreatedAt), ExpiresAt: dbTime(p.ExpiresAt),
	})
}

func (r passwordResetQueries) GetPasswordReset(ctx context.Context, userID int64) (domain.PasswordReset, error) {
	row, err := r.q.GetPasswordReset(ctx, userID)
	return domain.PasswordReset{UserID: row.UserID, TokenHash: row.TokenHash, CreatedAt: timeOf(row.CreatedAt), ExpiresAt: timeOf(row.ExpiresAt)}, err
}

func (r passwordResetQueries) DeletePasswordReset(ctx context.Context, userID int64) error {
	return r.q.DeletePasswordReset(ctx, userID)
}
