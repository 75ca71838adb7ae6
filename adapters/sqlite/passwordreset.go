package sqlite

import (
	"context"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// passwordResetQueries are sqlrepo.PasswordResetQueries.
type passwordResetQueries struct{ c conns }

var _ sqlrepo.PasswordResetQueries = passwordResetQueries{}

func (q passwordResetQueries) PutPasswordReset(ctx context.Context, p domain.PasswordReset) error {
	return q.c.write.PutPasswordReset(ctx, db.PutPasswordResetParams{
		UserID: p.UserID, TokenHash: p.TokenHash, CreatedAt: dbTime(p.CreatedAt), ExpiresAt: dbTime(p.ExpiresAt),
	})
}

func (q passwordResetQueries) GetPasswordReset(ctx context.Context, userID int64) (domain.PasswordReset, error) {
	row, err := q.c.read.GetPasswordReset(ctx, userID)
	return domain.PasswordReset{UserID: row.UserID, TokenHash: row.TokenHash, CreatedAt: timeOf(row.CreatedAt), ExpiresAt: timeOf(row.ExpiresAt)}, err
}

func (q passwordResetQueries) DeletePasswordReset(ctx context.Context, userID int64) error {
	return q.c.write.DeletePasswordReset(ctx, userID)
}
