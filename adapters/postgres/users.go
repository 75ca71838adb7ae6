package postgres

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// userQueries are sqlrepo.UserQueries.
type userQueries struct{ q *db.Queries }

var _ sqlrepo.UserQueries = userQueries{}

func (r userQueries) CreateUser(ctx context.Context, u domain.User) (int64, error) {
	return r.q.CreateUser(ctx, db.CreateUserParams(sqlrepo.NewUserOf(values, u)))
}

func (r userQueries) GetUser(ctx context.Context, id int64) (domain.User, error) {
	row, err := r.q.GetUser(ctx, id)
	return userOf(row), err
}

func (r userQueries) GetUsersByIDs(ctx context.Context, ids []int64) ([]domain.User, error) {
	rows, err := r.q.GetUsersByIDs(ctx, ids)
	return sqlrepo.Rows(rows, userOf), err
}

func (r userQueries) GetUserByEmailKey(ctx context.Context, key string) (domain.User, error) {
	row, err := r.q.GetUserByEmailKey(ctx, key)
	return userOf(row), err
}

func (r userQueries) LockUser(ctx context.Context, id int64) (domain.User, error) {
	row, err := r.q.LockUser(ctx, id)
	return userOf(row), err
}

func (r userQueries) UpdateUser(ctx context.Context, u domain.User) (int64, error) {
	return r.q.UpdateUser(ctx, db.UpdateUserParams(sqlrepo.UserUpdateOf(values, u)))
}

func (r userQueries) SetRememberToken(ctx context.Context, id int64, token string) (int64, error) {
	return r.q.SetRememberToken(ctx, db.SetRememberTokenParams{RememberToken: token, ID: id})
}

func (r userQueries) MarkEmailVerified(ctx context.Context, id int64, email string, at time.Time) (int64, error) {
	return r.q.MarkEmailVerified(ctx, db.MarkEmailVerifiedParams{VerifiedAt: dbTime(at), ID: id, Email: email})
}

func (r userQueries) UserExists(ctx context.Context, id int64) error {
	_, err := r.q.GetUser(ctx, id)
	return err
}

func (r userQueries) DeleteUser(ctx context.Context, id int64) (int64, error) {
	return r.q.DeleteUser(ctx, id)
}

func userOf(row db.User) domain.User {
	return sqlrepo.UserOf(values, row)
}
