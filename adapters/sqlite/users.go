package sqlite

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// userQueries are sqlrepo.UserQueries.
type userQueries struct{ c conns }

var _ sqlrepo.UserQueries = userQueries{}

func (q userQueries) CreateUser(ctx context.Context, u domain.User) (int64, error) {
	return q.c.write.CreateUser(ctx, db.CreateUserParams(sqlrepo.NewUserOf(values, u)))
}

func (q userQueries) GetUser(ctx context.Context, id int64) (domain.User, error) {
	row, err := q.c.read.GetUser(ctx, id)
	return userOf(row), err
}

func (q userQueries) GetUsersByIDs(ctx context.Context, ids []int64) ([]domain.User, error) {
	rows, err := q.c.read.GetUsersByIDs(ctx, ids)
	return sqlrepo.Rows(rows, userOf), err
}

func (q userQueries) GetUserByEmailKey(ctx context.Context, key string) (domain.User, error) {
	row, err := q.c.read.GetUserByEmailKey(ctx, key)
	return userOf(row), err
}

// LockUser reads the user. Inside InTx no more is needed: the transaction
// began IMMEDIATE, so it already holds SQLite's single write lock, and every
// other writer waits for it to end. Outside a transaction there is nothing
// to hold.
func (q userQueries) LockUser(ctx context.Context, id int64) (domain.User, error) {
	return q.GetUser(ctx, id)
}

func (q userQueries) UpdateUser(ctx context.Context, u domain.User) (int64, error) {
	return q.c.write.UpdateUser(ctx, db.UpdateUserParams(sqlrepo.UserUpdateOf(values, u)))
}

func (q userQueries) SetRememberToken(ctx context.Context, id int64, token string) (int64, error) {
	return q.c.write.SetRememberToken(ctx, db.SetRememberTokenParams{RememberToken: token, ID: id})
}

func (q userQueries) MarkEmailVerified(ctx context.Context, id int64, email string, at time.Time) (int64, error) {
	return q.c.write.MarkEmailVerified(ctx, db.MarkEmailVerifiedParams{
		EmailVerifiedAt: nullTime(&at),
		UpdatedAt:       dbTime(at),
		ID:              id,
		Email:           email,
	})
}

func (q userQueries) UserExists(ctx context.Context, id int64) error {
	_, err := q.c.write.GetUser(ctx, id)
	return err
}

func (q userQueries) DeleteUser(ctx context.Context, id int64) (int64, error) {
	return q.c.write.DeleteUser(ctx, id)
}

func userOf(row db.User) domain.User {
	return sqlrepo.UserOf(values, row)
}
